import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addWait } from '../../src/time/index.js';
import { dueIn, settings, TIMEOUT_MS, ZONES } from './support/zone-scenarios.js';

describe('addWait: properties against Temporal, 11 zones, 2010–2035', () => {
  it(
    'a wait in days and elapsed time matches Temporal (calendar days, then exact time)',
    () => {
      const wait = fc.record({
        days: fc.integer({ min: 0, max: 60 }),
        minutes: fc.integer({ min: 0, max: 3_000 }),
      });
      fc.assert(
        fc.property(
          fc.constantFrom(...ZONES).chain((zone) => fc.tuple(fc.constant(zone), dueIn(zone))),
          wait,
          ([zone, from], { days, minutes }) => {
            const text = `${days}d${minutes}m`;
            const expected = temporalAddWait(from, days, minutes, zone);
            expect(addWait(new Date(from), text, zone).getTime()).toBe(expected);
          },
        ),
        settings,
      );
    },
    TIMEOUT_MS,
  );
});

/** addWait's documented rule in Temporal: days on the calendar ('compatible'), then elapsed minutes. */
function temporalAddWait(fromMs: number, days: number, minutes: number, zone: string): number {
  const start = Temporal.Instant.fromEpochMilliseconds(fromMs).toZonedDateTimeISO(zone);
  return start.add({ days }).add({ minutes }).epochMilliseconds;
}
