import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { offsetChanges } from './temporal-window-oracle.js';

// What the property tests share: how many runs, the zones, their offset changes,
// and instants to start from. CI runs RUNS cases per property; FAST_CHECK_RUNS=100000
// runs the long check locally, and FAST_CHECK_SEED replays a failure fast-check reported.
export const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 2_000);
const SEED = process.env.FAST_CHECK_SEED === undefined ? undefined : Number(process.env.FAST_CHECK_SEED);
export const settings = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };
// About 5 ms a case on a busy 2-core machine; the floor keeps a small run under vitest's usual bound.
export const TIMEOUT_MS = Math.max(60_000, RUNS * 25);

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
const FIRST = Date.UTC(2010, 0, 1);
const LAST = Date.UTC(2036, 0, 1) - 1;

// Zones with odd rules: half-hour and 45-minute offsets and shifts, DST changes at
// midnight (São Paulo, Tehran), at 00:01 (St John's until 2011), a skipped day
// (Apia, 2011-12-30), Ramadan breaks (Casablanca), and zones without DST.
export const ZONES = [
  'America/New_York',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
  'America/Sao_Paulo',
  'Asia/Tehran',
  'Pacific/Apia',
  'Europe/London',
  'Asia/Kolkata',
  'UTC',
  'Africa/Casablanca',
] as const;

/** One of {@link ZONES}. */
export type Zone = (typeof ZONES)[number];

// Found once per test file with Temporal's own transition search (about 0.6 s).
// Slots can land a few weeks after LAST, so the changes run on past it.
export const CHANGES: ReadonlyMap<Zone, readonly number[]> = new Map(
  ZONES.map((zone) => [zone, offsetChanges(zone, FIRST - 7 * DAY, LAST + 60 * DAY)]),
);

const pad = (n: number) => String(n).padStart(2, '0');
export const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

const anyInstant = fc.integer({ min: FIRST, max: LAST });

/** An instant in 2010–2035, often within two days of one of the zone's offset changes. */
export function dueIn(zone: Zone): fc.Arbitrary<number> {
  const changes = (CHANGES.get(zone) ?? []).filter((ms) => ms >= FIRST && ms <= LAST);
  const nearChange =
    changes.length === 0
      ? anyInstant
      : fc
          .tuple(
            fc.constantFrom(...changes),
            fc.oneof(fc.integer({ min: -2 * DAY, max: 2 * DAY }), fc.constant(0)),
          )
          .map(([change, shift]) => change + shift);
  return fc
    .tuple(fc.oneof(anyInstant, nearChange, nearChange), fc.boolean())
    .map(([ms, onMinute]) => (onMinute ? Math.floor(ms / MINUTE) * MINUTE : ms));
}

/** The local date of an instant in `zone`. */
export function localDateOf(epochMs: number, zone: string): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone).toPlainDate();
}
