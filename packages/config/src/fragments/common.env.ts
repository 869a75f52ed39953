import { z } from 'zod';

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
  DATABASE_REPLICA_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' })
    .optional()
    .describe(
      'A streaming replica of DATABASE_URL: the API reads its lists, stats, funnels and waiting reasons there; writes and read-your-writes stay on DATABASE_URL. Unset: every read goes to DATABASE_URL',
    ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10).describe('Connections per process'),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'Bound on taking a PostgreSQL connection (opening one, or waiting for a free one); past it the query fails (HTTP: 503). Unset: no bound',
    ),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .default('redis://127.0.0.1:6379')
    .describe('Redis connection URL (BullMQ needs maxmemory-policy noeviction)'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_{}-]+$/, 'letters, digits, _, -, {} only')
    .default('touchbase')
    .describe(
      'Key prefix for every queue and bucket. On Redis Cluster leave it without {}: each queue (and each touch partition) hash-tags its own keys',
    ),
  REDIS_CLUSTER_NODES: z
    .string()
    .transform((value, ctx) => {
      const nodes = value.split(',').map((n) => n.trim());
      const parsed: { host: string; port: number }[] = [];
      for (const node of nodes) {
        const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$/.exec(node);
        const port = Number(match?.[2]);
        if (!match || port < 1 || port > 65535) {
          ctx.addIssue({
            code: 'custom',
            message: `'${node}' is not host:port (e.g. 10.0.0.1:7000,10.0.0.2:7000)`,
          });
          return z.NEVER;
        }
        parsed.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
      }
      return parsed;
    })
    .optional()
    .describe(
      'Redis Cluster seed nodes, comma-separated host:port (a few masters are enough; the rest is discovered). Set: every service talks to the cluster and REDIS_URL is not used',
    ),
  TOUCH_QUEUE_PARTITIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(1)
    .describe(
      'How many queues the touches are split into, by enrollment; each on its own hash slot, so on Redis Cluster their load spreads over the shards (a multiple of the masters is best). 1: the one `touches` queue',
    ),
  TIME_SCALE: z.coerce
    .number()
    .min(1, 'must be at least 1 (1 = real time)')
    .default(1)
    .describe('Compresses every wait for demos and tests: 86400 makes a day last a second (sandbox only)'),
  COMPLIANCE_DO_NOT_CONTACT: z
    .string()
    .default('{}')
    .describe(
      'Do-not-contact hours and days per recipient country, as JSON keyed by ISO country code, applied on top of every sending window in the recipient\'s local time: {"DE":{"days":[7]},"FR":{"notBefore":"08:00","notAfter":"20:00","days":[6,7]}} (days ISO 1-7, dates YYYY-MM-DD); the country is the prospect\'s `country` attribute',
    ),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe('Bound on graceful shutdown'),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe(
      'Port of a small HTTP server with /metrics, /healthz and /readyz for a service run alone (sender, scheduler, domain-health have no other); unset: none',
    ),
  METRICS_HOST: z.string().default('127.0.0.1').describe('Address the METRICS_PORT server listens on'),
};
