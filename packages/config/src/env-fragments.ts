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
  INGEST_PUBLIC_URL: z
    .url()
    .optional()
    .describe(
      'Public base URL of ingest, for one-click unsubscribe links (/u/{token}); defaults to http://127.0.0.1:INGEST_PORT',
    ),
  ADMIN_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Bearer token with the admin scope (besides `touchbase keys`); with neither, loopback only'),
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
  SANDBOX_WEBHOOK_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(12)
    .describe(
      'Pushes of one sandbox webhook before it is given up (the event stays in its pull stream, GET /events)',
    ),
  SANDBOX_WEBHOOK_BACKOFF_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .describe('Wait before the second push of a sandbox webhook; doubled before each next one'),
  SANDBOX_WEBHOOK_MAX_BACKOFF_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5_000)
    .describe('Longest wait between two pushes of a sandbox webhook'),
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
  SENDER_SPACING_JITTER: z.coerce
    .number()
    .min(0)
    .max(5)
    .default(0.3)
    .describe(
      "Random extra spacing between a mailbox's sends, as a fraction of its minSpacingMs (0.3: 1.0 to 1.3 times)",
    ),
  SENDER_HOLD_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe(
      'How long a touch of a paused mailbox or domain waits before it looks again (scaled by TIME_SCALE)',
    ),
  SENDER_PROVIDER_RECHECK: bool(true).describe(
    'Before each send, ask the provider (where its adapter can) whether it saw a reply, bounce or unsubscribe',
  ),
  SENDER_RECHECK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(50)
    .default(2_000)
    .describe(
      "Bound on the pre-send look at the provider's view of the prospect; past it the touch goes on as if the provider knew nothing",
    ),
};

/**
 * Provider credentials. Secrets live here, never in a mailbox's providerConfig
 * (which holds ids: campaign, sender); an adapter is registered only when its
 * credentials are set.
 */
export const ProviderEnv = {
  SMARTLEAD_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('Smartlead API key (sent as the api_key query parameter); enables the smartlead provider'),
  SMARTLEAD_BASE_URL: z
    .url()
    .default('https://server.smartlead.ai/api/v1')
    .describe('Smartlead API base URL'),
  LEMLIST_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('lemlist API key (HTTP Basic password); enables the lemlist provider'),
  LEMLIST_BASE_URL: z.url().default('https://api.lemlist.com/api').describe('lemlist API base URL'),
  HTTP_PROVIDER_URL: z
    .url()
    .optional()
    .describe('Base URL of a generic HTTP sending provider; enables the http provider'),
  HTTP_PROVIDER_TOKEN: z.string().min(1).optional().describe('Bearer token for HTTP_PROVIDER_URL'),
  SMTP_HOST: z
    .string()
    .min(1)
    .optional()
    .describe('SMTP submission server of your own mailboxes; enables the smtp provider'),
  SMTP_PORT: port(587).describe('SMTP submission port (587 STARTTLS, 465 implicit TLS)'),
  SMTP_SECURE: bool(false).describe('Implicit TLS on connect (port 465)'),
  SMTP_USER: z.string().min(1).optional().describe('SMTP login'),
  SMTP_PASSWORD: z.string().min(1).optional().describe('SMTP password or app password'),
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4).describe('SMTP connections kept open'),
  UNSUBSCRIBE_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .default('touchbase-dev-unsubscribe-secret')
    .describe('HMAC key of one-click unsubscribe links (/u/{token}); set your own in production'),
};

/** Variables of the scheduler. */
export const SchedulerEnv = {
  SCHEDULER_RECONCILE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60_000)
    .describe('How often the reconciler compares PostgreSQL and Redis'),
  SCHEDULER_PACING_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(500)
    .describe(
      'Campaign pacing: first touches of one enrollment request are spread one per this many ms, randomised',
    ),
  SCHEDULER_JITTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Random delay added to each due time'),
};

