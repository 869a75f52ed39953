import { scaleDuration } from '../time/time-scale.js';

const DAY_MS = 86_400_000;

/** Days an out-of-office pauses when it gives no return date. */
export const DEFAULT_OUT_OF_OFFICE_DAYS = 7;

/**
 * When a sequence paused by an out-of-office resumes: the return date it gave (or
 * `defaultDays` from now), plus one business day, so the first mail back is not the
 * first thing in a full inbox. Saturdays and Sundays are skipped (UTC calendar).
 * The time of day is the one the out-of-office arrived at, which was inside the
 * sending window of the touch it answered. A return date in the past counts as today.
 *
 * With `timeScale` above 1 (sandbox demos and tests) the wait is compressed like
 * every other wait.
 */
export function outOfOfficeResumeAt(
  now: Date,
  returnDate: string | null | undefined,
  opts: { defaultDays?: number; timeScale?: number } = {},
): Date {
  const timeOfDay = now.getTime() % DAY_MS;
  const today = now.getTime() - timeOfDay;
  let back = today + (opts.defaultDays ?? DEFAULT_OUT_OF_OFFICE_DAYS) * DAY_MS;
  const given = returnDate ? Date.parse(`${returnDate.slice(0, 10)}T00:00:00Z`) : Number.NaN;
  if (Number.isFinite(given)) back = Math.max(today, given);
  let resume = back + DAY_MS;
  while (isWeekend(resume)) resume += DAY_MS;
  const target = resume + timeOfDay;
  const wait = Math.max(0, target - now.getTime());
  const scale = opts.timeScale ?? 1;
  return new Date(now.getTime() + (scale > 1 ? scaleDuration(wait, scale) : wait));
}

function isWeekend(dayStartMs: number): boolean {
  const weekday = new Date(dayStartMs).getUTCDay();
  return weekday === 0 || weekday === 6;
}
