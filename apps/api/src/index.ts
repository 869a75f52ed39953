/** @touchbase/api: the internal REST API, OpenAPI at /docs, Bull Board at /admin/queues. */
export { type ApiAppDeps, type ApiAuthOptions, type ApiDeps, buildApi } from './app.js';
export { ApiKeyNameSchema, hashApiKey } from './auth/api-key.js';
export { API_SCOPES, type ApiScope, parseScope } from './auth/api-scope.js';
export { decideBinding, isLoopback } from './auth/bind-policy.js';
export { startApi } from './start.js';
export { createApiKey } from './use-cases/create-api-key.js';
export { enrollProspects } from './use-cases/enroll-prospects.js';
export { revokeApiKey } from './use-cases/revoke-api-key.js';
export {
  type SimulationRequest,
  SimulationRequestSchema,
  simulateCampaign,
} from './use-cases/simulate-campaign.js';
