import type { Database } from './database.js';
import { AlertRepository } from './repositories/alert.repository.js';
import { AuditRepository } from './repositories/audit.repository.js';
import { DomainHealthRepository } from './repositories/domain-health.repository.js';
import { EnrollmentRepository } from './repositories/enrollment.repository.js';
import { EnrollmentWaitingRepository } from './repositories/enrollment-waiting.repository.js';
import { EventLogRepository } from './repositories/event-log.repository.js';
import { FunnelRepository } from './repositories/funnel.repository.js';
import { MailboxSettingsRepository } from './repositories/mailbox-settings.repository.js';
import { ProspectRepository } from './repositories/prospect.repository.js';
import { SendingDomainRepository } from './repositories/sending-domain.repository.js';
import { SequenceRepository } from './repositories/sequence.repository.js';
import { SuppressionRepository } from './repositories/suppression.repository.js';
import { TouchRepository } from './repositories/touch.repository.js';
import { TouchWindowRepository } from './repositories/touch-window.repository.js';
import { TriageRepository } from './repositories/triage.repository.js';

/**
 * The reads that may be answered by a streaming replica (`DATABASE_REPLICA_URL`):
 * pages of lists, the stats and funnels, the waiting reasons. This type is the one
 * list of them, so no write and no read that must see its own write (a use case, a
 * claim, the fence) can reach the replica by mistake: it has no such method.
 * A replica lags the primary by its replay delay, so what reads here may miss the
 * last few milliseconds of writes; see docs/scaling.md#read-replica.
 */
export type ReadRepositories = {
  suppressions: Pick<SuppressionRepository, 'list'>;
  events: Pick<EventLogRepository, 'list'>;
  audit: Pick<AuditRepository, 'list'>;
  enrollments: Pick<EnrollmentRepository, 'list' | 'funnel' | 'nodeFunnel' | 'get'>;
  touches: Pick<TouchRepository, 'sentByStepAndVariant'>;
  touchWindows: Pick<TouchWindowRepository, 'usage'>;
  funnel: Pick<FunnelRepository, 'view'>;
  /** Reads only. */
  waiting: EnrollmentWaitingRepository;
  prospects: Pick<ProspectRepository, 'list'>;
  sequences: Pick<SequenceRepository, 'list'>;
  mailboxSettings: Pick<MailboxSettingsRepository, 'mailboxPage' | 'poolPage'>;
  sendingDomains: Pick<SendingDomainRepository, 'list'>;
  alerts: Pick<AlertRepository, 'list'>;
  triage: Pick<TriageRepository, 'list'>;
  domainHealth: Pick<DomainHealthRepository, 'account'>;
};

/** The read repositories over `db` (the replica's connections, or the primary's when there is none). */
export function createReadRepositories(db: Database): ReadRepositories {
  return {
    suppressions: new SuppressionRepository(db.pool),
    events: new EventLogRepository(db.pool),
    audit: new AuditRepository(db.pool),
    enrollments: new EnrollmentRepository(db.pool),
    touches: new TouchRepository(db.pool),
    touchWindows: new TouchWindowRepository(db.pool),
    funnel: new FunnelRepository(db.pool),
    waiting: new EnrollmentWaitingRepository(db.pool),
    prospects: new ProspectRepository(db.pool),
    sequences: new SequenceRepository(db.prisma),
    mailboxSettings: new MailboxSettingsRepository(db.prisma),
    sendingDomains: new SendingDomainRepository(db.pool),
    alerts: new AlertRepository(db.pool),
    triage: new TriageRepository(db.pool),
    domainHealth: new DomainHealthRepository(db.pool),
  };
}
