import { z } from 'zod';
import { DurationError } from './time.errors.js';

/**
 * A duration split the way {@link addWait} applies it: `days` are calendar days in
 * the prospect's zone (weeks count as 7), `ms` is elapsed time (hours, minutes, seconds).
 */
export interface DurationParts {
  days: number;
  ms: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// A wait longer than this is a typo (`3000d` for `30d`), and the cap keeps every
// result a safe integer that luxon and Date can add.
const MAX_DAYS = 3_650;

const SHORT_UNITS = ['w', 'd', 'h', 'm', 's'] as const;
type ShortUnit = (typeof SHORT_UNITS)[number];
const SHORT_UNIT_MS: Record<ShortUnit, number> = { w: 7 * DAY, d: DAY, h: HOUR, m: MINUTE, s: SECOND };

const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i;

/**
 * Parses a duration into its calendar and elapsed parts. Accepts the short form
 * (`30s`, `15m`, `4h`, `3d`, `2w`, combined largest unit first: `1d12h`, `1w 2d`)
 * and ISO 8601 (`P3D`, `PT4H`, `P1DT2H30M`, `P2W`). Throws {@link DurationError}.
 */
export function parseDurationParts(input: string): DurationParts {
  // The sender reads its node's wait on every touch: a text already parsed is not parsed again.
  const known = parsedDurations.get(input);
  if (known) return { ...known };
  const parts = parseDurationText(input);
  if (parsedDurations.size >= 1_000) parsedDurations.clear();
  parsedDurations.set(input, parts);
  return { ...parts };
}

const parsedDurations = new Map<string, DurationParts>();

function parseDurationText(input: string): DurationParts {
  const text = input.trim();
  if (text === '') throw new DurationError(input, 'it is empty');
  const parts = /^p/i.test(text) ? parseIso(input, text) : parseShort(input, text);
  if (parts.days + parts.ms / DAY > MAX_DAYS) {
    throw new DurationError(input, `it is longer than the ${MAX_DAYS}-day limit`);
  }
  return parts;
}

/**
 * Parses a duration into milliseconds (a day counts as 24 hours here; {@link addWait}
 * applies days on the calendar instead). Throws {@link DurationError} with
 * `code = 'invalid_duration'` on anything else.
 *
 * @example parseDuration('1d12h') // 129_600_000
 * @example parseDuration('PT4H') // 14_400_000
 */
export function parseDuration(input: string): number {
  const { days, ms } = parseDurationParts(input);
  return days * DAY + ms;
}

/** Zod schema for a duration string (`3d`, `4h`, `P1DT2H`); the message names the problem. */
export const DurationSchema = z.string().superRefine((value, ctx) => {
  try {
    parseDuration(value);
  } catch (error) {
    if (!(error instanceof DurationError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message, input: value });
  }
});

function parseIso(input: string, text: string): DurationParts {
  const datePart = text.slice(1).split(/t/i)[0] ?? '';
  if (/[ym]/i.test(datePart)) {
    throw new DurationError(input, 'years and months have no fixed length; use days (D) or weeks (W)');
  }
  if (/[.,]/.test(text)) throw new DurationError(input, 'fractions are not supported; use smaller units');
  const match = ISO_DURATION.exec(text);
  if (!match) {
    throw new DurationError(input, 'expected ISO 8601 like P3D, PT4H or P1DT2H30M');
  }
  const [, weeks, days, hours, minutes, seconds] = match.map((group) =>
    group === undefined ? 0 : Number(group),
  );
  if (match.slice(1).every((group) => group === undefined)) {
    throw new DurationError(input, 'it has no components');
  }
  return {
    days: (weeks ?? 0) * 7 + (days ?? 0),
    ms: (hours ?? 0) * HOUR + (minutes ?? 0) * MINUTE + (seconds ?? 0) * SECOND,
  };
}

function parseShort(input: string, text: string): DurationParts {
  if (/\d[.,]\d/.test(text))
    throw new DurationError(input, 'fractions are not supported; write 1h30m, not 1.5h');
  const token = /(\d+)\s*([a-zA-Z]+)\s*/y;
  let days = 0;
  let ms = 0;
  let lastRank = -1;
  let position = 0;
  while (position < text.length) {
    token.lastIndex = position;
    const match = token.exec(text);
    if (!match) {
      throw new DurationError(input, 'expected a number and a unit (s, m, h, d, w), e.g. 3d or 1d12h');
    }
    const amount = Number(match[1]);
    const unit = match[2] as string;
    const rank = SHORT_UNITS.indexOf(unit as ShortUnit);
    if (rank === -1) throw new DurationError(input, `unknown unit "${unit}" (use s, m, h, d or w)`);
    if (rank === lastRank) throw new DurationError(input, `unit "${unit}" appears more than once`);
    if (rank < lastRank) throw new DurationError(input, 'units must go from largest to smallest, e.g. 1d12h');
    lastRank = rank;
    if (unit === 'w' || unit === 'd') days += amount * (unit === 'w' ? 7 : 1);
    else ms += amount * SHORT_UNIT_MS[unit as ShortUnit];
    position = token.lastIndex;
  }
  return { days, ms };
}
