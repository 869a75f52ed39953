import { type SendingWindow, SendingWindowSchema } from './sending-window.schemas.js';
import { SendingWindowError, TimeRangeError } from './time.errors.js';
import { assertTimeZone } from './time-zone.js';
import { type DailyWindow, dailyWindow, firstOpening, openUntil } from './window-opening.js';
import { toDate } from './zoned-time.js';

/** Options of {@link moveIntoWindow}. */
export interface MoveIntoWindowOptions {
  /** Spread sends over up to this many ms after the earliest slot instant, so a batch does not fire at once. */
  jitterMs?: number;
  /** Source of randomness in [0, 1); injected so tests and replays are deterministic. Defaults to `Math.random`. */
  random?: () => number;
}

// One year of local dates, plus one so a window open one weekday a year still
// finds its slot; the bound turns a window that can never open into an error.
const SEARCH_DAYS = 366;

/**
 * The earliest instant at or after `due` whose wall-clock time in `timeZone` is
 * inside `window`: on an allowed weekday that is not a holiday, at or after `start`
 * and before `end` (an `end` of `23:59` runs to midnight, since 24:00 cannot be
 * written). Decided by the local clock, instant by instant:
 * - fall back: a repeated local time is inside the window on both passes, so a
 *   date's window can be open in two stretches (01:45–02:00 EDT, then 01:45–02:00 EST);
 * - spring forward: skipped local times do not exist, so a window starting in the
 *   gap opens at the first instant after it (02:30 → 03:00 EDT in New York), and a
 *   window lying wholly in the gap is shut that day.
 *
 * With `jitterMs`, a random offset in [0, jitterMs) is added, clamped to stay
 * before the end of the open stretch the slot starts in.
 *
 * Throws `SendingWindowError` (`invalid_sending_window`) for a malformed window,
 * (`sending_window_unreachable`) when no local date within 366 days opens,
 * `TimeZoneError` for an invalid zone, and `TimeRangeError` for an Invalid Date or
 * a slot past the range of a Date.
 */
export function moveIntoWindow(
  due: Date,
  window: SendingWindow,
  timeZone: string,
  opts: MoveIntoWindowOptions = {},
): Date {
  const dueMs = due.getTime();
  if (Number.isNaN(dueMs)) throw new TimeRangeError('moveIntoWindow: `due` is an invalid Date');
  assertTimeZone(timeZone);
  const daily = dailyWindowOf(window);
  const jitterMs = opts.jitterMs ?? 0;
  if (!Number.isFinite(jitterMs) || jitterMs < 0) {
    throw new RangeError(`moveIntoWindow: jitterMs must be a finite number ≥ 0, got ${jitterMs}`);
  }

  const at = firstOpening(timeZone, dueMs, daily, SEARCH_DAYS);
  if (jitterMs <= 0) return toDate(at, 'moveIntoWindow: the slot');
  const until = openUntil(timeZone, daily, at);
  return toDate(applyJitter(at, until, jitterMs, opts.random ?? Math.random), 'moveIntoWindow: the slot');
}

// Validated search forms by window object: a caller that keeps its window (the
// simulator, a mailbox's timing) pays the zod check and the sets once, not per touch.
// Windows are plain data never changed in place; a new object is checked anew.
const dailyForms = new WeakMap<SendingWindow, DailyWindow>();

function dailyWindowOf(window: SendingWindow): DailyWindow {
  let daily = dailyForms.get(window);
  if (!daily) {
    daily = dailyWindow(validateWindow(window));
    dailyForms.set(window, daily);
  }
  return daily;
}

function validateWindow(window: SendingWindow): SendingWindow {
  // Windows come from mailbox rows and API payloads; re-checking here keeps a bad
  // row from becoming a silent "never send" or a send at 3 a.m.
  const parsed = SendingWindowSchema.safeParse(window);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  );
  throw new SendingWindowError('invalid_sending_window', `Invalid sending window: ${problems.join('; ')}`);
}

function applyJitter(at: number, slotEnd: number, jitterMs: number, random: () => number): number {
  const r = random();
  const fraction = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
  // Math.floor keeps the offset below jitterMs even when random() returns 1 exactly.
  const offset = Math.min(Math.floor(fraction * jitterMs), Math.ceil(jitterMs) - 1);
  // The end is exclusive, so the latest instant inside the slot is one ms before it.
  return Math.min(at + offset, slotEnd - 1);
}
