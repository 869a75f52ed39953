import type { Database } from './database.js';
import { AlertRepository } from './repositories/alert.repository.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { AuditRepository } from './repositories/audit.repository.js';
import { ContactPolicyRepository } from './repositories/contact-policy.repository.js';
import { CrmOutboxRepository } from './repositories/crm-outbox.repository.js';
import { DomainHealthRepository } from './repositories/domain-health.repository.js';
import { EnrollmentRepository } from './repositories/enrollment.repository.js';
import { EnrollmentActionRepository } from './repositories/enrollment-action.repository.js';
import { EnrollmentWaitingRepository } from './repositories/enrollment-waiting.repository.js';
import { EventRepository } from './repositories/event.repository.js';
import { EventRetentionRepository } from './repositories/event-retention.repository.js';
import { FunnelRepository } from './repositories/funnel.repository.js';
import { LinkedInAccountRepository } from './repositories/linkedin-account.repository.js';
import { MailboxRepository } from './repositories/mailbox.repository.js';
import { MailboxSettingsRepository } from './repositories/mailbox-settings.repository.js';
import { PendingTouchRepository } from './repositories/pending-touch.repository.js';
import { ProspectRepository } from './repositories/prospect.repository.js';
import { ProspectMergeRepository } from './repositories/prospect-merge.repository.js';
import { ReactivationRepository } from './repositories/reactivation.repository.js';
import { SendingDomainRepository } from './repositories/sending-domain.repository.js';
import { SequenceRepository } from './repositories/sequence.repository.js';
import { SequenceMigrationRepository } from './repositories/sequence-migration.repository.js';
import { SuppressionRepository } from './repositories/suppression.repository.js';
import { SuppressionStopRepository } from './repositories/suppression-stop.repository.js';
import { TouchRepository } from './repositories/touch.repository.js';
import { TouchWindowRepository } from './repositories/touch-window.repository.js';
import { TriageRepository } from './repositories/triage.repository.js';

/** Every repository over one database; apps take this as their `repos` dependency. */
export type Repositories = ReturnType<typeof createRepositories>;

/** Tuning of the repositories' batched statements. */
export type RepositoryOptions = {
  /** INGEST_STOP_BATCH_HOLD_MS: how long a batched stop waits for more while another batch runs (see EventBatchRepository). */
  stopBatchHoldMs?: number;
};

export function createRepositories(db: Database, opts: RepositoryOptions = {}) {
  return {
    sequences: new SequenceRepository(db.prisma),
    prospects: new ProspectRepository(db.pool),
    prospectMerges: new ProspectMergeRepository(db.pool),
    mailboxes: new MailboxRepository(db.prisma),
    mailboxSettings: new MailboxSettingsRepository(db.prisma),
    linkedinAccounts: new LinkedInAccountRepository(db.prisma),
    enrollments: new EnrollmentRepository(db.pool),
    enrollmentActions: new EnrollmentActionRepository(db.pool),
    touches: new TouchRepository(db.pool),
    touchWindows: new TouchWindowRepository(db.pool),
    events: new EventRepository(db.pool, opts),
    eventRetention: new EventRetentionRepository(db.pool),
    suppressions: new SuppressionRepository(db.pool),
    suppressionStops: new SuppressionStopRepository(db.pool),
    audit: new AuditRepository(db.pool),
    sendingDomains: new SendingDomainRepository(db.pool),
    domainHealth: new DomainHealthRepository(db.pool),
    alerts: new AlertRepository(db.pool),
    triage: new TriageRepository(db.pool),
    crmOutbox: new CrmOutboxRepository(db.pool),
    apiKeys: new ApiKeyRepository(db.pool),
    funnel: new FunnelRepository(db.pool),
    waiting: new EnrollmentWaitingRepository(db.pool),
    contactPolicies: new ContactPolicyRepository(db.pool),
    reactivations: new ReactivationRepository(db.pool),
    sequenceMigrations: new SequenceMigrationRepository(db.pool),
    pendingTouches: new PendingTouchRepository(db.pool),
  };
}
