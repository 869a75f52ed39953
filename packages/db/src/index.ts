/**
 * @touchbase/db: the Prisma client, the repositories (the only code that touches
 * the database) and the migration runner.
 */

export type {
  ApplyOptions,
  ApplyResult,
  EnrollmentStep,
  SoftBounceRetry,
} from '@touchbase/use-cases';
export {
  assertDatabaseReachable,
  createDatabase,
  type Database,
  DatabaseUnavailableError,
  inTransaction,
} from './database.js';
export { type DatabaseOutage, databaseOutageOf } from './database-outage.js';
export * from './migrate/index.js';
export { createReadRepositories, type ReadRepositories } from './read-repositories.js';
export {
  type AlertDeliveryRow,
  AlertRepository,
  type AlertRow,
} from './repositories/alert.repository.js';
export {
  ApiKeyRepository,
  type ApiKeyRow,
  type ApiKeyScope,
} from './repositories/api-key.repository.js';
export { AuditRepository } from './repositories/audit.repository.js';
export {
  type ContactCheck,
  ContactPolicyRepository,
  type CountedToday,
} from './repositories/contact-policy.repository.js';
export { type CrmNotificationRow, CrmOutboxRepository } from './repositories/crm-outbox.repository.js';
export { DomainHealthRepository } from './repositories/domain-health.repository.js';
export {
  EnrollmentRepository,
  type EnrollmentRow,
  type EnrollRefusal,
  type EnrollResult,
  emailHash,
  HELD_FOR_DOMAIN_PAUSE,
} from './repositories/enrollment.repository.js';
export {
  type ActedEnrollment,
  type ActionCount,
  EnrollmentActionRepository,
  type EnrollmentSelection,
} from './repositories/enrollment-action.repository.js';
export {
  EnrollmentWaitingRepository,
  type WaitingLinkedInAccountRow,
  type WaitingStateRow,
} from './repositories/enrollment-waiting.repository.js';
export { EventRepository } from './repositories/event.repository.js';
export type { EventRow } from './repositories/event-log.repository.js';
export { EventRetentionRepository, type RetentionBatch } from './repositories/event-retention.repository.js';
export {
  type FunnelCountsRow,
  type FunnelFilter,
  FunnelRepository,
  type FunnelView,
} from './repositories/funnel.repository.js';
export {
  type LinkedInAccountInput,
  LinkedInAccountRepository,
  type LinkedInAccountRow,
  linkedInCapsOf,
} from './repositories/linkedin-account.repository.js';
export {
  type MailboxInput,
  MailboxRepository,
  type MailboxWindowInput,
} from './repositories/mailbox.repository.js';
export {
  type MailboxCapsInput,
  MailboxSettingsRepository,
  OPERATOR_PAUSE_PREFIX,
} from './repositories/mailbox-settings.repository.js';
export {
  type DueMove,
  type PendingScope,
  PendingTouchRepository,
  type PendingTouchRow,
} from './repositories/pending-touch.repository.js';
export {
  type IdentityConflict,
  type ProspectInput,
  ProspectRepository,
  type ProspectRow,
  type ProspectView,
} from './repositories/prospect.repository.js';
export {
  type MergeResult,
  type MergeStopped,
  ProspectMergeRepository,
} from './repositories/prospect-merge.repository.js';
export {
  ReactivationRepository,
  type ReactivationRow,
  type ReactivationRun,
} from './repositories/reactivation.repository.js';
export {
  type SendContext,
  SendContextRepository,
  type SendMailbox,
} from './repositories/send-context.repository.js';
export {
  type AccountHealth,
  type DomainCounts,
  type DomainDayRow,
  type DomainWindow,
  type HeldEnrollment,
  type NewAlert,
  type SendingDomainDetail,
  SendingDomainRepository,
  type SendingDomainRow,
} from './repositories/sending-domain.repository.js';
export { SequenceRepository, type SequenceVersionRow } from './repositories/sequence.repository.js';
export { SequenceMigrationRepository } from './repositories/sequence-migration.repository.js';
export { SuppressionRepository, type SuppressionRow } from './repositories/suppression.repository.js';
export {
  type SuppressionMatch,
  SuppressionStopRepository,
} from './repositories/suppression-stop.repository.js';
export { TouchRepository, type TouchRow } from './repositories/touch.repository.js';
export { type Claim, type ClaimInput, TouchClaimRepository } from './repositories/touch-claim.repository.js';
export { type SentInput, TouchProgressRepository } from './repositories/touch-progress.repository.js';
export { TouchRetentionRepository } from './repositories/touch-retention.repository.js';
export {
  type MailboxTouchCounts,
  type MailboxUsageRow,
  TouchWindowRepository,
} from './repositories/touch-window.repository.js';
export { type TriageItemRow, TriageRepository } from './repositories/triage.repository.js';
export { createRepositories, type Repositories, type RepositoryOptions } from './repositories.js';
