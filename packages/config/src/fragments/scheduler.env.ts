import { z } from 'zod';

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
