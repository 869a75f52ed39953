/** @touchbase/ingest: provider webhooks to canonical events, recorded once and applied. */
export { buildIngest, type IngestAppDeps } from './app.js';
export { startIngest } from './start.js';
export { ingestEvent } from './use-cases/ingest-event.js';
