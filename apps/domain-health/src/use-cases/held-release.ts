import { firstTouchDue, resolveTimeZone, sendingWindowOf } from '@touchbase/core';
import type { HeldEnrollment } from '@touchbase/db';

/**
 * When a held enrollment starts once its domain is resumed: now, paced, moved into
 * its sending window (the sequence's, else the mailbox's, holidays included) in
 * the prospect's zone, as a new enrollment would be.
 */
export function heldFirstTouch(now: Date, timeScale: number, pacingMs = 0) {
  return (held: HeldEnrollment, index: number): Date =>
    firstTouchDue(now, index, pacingMs, {
      timeZone: resolveTimeZone(held.prospectTimezone, held.timezone),
      window: sendingWindowOf(held.sequenceWindow, held),
      timeScale,
    });
}
