import type { SendContext } from '@touchbase/db';
import type { Logger } from '@touchbase/telemetry';
import { DelayedError, type Job } from 'bullmq';
import type { SenderContext } from './send-touch.types.js';
import { windowClosedUntil } from './touch-timing.js';

/**
 * Holds a touch: its job comes back after `holdMs` (resuming the mailbox or domain
 * reschedules it sooner). Held, not lost.
 */
export async function holdTouch(sc: SenderContext, job: Job, reason: string): Promise<never> {
  await job.moveToDelayed(Date.now() + sc.holdMs, job.token);
  sc.metrics.touchesSkipped.inc({ reason });
  throw new DelayedError();
}

/**
 * Hands the touch back until its window opens when `now` is outside it (the
 * sending window with the recipient country's do-not-contact hours on top); a
 * touch can come due outside it however it was scheduled. Returns when the
 * window is open.
 */
export async function waitForWindow(
  sc: SenderContext,
  ctx: SendContext,
  job: Job,
  log: Pick<Logger, 'info'>,
): Promise<void> {
  const opensAt = windowClosedUntil(ctx, sc.clock(), sc.timeScale, sc.doNotContact);
  if (!opensAt) return;
  sc.metrics.touchesSkipped.inc({ reason: 'outside_window' });
  log.info({ opensAt }, 'Touch waits for its sending window');
  await job.moveToDelayed(opensAt.getTime(), job.token);
  throw new DelayedError();
}