/** Variables of domain-health. */
export const DomainHealthEnv = {
  DOMAIN_HEALTH_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(86_400_000, 'must be at most 86400000 (daily is the least often the guard should run)')
    .default(3_600_000)
    .describe('Tick interval of the bounce and complaint guard (hourly by default, at least daily)'),
  DOMAIN_HEALTH_BOUNCE_THRESHOLD: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.03)
    .describe('Hard bounce rate above which a sending domain is paused'),
  DOMAIN_HEALTH_BOUNCE_WARN_RATIO: z.coerce
    .number()
    .gt(0)
    .max(1)
    .default(0.8)
    .describe('Share of the bounce threshold at which ops are warned that it is approached'),
  DOMAIN_HEALTH_MIN_SENDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(50)
    .describe('Sends in the window below which the bounce rate neither pauses nor warns'),
  DOMAIN_HEALTH_COMPLAINT_ALERT_THRESHOLD: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.001)
    .describe('Spam complaint rate at which ops are warned'),
  DOMAIN_HEALTH_COMPLAINT_PAUSE_THRESHOLD: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.003)
    .describe('Spam complaint rate above which a sending domain is paused'),
  DOMAIN_HEALTH_COMPLAINT_MIN_SENDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe('Sends in the window below which the complaint rate neither pauses nor warns'),
  DOMAIN_HEALTH_WINDOW_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(90)
    .default(7)
    .describe('Rolling window in days (UTC days, today included)'),
  DOMAIN_HEALTH_ACCOUNT_GUARD: bool(true).describe(
    'Run the same guard over every domain together; above the threshold every domain is paused',
  ),
  DOMAIN_HEALTH_HOLD_IN_FLIGHT: bool(true).describe(
    "Hold the touches of a paused domain's running sequences too, not only new enrollments",
  ),
  DOMAIN_HEALTH_AUTO_RESUME_AFTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe(
      'Resume a domain the guard paused once under its thresholds this long; 0 resumes only by the API',
    ),
  ALERT_SLACK_WEBHOOK_URL: z.url().optional().describe('Slack incoming webhook for ops alerts'),
  ALERT_WEBHOOK_URL: z
    .url()
    .optional()
    .describe('Generic webhook for ops alerts, signed as Standard Webhooks (needs ALERT_WEBHOOK_SECRET)'),
  ALERT_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Signing secret of ALERT_WEBHOOK_URL (whsec_<base64> or a plain string)'),
  ALERT_LOG: bool(true).describe('Write ops alerts to the log too'),
  ALERT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe('Timeout of one alert delivery'),
};

/** Variables of ingest: webhook endpoints, their secrets, recovery and the CRM. */
export const IngestEnv = {
  INGEST_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1_048_576)
    .describe('Largest JSON webhook body accepted (413 beyond)'),
  INGEST_INBOUND_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10_485_760)
    .describe('Largest raw RFC 822 message accepted at /webhooks/inbound'),
  INGEST_WEBHOOK_TOLERANCE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(300_000)
    .describe('How far a signed webhook timestamp may be from now before it is refused as stale'),
  INGEST_FENCE_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5_000)
    .describe('How long a stop waits, before its 2xx, for touches a sender was already handing over'),
  INGEST_CRM_RETRY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(30_000)
    .describe('Base interval of CRM update retries (doubles per attempt)'),
  INGEST_SOFT_BOUNCE_RETRY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(86_400_000)
    .describe(
      'Back-off before a soft-bounced touch is resent (doubled before the second resend; scaled by TIME_SCALE)',
    ),
  HTTP_PROVIDER_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Standard Webhooks secret of the generic HTTP provider (/webhooks/http); unset refuses all'),
  SMARTLEAD_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/smartlead/{token} (Smartlead does not sign); unset refuses all'),
  SMARTLEAD_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('When set, X-Smartlead-Signature (HMAC-SHA256 of the body) is required as well'),
  LEMLIST_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/lemlist/{token} (lemlist does not sign); unset refuses all'),
  LINKEDIN_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/linkedin/{token} (LinkedIn tools do not sign); unset refuses all'),
  INBOUND_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/inbound/{token} (raw RFC 822 mail); unset refuses all'),
  HUBSPOT_CLIENT_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('HubSpot app client secret: verifies X-HubSpot-Signature-v3 at /webhooks/hubspot'),
  HUBSPOT_WEBHOOK_URL: z
    .url()
    .optional()
    .describe('The public URL registered with HubSpot (part of what it signs); defaults to the request URL'),
  HUBSPOT_ACCESS_TOKEN: z
    .string()
    .min(8)
    .optional()
    .describe(
      'HubSpot private app token: hard bounces mark the contact, and deals won or lost end the sequences of their contacts (scopes crm.objects.contacts.write, crm.objects.deals.read); unset tells no CRM',
    ),
  HUBSPOT_API_URL: z.url().default('https://api.hubapi.com').describe('HubSpot API base URL'),
  HUBSPOT_BOUNCE_PROPERTY: z
    .string()
    .min(1)
    .default('touchbase_email_status')
    .describe('Contact property set to "hard_bounced" when an address hard-bounces'),
};

export { bool as envBool };
