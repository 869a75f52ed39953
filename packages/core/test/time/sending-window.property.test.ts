import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moveIntoWindow, type SendingWindow } from '../../src/time/index.js';
import { earliestOpen, isOpenAt } from './support/temporal-window-oracle.js';
import {
  CHANGES,
  dueIn,
  HOUR,
  hhmm,
  localDateOf,
  MINUTE,
  settings,
  TIMEOUT_MS,
  ZONES,
} from './support/zone-scenarios.js';

// The sending-window rule against an independent oracle written with Temporal:
// 11 zones with odd DST rules, 2010–2035, random windows, weekdays and holidays.

/** A window; starts cluster in the small hours and late evening, where DST changes happen. */
const windowShape = fc.record({
  days: fc.subarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 }),
  start: fc.oneof(
    fc.integer({ min: 0, max: 1_438 }),
    fc.integer({ min: 0, max: 300 }),
    fc.integer({ min: 1_320, max: 1_438 }),
  ),
  length: fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 1_439 })),
  holidayOffsets: fc.uniqueArray(fc.integer({ min: -1, max: 20 }), { maxLength: 6 }),
});

const scenario = fc.constantFrom(...ZONES).chain((zone) =>
  fc.record({ zone: fc.constant(zone), due: dueIn(zone), shape: windowShape }).map(({ due, shape }) => {
    const dueDate = localDateOf(due, zone);
    const window: SendingWindow = {
      days: shape.days,
      start: hhmm(shape.start),
      end: hhmm(Math.min(shape.start + shape.length, 1_439)),
      holidays: shape.holidayOffsets.map((days) => dueDate.add({ days }).toString()),
    };
    return { zone, due, window };
  }),
);

describe('moveIntoWindow: properties against a Temporal oracle, 11 zones, 2010–2035', () => {
  it(
    'returns the earliest instant at or after due whose local time is inside the window',
    () => {
      fc.assert(
        fc.property(scenario, ({ zone, due, window }) => {
          const fitted = moveIntoWindow(new Date(due), window, zone).getTime();
          // (c) never before it is due
          expect(fitted).toBeGreaterThanOrEqual(due);
          // (a) inside the window by the local clock, on an allowed day that is not a holiday
          expect(isOpenAt(fitted, window, zone)).toBe(true);
          // (b) nothing earlier qualifies
          const lastDate = localDateOf(fitted, zone).add({ days: 1 });
          expect(earliestOpen(due, window, zone, CHANGES.get(zone) ?? [], lastDate)).toBe(fitted);
        }),
        settings,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'jitter moves a send forward inside the stretch it starts in, never out of it',
    () => {
      const draw = fc.record({
        jitterMs: fc.integer({ min: 1, max: HOUR }),
        random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      });
      fc.assert(
        fc.property(scenario, draw, ({ zone, due, window }, { jitterMs, random }) => {
          const fitted = moveIntoWindow(new Date(due), window, zone).getTime();
          const sent = moveIntoWindow(new Date(due), window, zone, {
            jitterMs,
            random: () => random,
          }).getTime();
          const drawn = fitted + Math.floor(random * jitterMs);
          expect(sent).toBeGreaterThanOrEqual(fitted);
          expect(sent).toBeLessThanOrEqual(drawn);
          expect(isOpenAt(sent, window, zone)).toBe(true);
          // Short of the draw only when the stretch closes right after it: the window
          // shuts, or the local date ends (the next date's window is another slot).
          if (sent < drawn) {
            const nextDate = !localDateOf(sent + 1, zone).equals(localDateOf(sent, zone));
            expect(nextDate || !isOpenAt(sent + 1, window, zone)).toBe(true);
          }
          // Open all the way: the window can only close at a minute boundary (every
          // offset here is whole minutes) or at an offset change.
          const changes = (CHANGES.get(zone) ?? []).filter((ms) => ms > fitted && ms <= sent);
          for (let ms = Math.ceil(fitted / MINUTE) * MINUTE; ms <= sent; ms += MINUTE) changes.push(ms);
          for (const ms of changes) expect(isOpenAt(ms, window, zone)).toBe(true);
        }),
        settings,
      );
    },
    TIMEOUT_MS,
  );
});

describe('the Temporal oracle itself', () => {
  // Hand-checked answers, so a broken oracle cannot pass the properties vacuously.
  const firstOpen = (dueIso: string, window: SendingWindow, zone: (typeof ZONES)[number]) => {
    const due = Date.parse(dueIso);
    const last = localDateOf(due, zone).add({ days: 8 });
    const found = earliestOpen(due, window, zone, CHANGES.get(zone) ?? [], last);
    return found === null ? null : new Date(found).toISOString();
  };

  it('opens by the local clock on fall-back days (issue 19)', () => {
    const ny = 'America/New_York';
    const due = '2025-11-02T06:00:00Z'; // 01:00 EST, the second pass of the repeated hour
    expect(firstOpen(due, { days: [7], start: '01:45', end: '02:00' }, ny)).toBe('2025-11-02T06:45:00.000Z');
    expect(firstOpen(due, { days: [7], start: '00:00', end: '01:45' }, ny)).toBe('2025-11-02T06:00:00.000Z');
    expect(firstOpen(due, { days: [1], start: '09:00', end: '17:00' }, ny)).toBe('2025-11-03T14:00:00.000Z');
    const saoPaulo = { days: [6], start: '23:00', end: '23:30' };
    expect(firstOpen('2019-02-17T01:40:00Z', saoPaulo, 'America/Sao_Paulo')).toBe('2019-02-17T02:00:00.000Z');
  });

  it('opens after a gap at its end, and reaches the last minute of a day before a holiday', () => {
    const gap = { days: [7], start: '02:30', end: '06:00' };
    expect(firstOpen('2026-03-08T05:00:00Z', gap, 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
    const holidayOnly = {
      days: [1, 2, 3, 4, 5, 6, 7],
      start: '00:00',
      end: '23:59',
      holidays: ['2013-04-02'],
    };
    expect(firstOpen('2013-04-01T23:59:00Z', holidayOnly, 'UTC')).toBe('2013-04-01T23:59:00.000Z');
    expect(firstOpen('2013-04-02T00:00:00Z', holidayOnly, 'UTC')).toBe('2013-04-03T00:00:00.000Z');
  });
});
