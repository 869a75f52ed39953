import { addWait } from '../time/add-wait.js';
import { parseDuration } from '../time/duration.js';
import { moveIntoWindow } from '../time/sending-window.js';
import type { SendingWindow } from '../time/sending-window.schemas.js';
import { scaleDuration } from '../time/time-scale.js';
import { toDate } from '../time/zoned-time.js';

/** How time runs for one touch: the zone, the window, and the demo's compression. */
export type TouchTiming = {
  timeZone: string;
  /** The sending window (the sequence's, else the mailbox's: {@link sendingWindowOf}); null sends at any hour. */
  window: SendingWindow | null;
  /** TIME_SCALE: above 1, waits are compressed and windows ignored (a compressed day has no business hours). */
  timeScale: number;
  jitterMs?: number;
  random?: () => number;
};

/**
 * When the touch after `wait` is due: calendar days in the prospect's zone, then
 * moved into the sending window. Used for follow-ups (from the previous touch).
 */
export function dueAfterWait(from: Date, wait: string, timing: TouchTiming): Date {
  return placeInWindow(unfittedAfterWait(from, wait, timing), timing);
}

/** {@link dueAfterWait} before the window: the raw due time a re-fit starts from. */
export function unfittedAfterWait(from: Date, wait: string, timing: TouchTiming): Date {
  if (timing.timeScale > 1)
    return toDate(
      from.getTime() + scaleDuration(parseDuration(wait), timing.timeScale),
      'dueAfterWait: the due time',
    );
  return addWait(from, wait, timing.timeZone);
}

/**
 * When a new enrollment's first touch is due: campaign pacing spreads a large
 * enrollment over time (`index * pacingMs`) instead of a burst at the provider.
 */
export function firstTouchDue(now: Date, index: number, pacingMs: number, timing: TouchTiming): Date {
  return placeInWindow(unfittedFirstTouch(now, index, pacingMs, timing), timing);
}

/** {@link firstTouchDue} before the window: the raw due time a re-fit starts from. */
export function unfittedFirstTouch(now: Date, index: number, pacingMs: number, timing: TouchTiming): Date {
  // One slot of `pacingMs` per prospect, at a random point inside it: a large
  // enrollment becomes a steady trickle, not a burst nor a visible metronome.
  const random = timing.random ?? Math.random;
  const offset = pacingMs > 0 ? index * pacingMs + Math.floor(random() * pacingMs) : 0;
  const scaled = timing.timeScale > 1 ? scaleDuration(offset, timing.timeScale) : offset;
  return toDate(now.getTime() + scaled, 'firstTouchDue: the due time');
}

/**
 * When a touch that must wait `waitMs` of real time may go: after the wait, moved
 * into the sending window. For waits that are already real milliseconds (a token
 * bucket's answer, a provider's Retry-After), so not compressed again: a wait that
 * runs past the end of today's window does not send at night, it waits for the
 * next slot.
 */
export function dueAfterDelay(now: Date, waitMs: number, timing: TouchTiming): Date {
  return placeInWindow(toDate(now.getTime() + Math.max(0, waitMs), 'dueAfterDelay: the due time'), timing);
}

/** Back-off before the first resend of a soft-bounced touch (before TIME_SCALE). */
export const SOFT_BOUNCE_RETRY_MS = 86_400_000;

/**
 * When the resend of a soft-bounced touch is due: `baseMs` after the bounce of the
 * first attempt, twice that after the bounce of the second (the address gets time
 * to recover: a full mailbox, a greylisting server), then moved into the window.
 */
export function softBounceRetryDue(
  now: Date,
  bouncedAttempt: number,
  timing: TouchTiming,
  baseMs = SOFT_BOUNCE_RETRY_MS,
): Date {
  return placeInWindow(unfittedSoftBounceRetry(now, bouncedAttempt, timing, baseMs), timing);
}

/** {@link softBounceRetryDue} before the window: the raw due time a re-fit starts from. */
export function unfittedSoftBounceRetry(
  now: Date,
  bouncedAttempt: number,
  timing: TouchTiming,
  baseMs = SOFT_BOUNCE_RETRY_MS,
): Date {
  const wait = baseMs * 2 ** Math.max(0, bouncedAttempt - 1);
  const real = timing.timeScale > 1 ? scaleDuration(wait, timing.timeScale) : wait;
  return toDate(now.getTime() + real, 'softBounceRetryDue: the due time');
}

/**
 * `due`, or the first instant of the window at or after it. Under TIME_SCALE the
 * window is ignored (a compressed day has no business hours).
 */
export function placeInWindow(due: Date, timing: TouchTiming): Date {
  if (!timing.window || timing.timeScale > 1) return due;
  return moveIntoWindow(due, timing.window, timing.timeZone, {
    ...(timing.jitterMs !== undefined ? { jitterMs: timing.jitterMs } : {}),
    ...(timing.random ? { random: timing.random } : {}),
  });
}
