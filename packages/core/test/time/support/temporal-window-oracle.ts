import { Temporal } from '@js-temporal/polyfill';
import type { SendingWindow } from '../../../src/time/index.js';

/**
 * An independent oracle for `moveIntoWindow`, written with Temporal (the polyfill:
 * Node 20 has no Temporal) instead of luxon, and by enumerating candidates instead
 * of walking offsets. It reads the documented rule literally: an instant is open
 * when its local date in the zone is an allowed weekday and not a holiday, and its
 * local time is in [start, end), an end of 23:59 running to midnight.
 */

/** True when the instant is inside the window by the local clock of `zone`. */
export function isOpenAt(epochMs: number, window: SendingWindow, zone: string): boolean {
  const local = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);
  if (!window.days.includes(local.dayOfWeek)) return false;
  if ((window.holidays ?? []).includes(local.toPlainDate().toString())) return false;
  const time = local.toPlainTime();
  if (Temporal.PlainTime.compare(time, Temporal.PlainTime.from(window.start)) < 0) return false;
  return window.end === '23:59' || Temporal.PlainTime.compare(time, Temporal.PlainTime.from(window.end)) < 0;
}

/**
 * Every offset change of `zone` from `fromMs` to `toMs`, found with Temporal's own
 * transition search; computed once per zone by the tests.
 */
export function offsetChanges(zone: string, fromMs: number, toMs: number): number[] {
  const changes: number[] = [];
  let at = Temporal.Instant.fromEpochMilliseconds(fromMs).toZonedDateTimeISO(zone);
  for (;;) {
    const next = at.getTimeZoneTransition('next');
    if (next === null || next.epochMilliseconds > toMs) return changes;
    changes.push(next.epochMilliseconds);
    at = next;
  }
}

/**
 * The earliest open instant at or after `dueMs`, looking at local dates from the
 * day before the one of `dueMs` to `lastDate` (inclusive); null when none opens.
 *
 * The open set is a union of intervals, each starting where the local clock either
 * reaches the start time (a real instant of `date` + `start`: one, or two in a
 * repeated hour; the local date may be the day before `dueMs`'s after a fall-back),
 * or jumps into the window at an offset change. So the answer is `dueMs` itself or
 * the earliest open one of those candidates; extra candidates cannot make it wrong,
 * since an open candidate at or after `dueMs` is an answer or later than it.
 */
export function earliestOpen(
  dueMs: number,
  window: SendingWindow,
  zone: string,
  changes: readonly number[],
  lastDate: Temporal.PlainDate,
): number | null {
  const candidates = [dueMs];
  const start = Temporal.PlainTime.from(window.start);
  const holidays = new Set(window.holidays ?? []);
  const dueDate = Temporal.Instant.fromEpochMilliseconds(dueMs).toZonedDateTimeISO(zone).toPlainDate();
  for (
    let date = dueDate.subtract({ days: 1 });
    Temporal.PlainDate.compare(date, lastDate) <= 0;
    date = date.add({ days: 1 })
  ) {
    if (!window.days.includes(date.dayOfWeek) || holidays.has(date.toString())) continue;
    // A start time in a gap has no real instant: both readings land elsewhere, which
    // is harmless (a candidate only counts when it is open; the gap's end is an
    // offset change, a candidate of its own).
    const wall = date.toPlainDateTime(start);
    for (const disambiguation of ['earlier', 'later'] as const) {
      candidates.push(wall.toZonedDateTime(zone, { disambiguation }).epochMilliseconds);
    }
  }
  const lastMs = lastDate.add({ days: 2 }).toZonedDateTime(zone).epochMilliseconds;
  for (const change of changes) if (change >= dueMs && change <= lastMs) candidates.push(change);
  const ordered = [...new Set(candidates)].filter((ms) => ms >= dueMs).sort((a, b) => a - b);
  return ordered.find((ms) => isOpenAt(ms, window, zone)) ?? null;
}
