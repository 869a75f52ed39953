/** @touchbase/scheduler: keeps Redis's schedule in line with PostgreSQL (the reconciler). */
export { buildScheduler, type SchedulerDeps } from './app.js';
export { reconcile } from './processors/reconcile.processor.js';
export { startScheduler } from './start.js';
