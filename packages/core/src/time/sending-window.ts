import { parseLocalTime, type SendingWindow, SendingWindowSchema } from './sending-window.schemas.js';
import { SendingWindowError } from './time.errors.js';
import { assertTimeZone } from './time-zone.js';
import { addLocalDays, instantToLocal, localToInstant } from './zoned-time.js';

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
 * The earliest instant at or after `due` that falls inside `window` in `timeZone`:
 * an allowed weekday that is not a holiday, at or after `start` and before `end`.
 *
 * DST-safe: a bound that does not exist on a spring-forward day moves to the first
 * valid local time (02:30 → 03:00 in New York); a bound that exists twice on a
 * fall-back day takes the first occurrence. With `jitterMs`, a random offset in
 * [0, jitterMs) is added, clamped to stay before the end of the same slot.
 *
 * Throws `SendingWindowError` (`invalid_sending_window`) for a malformed window,
 * (`sending_window_unreachable`) when no slot opens within 366 days, and
 * `TimeZoneError` for an invalid zone.
 */
export function moveIntoWindow(
  due: Date,
  window: SendingWindow,
  timeZone: string,
  opts: MoveIntoWindowOptions = {},
): Date {
  const dueMs = due.getTime();
  if (Number.isNaN(dueMs)) throw new RangeError('moveIntoWindow: `due` is an invalid Date');
  assertTimeZone(timeZone);
  const valid = validateWindow(window);
  const jitterMs = opts.jitterMs ?? 0;
  if (!Number.isFinite(jitterMs) || jitterMs < 0) {
    throw new RangeError(`moveIntoWindow: jitterMs must be a finite number ≥ 0, got ${jitterMs}`);
  }

  const days = new Set(valid.days);
  const holidays = new Set(valid.holidays ?? []);
  const start = parseLocalTime(valid.start);
  const end = parseLocalTime(valid.end);
  const dueLocal = instantToLocal(timeZone, dueMs);

  for (let offset = 0; offset <= SEARCH_DAYS; offset++) {
    const date = addLocalDays(dueLocal, offset);
    if (!days.has(date.weekday) || holidays.has(date.iso)) continue;
    const slotStart = localToInstant(timeZone, { ...date, ...start }, 'earliest-valid');
    const slotEnd = localToInstant(timeZone, { ...date, ...end }, 'earliest-valid');
    // A slot lying wholly inside a DST gap (02:10–02:40 on spring-forward day) is empty.
    if (slotEnd <= dueMs || slotStart >= slotEnd) continue;
    const at = Math.max(dueMs, slotStart);
    return new Date(applyJitter(at, slotEnd, jitterMs, opts.random ?? Math.random));
  }
  throw new SendingWindowError(
    'sending_window_unreachable',
    `No sending slot within ${SEARCH_DAYS} days after ${due.toISOString()} in ${timeZone}`,
  );
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
  if (jitterMs <= 0) return at;
  const r = random();
  const fraction = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
  // Math.floor keeps the offset below jitterMs even when random() returns 1 exactly.
  const offset = Math.min(Math.floor(fraction * jitterMs), Math.ceil(jitterMs) - 1);
  // The end is exclusive, so the latest instant inside the slot is one ms before it.
  return Math.min(at + offset, slotEnd - 1);
}
