/**
 * @touchbase/config: the environment, validated by zod at boot. The variables are
 * grouped in one fragment per service (`fragments/*.env.ts`); every process parses
 * all of them, merged as {@link AllEnv}, once with {@link loadConfig} (through
 * `loadRuntimeConfig` in @touchbase/runtime), so `touchbase start` and each app run
 * alone read the same configuration and a bad variable fails any of them at boot.
 */
export * from './api-auth.env.js';
export { ConfigError } from './config-error.js';
export * from './env-fragments.js';
export { loadConfig } from './load-config.js';
export { checkRedisLayout, type RedisLayoutEnv } from './redis-layout.js';

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

/** Every variable touchbase reads: what each service parses at boot, and `.env.example`. */
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
