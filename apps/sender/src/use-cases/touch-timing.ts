import {
  type DoNotContactTable,
  dueAfterDelay,
  type FittedDue,
  nextNodeDue,
  placeInWindow,
  resolveTimeZone,
  type TouchTiming,
  touchTimingOf,
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
 * How time runs for the touches of one enrollment (core's `touchTimingOf`: the
 * prospect's zone, the window narrowed by the do-not-contact rule, TIME_SCALE),
 * with the zone from this process's cache.
 */
export function touchTiming(
  ctx: SendContext,
  timeScale: number,
  jitterMs?: number,
  doNotContact?: DoNotContactTable,
): TouchTiming {
  return touchTimingOf(ctx, {
    timeScale,
    jitterMs,
    doNotContact,
    timeZone: timeZoneOf(ctx.prospect.timezone, ctx.mailbox.timezone),
  });
}

/**
 * When the next node is due (core's `nextNodeDue`): `wait` (its edge's) after now
 * in the prospect's time, moved into the window, with the raw time kept.
 */
export function nextDue(
  ctx: SendContext,
  wait: string,
  now: Date,
  timeScale: number,
  jitterMs?: number,
  doNotContact?: DoNotContactTable,
): FittedDue {
  return nextNodeDue(now, wait, touchTiming(ctx, timeScale, jitterMs, doNotContact));
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
