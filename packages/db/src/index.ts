/**
 * @touchbase/db: the Prisma client, the repositories (the only code that touches
 * the database) and the migration runner.
 */
export {
  assertDatabaseReachable,
  createDatabase,
  type Database,
  DatabaseUnavailableError,
  inTransaction,
} from './database.js';
export { type DatabaseOutage, databaseOutageOf } from './database-outage.js';
export * from './migrate/index.js';
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
export { type CrmNotificationRow, CrmOutboxRepository } from './repositories/crm-outbox.repository.js';
export {
  EnrollmentRepository,
  type EnrollmentRow,
  type EnrollResult,
  emailHash,
  HELD_FOR_DOMAIN_PAUSE,
} from './repositories/enrollment.repository.js';
export {
  type ApplyOptions,
  type ApplyResult,
  type EnrollmentStep,
  EventRepository,
  type SoftBounceRetry,
} from './repositories/event.repository.js';
export {
  type MailboxInput,
  MailboxRepository,
  type MailboxWindowInput,
} from './repositories/mailbox.repository.js';
export {
  type ProspectInput,
  ProspectRepository,
  type ProspectRow,
  type ProspectView,
} from './repositories/prospect.repository.js';
export {
  type DomainCounts,
  type DomainWindow,
  type HeldEnrollment,
  type NewAlert,
  SendingDomainRepository,
} from './repositories/sending-domain.repository.js';
export { SequenceRepository, type SequenceVersionRow } from './repositories/sequence.repository.js';
export { SuppressionRepository } from './repositories/suppression.repository.js';
export {
  type Claim,
  type ClaimInput,
  type SendContext,
  type SentInput,
  TouchRepository,
} from './repositories/touch.repository.js';
export { type TriageItemRow, TriageRepository } from './repositories/triage.repository.js';
export { createRepositories, type Repositories } from './repositories.js';
