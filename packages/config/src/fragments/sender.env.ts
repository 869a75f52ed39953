import { z } from 'zod';
import { bool } from './env-helpers.js';

/** Variables of the sender. */
export const SenderEnv = {
  SENDER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    // The touches in flight share each load, claim, record and next-job batch, one
    // script call for their tokens and one look at the provider: at 200 a statement
    // carries about 2.5 times the touches it did at 50 (0.36 -> 0.14 statements a touch)
    // and a touch cost 15% less CPU in the sender, PostgreSQL and Redis together, measured
    // side by side. With a provider that answers in 100-500 ms, the touches in flight also
    // bound a process's rate. A replica killed mid-send leaves at most this many in doubt.
    .default(200)
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
  SENDER_THROTTLE: z
    .enum(['lua', 'bottleneck'])
    .default('lua')
    .describe(
      "Per-mailbox caps: 'lua' (atomic sliding-window buckets, rebuilt from PostgreSQL after Redis loss) or 'bottleneck' (Bottleneck on its Redis datastore; fixed windows, see README)",
    ),
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
