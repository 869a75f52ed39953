import { parseLocalTime, type SendingWindow } from './sending-window.schemas.js';
import { SendingWindowError, TimeRangeError } from './time.errors.js';
import { MAX_INSTANT_MS, nextOffsetChange, offsetAt } from './zoned-time.js';

// Wall-clock times are handled as "wall ms": the local date and time read as if
// they were UTC, so a local day is [k × DAY_MS, (k + 1) × DAY_MS) with no DST in it.
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A sending window as the search uses it: open local dates and the open part of each, in ms of the day. */
export interface DailyWindow {
  days: ReadonlySet<number>;
  /** Holidays as local-day numbers (days since 1970-01-01). */
  holidays: ReadonlySet<number>;
  opensMs: number;
  closesMs: number;
}

/**
 * The search form of a validated window. An `end` of `23:59` runs to midnight: the
 * schema stops at 23:59 (24:00 is refused), so without this a window meant to stay
 * open all day, like the holiday-only window of a mailbox, would shut for the last
 * minute of every day.
 */
export function dailyWindow(window: SendingWindow): DailyWindow {
  const minutes = (hhmm: string) => {
    const { hour, minute } = parseLocalTime(hhmm);
    return (hour * 60 + minute) * MINUTE_MS;
  };
  return {
    days: new Set(window.days),
    holidays: new Set((window.holidays ?? []).map(dayNumberOf)),
    opensMs: minutes(window.start),
    closesMs: window.end === '23:59' ? DAY_MS : minutes(window.end),
  };
}

/**
 * The earliest instant at or after `dueMs` whose local wall time in `timeZone` is on
 * an open day of `window` and in [opens, closes). Local dates from the one of `dueMs`
 * to `searchDays` after it are searched.
 *
 * The timeline is walked one UTC offset at a time: while the offset holds, the wall
 * clock runs with the instant, so the first open wall time is reached exactly its
 * distance later. When the offset changes first, the walk restarts at the change
 * with the new wall time. So a repeated hour (fall back) is open on both passes,
 * and a window starting in a skipped hour (spring forward) opens at the first
 * instant after the gap, whose wall time is already past the start.
 *
 * Throws `SendingWindowError` (`sending_window_unreachable`) when no date in the
 * search opens, and `TimeRangeError` when the search runs past the range of a Date.
 */
export function firstOpening(
  timeZone: string,
  dueMs: number,
  window: DailyWindow,
  searchDays: number,
): number {
  const lastWall = floorDay(dueMs + offsetAt(timeZone, dueMs)) + (searchDays + 1) * DAY_MS;
  let from = dueMs;
  for (;;) {
    const offset = offsetAt(timeZone, from);
    const wall = firstOpenWall(window, from + offset, lastWall);
    const reached = (wall ?? lastWall) - offset;
    const change = nextOffsetChange(timeZone, from, reached);
    if (change !== null) {
      from = change;
      continue;
    }
    if (reached > MAX_INSTANT_MS) {
      throw new TimeRangeError(`The next sending slot after ${dueMs} ms is past the range of a Date`);
    }
    if (wall === null) {
      throw new SendingWindowError(
        'sending_window_unreachable',
        `No sending slot within ${searchDays} days after ${new Date(dueMs).toISOString()} in ${timeZone}`,
      );
    }
    return reached;
  }
}

/**
 * Where the open stretch holding the open instant `at` ends (exclusive): the close of
 * that local date's window, or an offset change that makes the wall clock jump out
 * of it (a repeated hour can give a date two stretches; jitter must not carry a
 * send from the first into the gap between them).
 */
export function openUntil(timeZone: string, window: DailyWindow, at: number): number {
  let from = at;
  let offset = offsetAt(timeZone, at);
  const day = floorDay(at + offset);
  for (;;) {
    const closes = day + window.closesMs - offset;
    const change = nextOffsetChange(timeZone, from, closes);
    if (change === null) return Math.min(closes, MAX_INSTANT_MS + 1);
    offset = offsetAt(timeZone, change);
    const wall = change + offset;
    if (wall < day + window.opensMs || wall >= day + window.closesMs) return change;
    from = change;
  }
}

/** The earliest wall ms at or after `wall`, on a date before `lastWall`, that is open; null if none. */
function firstOpenWall(window: DailyWindow, wall: number, lastWall: number): number | null {
  for (let day = floorDay(wall); day < lastWall; day += DAY_MS) {
    if (!isOpenDay(window, day)) continue;
    if (day + window.closesMs <= wall) continue;
    return Math.max(day + window.opensMs, wall);
  }
  return null;
}

function isOpenDay(window: DailyWindow, dayWall: number): boolean {
  const dayNumber = dayWall / DAY_MS;
  // 1970-01-01 was a Thursday (ISO weekday 4).
  const weekday = ((((dayNumber + 3) % 7) + 7) % 7) + 1;
  return window.days.has(weekday) && !window.holidays.has(dayNumber);
}

function floorDay(wall: number): number {
  return Math.floor(wall / DAY_MS) * DAY_MS;
}

/** Days since 1970-01-01 of a validated `YYYY-MM-DD`. */
function dayNumberOf(iso: string): number {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC, which would read years 0–99 as 1900–1999.
  date.setUTCFullYear(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
  return date.getTime() / DAY_MS;
}
