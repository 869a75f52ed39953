import { firstTouchDue, resolveTimeZone } from '@touchbase/core';
import type { HeldEnrollment } from '@touchbase/db';

/**
 * When a held enrollment starts once its domain is resumed: now, paced, moved into
 * its mailbox's sending window (as a new enrollment would be).
 */
export function heldFirstTouch(now: Date, timeScale: number, pacingMs = 0) {
  return (held: HeldEnrollment, index: number): Date =>
    firstTouchDue(now, index, pacingMs, {
      timeZone: resolveTimeZone(null, held.timezone),
      window:
        held.windowDays.length > 0
          ? { days: held.windowDays, start: held.windowStart, end: held.windowEnd }
          : null,
      timeScale,
    });
}
