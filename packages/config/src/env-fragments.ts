/**
 * The environment's fragments, one file per service under `fragments/`: each is a
 * zod shape of the variables that service reads, with their defaults and
 * descriptions (the source of `.env.example`). They are merged into `AllEnv`.
 */

export { CommonEnv } from './fragments/common.env.js';
export { DomainHealthEnv } from './fragments/domain-health.env.js';
export { bool as envBool } from './fragments/env-helpers.js';
export { HttpEnv } from './fragments/http.env.js';
export { IngestEnv } from './fragments/ingest.env.js';
export { ProviderEnv } from './fragments/provider.env.js';
export { SandboxEnv } from './fragments/sandbox.env.js';
export { SchedulerEnv } from './fragments/scheduler.env.js';
export { SenderEnv } from './fragments/sender.env.js';
