import { z } from 'zod';
import { bool } from './env-helpers.js';

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
  DOMAIN_HEALTH_COMPLETION_FLOOR: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0)
    .describe(
      'Completion rate (share of ended sequences that ran through every step) below which a sending domain raises an alert, with the reason in words; 0 turns the watch off',
    ),
  DOMAIN_HEALTH_COMPLETION_MIN_ENDED: z.coerce
    .number()
    .int()
    .min(1)
    .default(50)
    .describe('Enrollments ended in the window below which the completion rate is not judged'),
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
