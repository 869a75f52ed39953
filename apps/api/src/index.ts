/** @touchbase/api: the internal REST API, OpenAPI at /docs, Bull Board at /admin/queues. */
export { type ApiAppDeps, type ApiDeps, buildApi } from './app.js';
export { startApi } from './start.js';
export { enrollProspects } from './use-cases/enroll-prospects.js';
