import { z } from 'zod';

/**
 * Variables of the API's authentication: browser sessions, the per-key rate limit
 * and who may read `/metrics` and `/docs`. API keys themselves live in the database
 * (`touchbase keys create`); ADMIN_TOKEN (HttpEnv) is the one key set by the environment.
 */
export const ApiAuthEnv = {
  API_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .default(600)
    .describe(
      'Requests per minute each API key may make (counted in Redis, across replicas); beyond it 429 with Retry-After. 0 turns the limit off',
    ),
  API_SESSION_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'Signs the browser session cookie of the login page; unset: a random one per process (sessions end at a restart and are not shared between replicas)',
    ),
  API_SESSION_TTL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(30 * 86_400_000)
    .default(28_800_000)
    .describe('How long a browser session lasts after the login (8 hours by default)'),
  API_OPS_ACCESS: z
    .enum(['auto', 'open', 'guarded'])
    .default('auto')
    .describe(
      'Who may read /metrics and /docs: auto (open while API_HOST is a loopback address, a key with the read scope otherwise), open, or guarded',
    ),
};
