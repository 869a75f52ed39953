/**
 * @touchbase/config: the environment, validated by zod at boot. Each app composes
 * the fragments it needs and parses once with {@link loadConfig}.
 */
export * from './api-auth.env.js';
export { ConfigError } from './config-error.js';
export * from './env-fragments.js';
export { loadConfig } from './load-config.js';

import { ApiAuthEnv } from './api-auth.env.js';
import {
  CommonEnv,
  DomainHealthEnv,
  HttpEnv,
  IngestEnv,
  ProviderEnv,
  SandboxEnv,
  SchedulerEnv,
  SenderEnv,
} from './env-fragments.js';

/** Every variable touchbase reads, for `touchbase start` and `.env.example`. */
export const AllEnv = {
  ...CommonEnv,
  ...HttpEnv,
  ...ApiAuthEnv,
  ...SandboxEnv,
  ...SenderEnv,
  ...ProviderEnv,
  ...SchedulerEnv,
  ...DomainHealthEnv,
  ...IngestEnv,
};
export { renderEnvExample } from './env-example.js';
