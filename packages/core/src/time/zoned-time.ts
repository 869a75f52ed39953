import { IANAZone } from 'luxon';
import {
  findOffsetChange,
  firstChangeAfter,
  OFFSET_SCAN_STEP_MS,
  zoneOffsetMinutes,
} from './offset-table.js';
import { TimeRangeError } from './time.errors.js';

/** A wall-clock date and time, without a zone. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
  millisecond?: number;
}

/**
 * How to resolve a wall-clock time that does not exist (spring forward) or exists
 * twice (fall back):
 * - `compatible`: a missing time moves forward by the length of the gap (02:30 → 03:30),
 *   like Temporal and RFC 5545; a repeated time takes the earlier instant.
 * - `earliest-valid`: a missing time becomes the first instant after the gap (02:30 → 03:00);
 *   a repeated time takes the earlier instant.
 */
export type Disambiguation = 'compatible' | 'earliest-valid';

const DAY_MS = 86_400_000;

/**
 * The instant (epoch ms) of a wall-clock time in an IANA zone.
 *
 * Written out instead of `DateTime.fromObject` because luxon guesses the offset of
 * an ambiguous or missing local time from the *current* offset of the zone, so its
 * answer on DST days depends on the season the code runs in. Here it is fixed.
 */
export function localToInstant(
  timeZone: string,
  local: LocalDateTime,
  disambiguation: Disambiguation,
): number {
  const wall = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second ?? 0,
    local.millisecond ?? 0,
  );
  // The offsets a day either side bracket any single transition near this wall time.
  const offsetOf = (t: number) => zoneOffsetMinutes(timeZone, t);
  const offsetBefore = offsetOf(wall - DAY_MS);
  const offsetAfter = offsetOf(wall + DAY_MS);
  const early = wall - offsetBefore * 60_000;
  const late = wall - offsetAfter * 60_000;
  const earlyValid = offsetOf(early) === offsetBefore;
  const lateValid = offsetOf(late) === offsetAfter;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (earlyValid) return early;
  if (lateValid) return late;
  // A gap: `early` reads the wall time with the old offset, so it lands after the
  // transition by exactly the distance into the gap; `late` lands before it.
  if (disambiguation === 'compatible') return early;
  return findOffsetChange(IANAZone.create(timeZone), Math.min(early, late), Math.max(early, late));
}

/** The latest epoch ms a JavaScript `Date` can hold (ECMA-262: 8.64e15); the earliest is its negative. */
export const MAX_INSTANT_MS = 8.64e15;

/** A `Date` for `epochMs`; throws {@link TimeRangeError} where `new Date` would give Invalid Date. */
export function toDate(epochMs: number, what: string): Date {
  if (!(Math.abs(epochMs) <= MAX_INSTANT_MS)) {
    throw new TimeRangeError(`${what} is outside the range of a Date (±${MAX_INSTANT_MS} ms)`);
  }
  return new Date(epochMs);
}

/** The UTC offset of `timeZone` at an instant, in ms: the local wall clock reads `epochMs + offset`. */
export function offsetAt(timeZone: string, epochMs: number): number {
  return zoneOffsetMinutes(timeZone, epochMs) * 60_000;
}

/**
 * The first instant in (`from`, `until`] whose UTC offset differs from the offset at
 * `from`, or null when the offset holds until then (searched no further than the
 * last instant a Date can hold). Read from the zone's year tables (see
 * {@link zoneOffsetMinutes}); outside their years, scanned here the same way.
 */
export function nextOffsetChange(timeZone: string, from: number, until: number): number | null {
  const end = Math.min(until, MAX_INSTANT_MS);
  const fromTable = firstChangeAfter(timeZone, from, end);
  if (fromTable !== undefined) return fromTable;
  const zone = IANAZone.create(timeZone);
  const before = zone.offset(from);
  let low = from;
  while (low < end) {
    const high = Math.min(low + OFFSET_SCAN_STEP_MS, end);
    if (zone.offset(high) !== before) return findOffsetChange(zone, low, high);
    low = high;
  }
  return null;
}

/** The wall-clock date and time of an instant in an IANA zone. */
export function instantToLocal(
  timeZone: string,
  epochMs: number,
): Required<LocalDateTime> & { weekday: number } {
  // The offset from the zone's table, then plain UTC arithmetic: what luxon's
  // DateTime.fromMillis computes, without its Intl call per instant.
  const wall = new Date(epochMs + offsetAt(timeZone, epochMs));
  const weekday = wall.getUTCDay();
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    millisecond: wall.getUTCMilliseconds(),
    weekday: weekday === 0 ? 7 : weekday,
  };
}

/** A calendar date with its ISO weekday (1 = Monday … 7 = Sunday) and `YYYY-MM-DD` form. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
  weekday: number;
  iso: string;
}

/** The calendar date `days` after a local date; pure date arithmetic, no zone involved. */
export function addLocalDays(date: { year: number; month: number; day: number }, days: number): LocalDate {
  // Date.UTC normalises day overflow (Jan 32 → Feb 1) and has no DST to get in the way.
  const utc = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  const year = utc.getUTCFullYear();
  const month = utc.getUTCMonth() + 1;
  const day = utc.getUTCDate();
  const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { year, month, day, weekday: utc.getUTCDay() === 0 ? 7 : utc.getUTCDay(), iso };
}
