/**
 * @touchbase/use-cases: the effects shared by several services, each one use case
 * that records, decides in core, persists through the ports its store implements
 * (@touchbase/db), then runs the after-commit steps.
 */

export type { ApplyEventDeps } from './apply-event/apply-event.deps.js';
export * from './apply-event/apply-event.ports.js';
export * from './apply-event/apply-event.types.js';
export { applyEvent } from './apply-event/apply-event.usecase.js';
export { takeEarlyEdges } from './apply-event/early-edges.js';
export { recordAndApplyEvent } from './apply-event/record-and-apply.js';
export {
  applyVersionMigration,
  type MigrationRunResult,
  resumeMigrations,
  runMigration,
  runMigrationInBackground,
} from './migrate-enrollments/apply-migration.usecase.js';
export type { MigrateEnrollmentsDeps } from './migrate-enrollments/migrate-enrollments.deps.js';
export type * from './migrate-enrollments/migrate-enrollments.ports.js';
export {
  type MigrationPreview,
  type PlanMigrationCommand,
  planVersionMigration,
  type VersionRef,
} from './migrate-enrollments/plan-migration.usecase.js';
export * from './retime-pending/retime-pending-touches.js';
