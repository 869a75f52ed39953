import { z } from 'zod';
import { port } from './env-helpers.js';

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
  SANDBOX_LINKEDIN_ACCEPT_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.3)
    .describe('Odds a sandbox LinkedIn member accepts an invitation'),
  SANDBOX_LINKEDIN_ACCEPT_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(21_600_000)
    .describe('Delay before a sandbox LinkedIn acceptance (scaled by TIME_SCALE; members take hours)'),
  SANDBOX_LINKEDIN_REPLY_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.1)
    .describe('Odds a sandbox LinkedIn member answers a message'),
  SANDBOX_LINKEDIN_REPLY_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(3_600_000)
    .describe('Delay before a sandbox LinkedIn answer (scaled by TIME_SCALE)'),
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
