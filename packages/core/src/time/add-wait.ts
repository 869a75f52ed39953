import { parseDurationParts } from './duration.js';
import { TimeRangeError } from './time.errors.js';
import { assertTimeZone } from './time-zone.js';
import { addLocalDays, instantToLocal, localToInstant, toDate } from './zoned-time.js';

/**
 * The instant a wait after `from` ends, for a prospect in `timeZone`.
 *
 * Days and weeks are calendar days in that zone: `1d` after 10:00 is 10:00 local the
 * next day even across a DST change (23 or 25 real hours), because "follow up in
 * three days" means the same time of day to the reader. Hours, minutes and seconds
 * are elapsed time. Calendar days are applied first, then elapsed time (`1d12h`).
 * A local time that does not exist on the target day moves forward by the gap
 * (02:30 → 03:30); one that exists twice takes the earlier instant.
 *
 * Throws `DurationError` for a bad wait, `TimeZoneError` for a bad zone, and
 * `TimeRangeError` for an Invalid Date or a result past the range of a Date.
 */
export function addWait(from: Date, wait: string, timeZone: string): Date {
  const start = from.getTime();
  if (Number.isNaN(start)) throw new TimeRangeError('addWait: `from` is an invalid Date');
  assertTimeZone(timeZone);
  const { days, ms } = parseDurationParts(wait);
  let instant = start;
  if (days > 0) {
    const local = instantToLocal(timeZone, start);
    const target = addLocalDays(local, days);
    instant = localToInstant(
      timeZone,
      { ...local, year: target.year, month: target.month, day: target.day },
      'compatible',
    );
  }
  // Past ±8.64e15 ms, Date.UTC inside addLocalDays gives NaN, and the sum may leave
  // the range on its own; both become a TimeRangeError, never an Invalid Date.
  return toDate(instant + ms, `addWait: ${wait} after ${start} ms`);
}
