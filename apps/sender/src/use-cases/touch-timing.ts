import {
  dueAfterDelay,
  type FittedDue,
  fitDue,
  placeInWindow,
  resolveTimeZone,
  type SequenceStep,
  sendingWindowOf,
  type TouchTiming,
  unfittedAfterWait,
} from '@touchbase/core';
import type { SendContext } from '@touchbase/db';

// resolveTimeZone validates both zones through Intl on every call, about a tenth
// of a millisecond each: on the hot path that adds up, and the answer for a pair
// of names never changes.
const zones = new Map<string, string>();
function timeZoneOf(prospectTz: string | null, mailboxTz: string): string {
  const key = `${prospectTz ?? ''}|${mailboxTz}`;
  let zone = zones.get(key);
  if (zone === undefined) {
    zone = resolveTimeZone(prospectTz, mailboxTz);
    if (zones.size > 10_000) zones.clear();
    zones.set(key, zone);
  }
  return zone;
}

/**
 * How time runs for the touches of one enrollment: the prospect's zone (else the
 * mailbox's), the sequence's sending window (else the mailbox's, holidays
 * included), and TIME_SCALE.
 */
export function touchTiming(ctx: SendContext, timeScale: number, jitterMs?: number): TouchTiming {
  return {
    timeZone: timeZoneOf(ctx.prospect.timezone, ctx.mailbox.timezone),
    window: sendingWindowOf(ctx.sequenceWindow, ctx.mailbox),
    timeScale,
    ...(jitterMs ? { jitterMs } : {}),
  };
}

/**
 * When the step after `step` is due: its wait after now, moved into the window; with
 * the raw time before the window, kept so a window change re-fits it exactly.
 */
export function nextDue(
  ctx: SendContext,
  steps: SequenceStep[],
  step: number,
  now: Date,
  timeScale: number,
  jitterMs?: number,
): FittedDue {
  const timing = touchTiming(ctx, timeScale, jitterMs);
  return fitDue(unfittedAfterWait(now, steps[step - 1]?.wait ?? '0s', timing), timing);
}

/**
 * When the window next opens if `now` is outside it, else null. A touch can come
 * due outside its window however it was scheduled (a held touch released, a
 * provider's Retry-After, a job the reconciler re-created late, a window changed
 * since): it waits for the window instead of going out at night.
 */
export function windowClosedUntil(ctx: SendContext, now: Date, timeScale: number): Date | null {
  const timing = touchTiming(ctx, timeScale);
  if (!timing.window || timeScale > 1) return null;
  const opens = placeInWindow(now, timing);
  return opens.getTime() > now.getTime() ? opens : null;
}

/**
 * When a touch the token bucket refused comes back: after the wait, but never
 * outside its window; a wait that runs past today's end moves to the next slot.
 */
export function afterThrottleWait(ctx: SendContext, now: Date, waitMs: number, timeScale: number): Date {
  return dueAfterDelay(now, waitMs, touchTiming(ctx, timeScale));
}
