import { addWait } from '../time/add-wait.js';
import { parseDuration } from '../time/duration.js';
import { moveIntoWindow } from '../time/sending-window.js';
import type { SendingWindow } from '../time/sending-window.schemas.js';
import { scaleDuration } from '../time/time-scale.js';

/** How time runs for one touch: the zone, the window, and the demo's compression. */
export type TouchTiming = {
  timeZone: string;
  /** The mailbox's sending window; null sends at any hour. */
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
  if (timing.timeScale > 1)
    return new Date(from.getTime() + scaleDuration(parseDuration(wait), timing.timeScale));
  const raw = addWait(from, wait, timing.timeZone);
  return placeInWindow(raw, timing);
}

/**
 * When a new enrollment's first touch is due: campaign pacing spreads a large
 * enrollment over time (`index * pacingMs`) instead of a burst at the provider.
 */
export function firstTouchDue(now: Date, index: number, pacingMs: number, timing: TouchTiming): Date {
  const paced = new Date(now.getTime() + index * pacingMs);
  if (timing.timeScale > 1) return paced;
  return placeInWindow(paced, timing);
}

function placeInWindow(due: Date, timing: TouchTiming): Date {
  if (!timing.window) return due;
  return moveIntoWindow(due, timing.window, timing.timeZone, {
    ...(timing.jitterMs !== undefined ? { jitterMs: timing.jitterMs } : {}),
    ...(timing.random ? { random: timing.random } : {}),
  });
}
