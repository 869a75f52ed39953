import {
  type DoNotContactTable,
  dueAfterDelay,
  type FittedDue,
  fitDue,
  placeInWindow,
  recipientWindowOf,
  resolveTimeZone,
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
 * included) narrowed by the recipient country's do-not-contact rule, and TIME_SCALE.
 */
export function touchTiming(
  ctx: SendContext,
  timeScale: number,
  jitterMs?: number,
  doNotContact?: DoNotContactTable,
): TouchTiming {
  return {
    timeZone: timeZoneOf(ctx.prospect.timezone, ctx.mailbox.timezone),
    // The recipient country's do-not-contact hours and days on top of the window.
    window: recipientWindowOf(ctx.sequenceWindow, ctx.mailbox, doNotContact, ctx.prospect.attributes),
    timeScale,
    ...(jitterMs ? { jitterMs } : {}),
  };
}

/**
 * When the next node is due: `wait` (its edge's) after now in the prospect's time,
 * moved into the window; with the raw time before the window, kept so a window
 * change re-fits it exactly.
 */
export function nextDue(
  ctx: SendContext,
  wait: string,
  now: Date,
  timeScale: number,
  jitterMs?: number,
  doNotContact?: DoNotContactTable,
): FittedDue {
  const timing = touchTiming(ctx, timeScale, jitterMs, doNotContact);
  return fitDue(unfittedAfterWait(now, wait, timing), timing);
}

/**
 * When the window next opens if `now` is outside it, else null. A touch can come
 * due outside its window however it was scheduled (a held touch released, a
 * provider's Retry-After, a job the reconciler re-created late, a window changed
 * since): it waits for the window instead of going out at night.
 */
export function windowClosedUntil(
  ctx: SendContext,
  now: Date,
  timeScale: number,
  doNotContact?: DoNotContactTable,
): Date | null {
  const timing = touchTiming(ctx, timeScale, undefined, doNotContact);
  if (!timing.window || timeScale > 1) return null;
  const opens = placeInWindow(now, timing);
  return opens.getTime() > now.getTime() ? opens : null;
}

/**
 * When a touch the token bucket refused comes back: after the wait, but never
 * outside its window; a wait that runs past today's end moves to the next slot.
 */
export function afterThrottleWait(
  ctx: SendContext,
  now: Date,
  waitMs: number,
  timeScale: number,
  doNotContact?: DoNotContactTable,
): Date {
  return dueAfterDelay(now, waitMs, touchTiming(ctx, timeScale, undefined, doNotContact));
}
