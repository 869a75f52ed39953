import type { SandboxOptions } from '@touchbase/providers';
import type { Config } from '@touchbase/runtime';

/**
 * The sandbox provider as the environment configures it, for `touchbase start`
 * (in process, behind ingest on loopback) and `touchbase sandbox` (alone).
 */
export function sandboxOptions(config: Config): SandboxOptions {
  return {
    port: config.SANDBOX_PORT,
    webhookSecret: config.SANDBOX_WEBHOOK_SECRET,
    odds: {
      reply: config.SANDBOX_REPLY_RATE,
      bounce: config.SANDBOX_BOUNCE_RATE,
      outOfOffice: config.SANDBOX_OOO_RATE,
    },
    eventDelayMs: config.SANDBOX_EVENT_DELAY_MS,
    timeScale: config.TIME_SCALE,
    seed: config.SANDBOX_SEED,
    linkedin: {
      acceptOdds: config.SANDBOX_LINKEDIN_ACCEPT_RATE,
      acceptDelayMs: config.SANDBOX_LINKEDIN_ACCEPT_DELAY_MS,
      replyOdds: config.SANDBOX_LINKEDIN_REPLY_RATE,
      replyDelayMs: config.SANDBOX_LINKEDIN_REPLY_DELAY_MS,
    },
    webhookRetry: {
      attempts: config.SANDBOX_WEBHOOK_ATTEMPTS,
      backoffMs: config.SANDBOX_WEBHOOK_BACKOFF_MS,
      maxBackoffMs: config.SANDBOX_WEBHOOK_MAX_BACKOFF_MS,
    },
  };
}
