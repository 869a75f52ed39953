import { placeInWindow, type TouchTiming } from './next-touch-due.js';

/**
 * A pending touch's due time with the raw time it was fitted from: `at` is
 * `unfittedAt` moved into the sending window (equal to it when no window applies).
 * Keeping both lets a change of window, holidays or caps re-fit the touch from the
 * raw time ({@link refitDue}), which fitting the fitted time again cannot do.
 */
export type FittedDue = { at: Date; unfittedAt: Date };

/** `raw` moved into the window of `timing`, with `raw` kept (see {@link FittedDue}). */
export function fitDue(raw: Date, timing: TouchTiming): FittedDue {
  return { at: placeInWindow(raw, timing), unfittedAt: raw };
}

/** What a pending touch holds about its due time (the enrollment's columns). */
export type PendingDue = {
  nextTouchAt: Date;
  /** The raw due time, before the window (null: not set by fitting). */
  unfittedAt: Date | null;
  /** The `nextTouchAt` that fitting `unfittedAt` gave. */
  fittedAt: Date | null;
};

/**
 * Where a pending touch goes after its timing changed (a mailbox's window, holidays
 * or caps; a sequence's window): its raw due time moved into the new window, so a
 * wider window brings it forward and a narrower one pushes it back, exactly as if it
 * had been scheduled under the new window from the start.
 *
 * The re-fit is deterministic (no jitter) so applying it twice changes nothing; a
 * current time that is already a jittered placement of the same slot (inside the
 * window, at most `timing.jitterMs` after the slot's opening) is kept.
 *
 * @returns the new due time, or null when the touch is not the window's to move: it
 *   has no raw time, or its `nextTouchAt` was moved since by something else (a
 *   contact-policy hold, a pause, a resume), which keeps its time.
 */
export function refitDue(pending: PendingDue, timing: TouchTiming): Date | null {
  const { nextTouchAt, unfittedAt, fittedAt } = pending;
  if (!unfittedAt || !fittedAt || fittedAt.getTime() !== nextTouchAt.getTime()) return null;
  const { jitterMs, random: _random, ...exact } = timing;
  const slot = placeInWindow(unfittedAt, exact);
  const current = nextTouchAt.getTime();
  if (
    jitterMs &&
    current >= slot.getTime() &&
    current <= slot.getTime() + jitterMs &&
    placeInWindow(nextTouchAt, exact).getTime() === current
  ) {
    return nextTouchAt;
  }
  return slot;
}
