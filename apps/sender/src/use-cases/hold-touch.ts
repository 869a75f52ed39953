import { DelayedError, type Job } from 'bullmq';
import type { SenderContext } from './send-touch.types.js';

/**
 * Holds a touch: its job comes back after `holdMs` (resuming the mailbox or domain
 * reschedules it sooner). Held, not lost.
 */
export async function holdTouch(sc: SenderContext, job: Job, reason: string): Promise<never> {
  await job.moveToDelayed(Date.now() + sc.holdMs, job.token);
  sc.metrics.touchesSkipped.inc({ reason });
  throw new DelayedError();
}
