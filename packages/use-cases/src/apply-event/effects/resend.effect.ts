import {
  type CanonicalEvent,
  fitDue,
  isResendable,
  resendOf,
  unfittedSoftBounceRetry,
} from '@touchbase/core';
import type { EventTarget, EventTransaction } from '../apply-event.ports.js';
import type { SoftBounceRetry } from '../apply-event.types.js';
import { type EventTimingSettings, lockedTimingOf } from './locked-timing.js';

/**
 * Sends a soft-bounced touch again, as attempt `n + 1` with its own idempotency
 * key, after a back-off, when it is still the enrollment's current touch (core's
 * `resendOf`). An event that names only an address resends nothing: when in doubt,
 * do not resend.
 *
 * The enrollment row is locked first and the touches read after it, so this
 * serialises with a sender's claim of the next touch (which locks the same row):
 * either that claim committed and is seen here, or it waits and then finds the
 * enrollment moved back, and is fenced. A resend of the first step starts a new
 * thread: the first message never arrived.
 */
export async function resendAfterSoftBounce(
  tx: EventTransaction,
  event: CanonicalEvent,
  target: EventTarget,
  now: Date,
  settings: EventTimingSettings,
  softBounceRetryMs: number | undefined,
): Promise<SoftBounceRetry | null> {
  const touch = await tx.bouncedTouch(event, target);
  if (!touch || !isResendable(touch)) return null;
  const { enrollmentId } = touch;
  const e = await tx.lockForResend(enrollmentId);
  if (!e) return null;
  let resend = resendOf(touch, e);
  // A statement after the lock: it sees a claim of the next touch that committed before it.
  if (resend && (await tx.laterTouchExists(enrollmentId, touch.step, touch.attempt))) resend = null;
  if (!resend) return null;
  // As the sender times its touches: the recipient country's do-not-contact hours included.
  const timing = lockedTimingOf(e, settings);
  // The raw time is kept with the fitted one: a window change re-fits from it.
  const due = fitDue(unfittedSoftBounceRetry(now, touch.attempt, timing, softBounceRetryMs), timing);
  const nextTouchAt = due.at;
  await tx.moveToResend(enrollmentId, resend.step, resend.attempt, nextTouchAt, due.unfittedAt);
  return { id: enrollmentId, ...resend, nextTouchAt };
}
