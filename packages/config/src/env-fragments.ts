import { z } from 'zod';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Variables every service reads. */
export const CommonEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development').describe('Runtime mode'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' })
    .default('postgresql://postgres@127.0.0.1:5432/touchbase')
    .describe('PostgreSQL connection URL; the database is created if missing'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10).describe('Connections per process'),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .default('redis://127.0.0.1:6379')
    .describe('Redis connection URL (BullMQ needs maxmemory-policy noeviction)'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_{}-]+$/, 'letters, digits, _, -, {} only')
    .default('touchbase')
    .describe('Key prefix for every queue; wrap in {} for Redis Cluster'),
  TIME_SCALE: z.coerce
    .number()
    .min(1, 'must be at least 1 (1 = real time)')
    .default(1)
    .describe('Compresses every wait for demos and tests: 86400 makes a day last a second (sandbox only)'),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe('Bound on graceful shutdown'),
};

/** Variables of the HTTP services. */
export const HttpEnv = {
  API_HOST: z.string().default('127.0.0.1').describe('Address the API listens on'),
  API_PORT: port(3000).describe('Port of the REST API'),
  INGEST_HOST: z.string().default('127.0.0.1').describe('Address ingest listens on'),
  INGEST_PORT: port(3001).describe('Port of the webhook ingest service'),
  PUBLIC_BASE_URL: z
    .url()
    .default('http://127.0.0.1:3000')
    .describe('Base URL used in links (alerts, unsubscribe)'),
  ADMIN_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Bearer token for /v1 and /admin/queues; unset leaves them open (development only)'),
};

/** Variables of the sandbox provider. */
export const SandboxEnv = {
  SANDBOX_PORT: port(3002).describe('Port of the sandbox provider (loopback)'),
  SANDBOX_URL: z
    .url()
    .optional()
    .describe('Where a sender reaches the sandbox; defaults to http://127.0.0.1:SANDBOX_PORT'),
  SANDBOX_HOST: z
    .string()
    .default('127.0.0.1')
    .describe('Address the standalone sandbox listens on (`touchbase sandbox`)'),
  SANDBOX_WEBHOOK_URL: z
    .url()
    .optional()
    .describe(
      'Where the standalone sandbox posts its answers; defaults to http://127.0.0.1:INGEST_PORT/webhooks/sandbox',
    ),
  SANDBOX_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .default('whsec_dG91Y2hiYXNlLXNhbmRib3gtZGV2LXNlY3JldA==')
    .describe('Standard Webhooks secret shared by the sandbox and ingest'),
  SANDBOX_REPLY_RATE: z.coerce.number().min(0).max(1).default(0.08).describe('Odds a touch gets a reply'),
  SANDBOX_BOUNCE_RATE: z.coerce.number().min(0).max(1).default(0.02).describe('Odds a touch hard-bounces'),
  SANDBOX_OOO_RATE: z.coerce.number().min(0).max(1).default(0.02).describe('Odds of an out-of-office answer'),
  SANDBOX_EVENT_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(3_600_000)
    .describe('Delay before an answer (scaled by TIME_SCALE)'),
  SANDBOX_SEED: z.coerce.number().int().default(42).describe('Seed of the sandbox odds'),
};

/** Variables of the sender. */
export const SenderEnv = {
  SENDER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(50)
    .describe('Touches in flight per process'),
  SENDER_PROVIDER_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(15_000)
    .describe('Timeout of one provider call'),
  SENDER_LOCK_DURATION_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(30_000)
    .describe(
      "How long a touch job stays locked to one sender; a dead sender's jobs are taken over after it",
    ),
  SENDER_STALLED_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(500)
    .default(15_000)
    .describe('How often stalled jobs are looked for'),
};

/** Variables of the scheduler. */
export const SchedulerEnv = {
  SCHEDULER_RECONCILE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60_000)
    .describe('How often the reconciler compares PostgreSQL and Redis'),
  SCHEDULER_JITTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Random delay added to each due time'),
};

/** Variables of domain-health. */
export const DomainHealthEnv = {
  DOMAIN_HEALTH_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000).describe('Tick interval'),
  DOMAIN_HEALTH_BOUNCE_THRESHOLD: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.03)
    .describe('Bounce rate that pauses'),
  DOMAIN_HEALTH_MIN_SENDS: z.coerce.number().int().min(1).default(50).describe('Minimum sends in the window'),
  DOMAIN_HEALTH_WINDOW_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(90)
    .default(7)
    .describe('Rolling window in days'),
  ALERT_SLACK_WEBHOOK_URL: z.url().optional().describe('Slack incoming webhook for ops alerts'),
};

export { bool as envBool };
