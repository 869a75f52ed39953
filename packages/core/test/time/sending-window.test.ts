import { describe, expect, it, vi } from 'vitest';
import {
  moveIntoWindow,
  type SendingWindow,
  SendingWindowError,
  SendingWindowSchema,
  TimeZoneError,
} from '../../src/time/index.js';
import { catchError } from './support/catch-error.js';

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const KOLKATA = 'Asia/Kolkata';
const businessHours: SendingWindow = { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };
const everyDay: SendingWindow = { days: [1, 2, 3, 4, 5, 6, 7], start: '09:00', end: '17:00' };

const move = (iso: string, window: SendingWindow, timeZone: string) =>
  moveIntoWindow(new Date(iso), window, timeZone).toISOString();

describe('moveIntoWindow: business days and hours', () => {
  it('keeps a due time that is already inside the window', () => {
    expect(move('2026-03-04T15:00:00Z', businessHours, NY)).toBe('2026-03-04T15:00:00.000Z'); // Wed 10:00 EST
  });

  it('keeps a due time exactly at the start, and moves one exactly at the (exclusive) end', () => {
    expect(move('2026-03-04T14:00:00Z', businessHours, NY)).toBe('2026-03-04T14:00:00.000Z'); // Wed 09:00
    expect(move('2026-03-04T22:00:00Z', businessHours, NY)).toBe('2026-03-05T14:00:00.000Z'); // Wed 17:00 → Thu 09:00
  });

  it('moves an early morning to the same day at the start', () => {
    expect(move('2026-03-04T11:00:00Z', businessHours, NY)).toBe('2026-03-04T14:00:00.000Z'); // 06:00 → 09:00
  });

  it('moves Friday evening to Monday morning', () => {
    expect(move('2026-02-27T23:30:00Z', businessHours, NY)).toBe('2026-03-02T14:00:00.000Z'); // Fri 18:30 → Mon 09:00
  });

  it('moves a Saturday to Monday', () => {
    expect(move('2026-02-28T15:00:00Z', businessHours, BERLIN)).toBe('2026-03-02T08:00:00.000Z');
  });

  it('works in local dates, not UTC dates (Monday 00:30 in Kolkata is still Sunday in UTC)', () => {
    expect(move('2026-03-08T19:00:00Z', businessHours, KOLKATA)).toBe('2026-03-09T03:30:00.000Z'); // Mon 09:00 IST
  });

  it('handles a +05:30 zone: Friday 17:30 IST goes to Monday 09:00 IST', () => {
    expect(move('2026-03-13T12:00:00Z', businessHours, KOLKATA)).toBe('2026-03-16T03:30:00.000Z');
  });

  it('gives the same local 09:00 to prospects in different zones for one due instant', () => {
    const due = '2026-03-04T02:00:00Z'; // Wed: 21:00 Tue NY, 03:00 Berlin, 07:30 Kolkata
    expect(move(due, businessHours, NY)).toBe('2026-03-04T14:00:00.000Z');
    expect(move(due, businessHours, BERLIN)).toBe('2026-03-04T08:00:00.000Z');
    expect(move(due, businessHours, KOLKATA)).toBe('2026-03-04T03:30:00.000Z');
  });
});

describe('moveIntoWindow: across DST changes', () => {
  it('New York spring: Friday evening EST → Monday 09:00 EDT (13:00Z, not 14:00Z)', () => {
    expect(move('2026-03-06T23:30:00Z', businessHours, NY)).toBe('2026-03-09T13:00:00.000Z');
  });

  it('New York autumn: Friday evening EDT → Monday 09:00 EST (14:00Z, not 13:00Z)', () => {
    expect(move('2026-10-30T22:30:00Z', businessHours, NY)).toBe('2026-11-02T14:00:00.000Z');
  });

  it('Berlin spring: Friday evening CET → Monday 09:00 CEST', () => {
    expect(move('2026-03-27T17:00:00Z', businessHours, BERLIN)).toBe('2026-03-30T07:00:00.000Z');
  });

  it('Berlin autumn: Friday evening CEST → Monday 09:00 CET', () => {
    expect(move('2026-10-23T16:00:00Z', businessHours, BERLIN)).toBe('2026-10-26T08:00:00.000Z');
  });

  it('on the change day itself, 09:00 local is after the change', () => {
    expect(move('2026-03-08T05:00:00Z', everyDay, NY)).toBe('2026-03-08T13:00:00.000Z'); // Sun 09:00 EDT
    expect(move('2026-11-01T04:00:00Z', everyDay, NY)).toBe('2026-11-01T14:00:00.000Z'); // Sun 09:00 EST
    expect(move('2026-03-28T23:00:00Z', everyDay, BERLIN)).toBe('2026-03-29T07:00:00.000Z'); // Sun 09:00 CEST
    expect(move('2026-10-24T22:00:00Z', everyDay, BERLIN)).toBe('2026-10-25T08:00:00.000Z'); // Sun 09:00 CET
  });

  it('a start that does not exist moves to the first valid local time (02:30 → 03:00 EDT)', () => {
    const window: SendingWindow = { days: [7], start: '02:30', end: '06:00' };
    expect(move('2026-03-08T05:00:00Z', window, NY)).toBe('2026-03-08T07:00:00.000Z');
  });

  it('a start that does not exist in Berlin moves to 03:00 CEST', () => {
    const window: SendingWindow = { days: [7], start: '02:15', end: '06:00' };
    expect(move('2026-03-28T23:00:00Z', window, BERLIN)).toBe('2026-03-29T01:00:00.000Z');
  });

  it('a due time inside the window, just after the gap, stays put', () => {
    const window: SendingWindow = { days: [7], start: '01:00', end: '06:00' };
    expect(move('2026-03-08T07:10:00Z', window, NY)).toBe('2026-03-08T07:10:00.000Z'); // 03:10 EDT
  });

  it('a window lying wholly in the gap is empty that day; the next Sunday is used', () => {
    const window: SendingWindow = { days: [7], start: '02:10', end: '02:50' };
    expect(move('2026-03-08T05:00:00Z', window, NY)).toBe('2026-03-15T06:10:00.000Z'); // next Sun 02:10 EDT
  });

  it('a start that exists twice takes its first occurrence (01:30 EDT)', () => {
    const window: SendingWindow = { days: [7], start: '01:30', end: '06:00' };
    expect(move('2026-11-01T04:00:00Z', window, NY)).toBe('2026-11-01T05:30:00.000Z');
  });

  it('a window spanning the repeated hour keeps a due time inside it', () => {
    const window: SendingWindow = { days: [7], start: '00:30', end: '04:00' };
    expect(move('2026-11-01T06:15:00Z', window, NY)).toBe('2026-11-01T06:15:00.000Z'); // 01:15 EST, 2nd pass
  });

  it('resolves a repeated start the same way whatever the season the code runs in', () => {
    // luxon guesses ambiguous local times from the zone's offset *now*; ours must not.
    const window: SendingWindow = { days: [7], start: '01:30', end: '06:00' };
    const results = new Set<string>();
    try {
      for (const now of ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z', '2026-11-01T06:30:00Z']) {
        vi.useFakeTimers({ now: new Date(now) });
        results.add(move('2026-11-01T04:00:00Z', window, NY));
        results.add(move('2026-10-24T22:00:00Z', { ...window, start: '02:30' }, BERLIN));
      }
    } finally {
      vi.useRealTimers();
    }
    expect([...results]).toEqual(['2026-11-01T05:30:00.000Z', '2026-10-25T00:30:00.000Z']);
  });
});

describe('moveIntoWindow: holidays', () => {
  it('skips a holiday and the weekend after it', () => {
    const window = { ...businessHours, holidays: ['2026-12-25'] };
    expect(move('2026-12-24T23:00:00Z', window, NY)).toBe('2026-12-28T14:00:00.000Z'); // Thu 18:00 → Mon 09:00
  });

  it('skips a Monday holiday after a weekend', () => {
    const window = { ...businessHours, holidays: ['2026-04-06'] }; // Easter Monday
    expect(move('2026-04-03T16:00:00Z', window, BERLIN)).toBe('2026-04-07T07:00:00.000Z'); // Fri 18:00 → Tue 09:00
  });

  it('skips a holiday that starts mid-day in UTC (the date is local)', () => {
    const window = { ...businessHours, holidays: ['2026-03-09'] };
    expect(move('2026-03-08T19:00:00Z', window, KOLKATA)).toBe('2026-03-10T03:30:00.000Z');
  });

  it('leaves a due time alone when the holiday is another day', () => {
    const window = { ...businessHours, holidays: ['2026-03-05'] };
    expect(move('2026-03-04T15:00:00Z', window, NY)).toBe('2026-03-04T15:00:00.000Z');
  });
});

describe('moveIntoWindow: jitter', () => {
  it('adds random() × jitterMs', () => {
    const due = new Date('2026-03-04T15:00:00Z');
    const moved = moveIntoWindow(due, businessHours, NY, { jitterMs: 600_000, random: () => 0.5 });
    expect(moved.toISOString()).toBe('2026-03-04T15:05:00.000Z');
  });

  it('jitters from the window start when the due time was moved', () => {
    const due = new Date('2026-03-04T11:00:00Z');
    const moved = moveIntoWindow(due, businessHours, NY, { jitterMs: 60_000, random: () => 0.25 });
    expect(moved.toISOString()).toBe('2026-03-04T14:00:15.000Z');
  });

  it('clamps to the last instant of the same slot', () => {
    const due = new Date('2026-03-04T21:55:00Z'); // 16:55 EST
    const moved = moveIntoWindow(due, businessHours, NY, { jitterMs: 3_600_000, random: () => 0.99 });
    expect(moved.toISOString()).toBe('2026-03-04T21:59:59.999Z');
  });

  it('stays below jitterMs even if random() returns 1', () => {
    const due = new Date('2026-03-04T15:00:00Z');
    const moved = moveIntoWindow(due, businessHours, NY, { jitterMs: 1_000, random: () => 1 });
    expect(moved.getTime() - due.getTime()).toBe(999);
  });

  it('with the default random source, stays in [due, due + jitterMs)', () => {
    const due = new Date('2026-03-04T15:00:00Z');
    for (let i = 0; i < 200; i++) {
      const offset = moveIntoWindow(due, businessHours, NY, { jitterMs: 120_000 }).getTime() - due.getTime();
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(120_000);
    }
  });

  it('refuses a negative jitter', () => {
    expect(() => moveIntoWindow(new Date(), businessHours, NY, { jitterMs: -1 })).toThrow(RangeError);
  });
});

describe('moveIntoWindow: errors', () => {
  it('throws a clear SendingWindowError for a window with no days', () => {
    const error = catchError(() =>
      moveIntoWindow(new Date(), { days: [], start: '09:00', end: '17:00' }, NY),
    );
    expect(error).toBeInstanceOf(SendingWindowError);
    expect((error as SendingWindowError).code).toBe('invalid_sending_window');
    expect((error as Error).message).toContain('at least one day');
  });

  it('throws rather than searching forever when every allowed day is a holiday', () => {
    const mondays = Array.from({ length: 60 }, (_, week) =>
      new Date(Date.UTC(2026, 2, 2 + 7 * week)).toISOString().slice(0, 10),
    );
    const window: SendingWindow = { days: [1], start: '09:00', end: '17:00', holidays: mondays };
    const error = catchError(() => moveIntoWindow(new Date('2026-03-01T12:00:00Z'), window, NY));
    expect(error).toBeInstanceOf(SendingWindowError);
    expect((error as SendingWindowError).code).toBe('sending_window_unreachable');
  });

  it('finds a slot almost a year away', () => {
    const window: SendingWindow = { days: [1], start: '09:00', end: '17:00', holidays: [] };
    window.holidays = Array.from({ length: 51 }, (_, week) =>
      new Date(Date.UTC(2026, 2, 2 + 7 * week)).toISOString().slice(0, 10),
    );
    expect(move('2026-03-01T12:00:00Z', window, NY)).toBe('2027-02-22T14:00:00.000Z');
  });

  it('refuses a window over midnight', () => {
    const error = catchError(() =>
      moveIntoWindow(new Date(), { days: [1], start: '22:00', end: '06:00' }, NY),
    );
    expect((error as SendingWindowError).code).toBe('invalid_sending_window');
    expect((error as Error).message).toContain('over midnight');
  });

  it('throws TimeZoneError for an unknown zone', () => {
    expect(() => moveIntoWindow(new Date(), businessHours, 'Moon/Tranquility')).toThrow(TimeZoneError);
  });

  it('throws RangeError for an invalid due date', () => {
    expect(() => moveIntoWindow(new Date(Number.NaN), businessHours, NY)).toThrow(RangeError);
  });
});

describe('SendingWindowSchema', () => {
  it('accepts a business-hours window with holidays', () => {
    const window = { days: [1, 2, 3, 4, 5], start: '08:30', end: '17:45', holidays: ['2026-12-25'] };
    expect(SendingWindowSchema.parse(window)).toEqual(window);
  });

  it.each([
    [{ days: [], start: '09:00', end: '17:00' }, 'at least one day'],
    [{ days: [0, 1], start: '09:00', end: '17:00' }, 'ISO weekdays'],
    [{ days: [1, 8], start: '09:00', end: '17:00' }, 'ISO weekdays'],
    [{ days: [1.5], start: '09:00', end: '17:00' }, 'ISO weekdays'],
    [{ days: [1, 1], start: '09:00', end: '17:00' }, 'must not repeat'],
    [{ days: [1], start: '9:00', end: '17:00' }, 'start must be a local time HH:mm'],
    [{ days: [1], start: '09:00', end: '24:00' }, 'end must be a local time HH:mm'],
    [{ days: [1], start: '09:00', end: '09:00' }, 'over midnight'],
    [{ days: [1], start: '22:00', end: '06:00' }, 'over midnight'],
    [{ days: [1], start: '09:00', end: '17:00', holidays: ['2026-02-30'] }, 'YYYY-MM-DD'],
    [{ days: [1], start: '09:00', end: '17:00', holidays: ['25.12.2026'] }, 'YYYY-MM-DD'],
  ])('refuses %j', (window, problem) => {
    const result = SendingWindowSchema.safeParse(window);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join('; ')).toContain(problem);
  });

  it('refuses unknown keys, so a typo does not silently drop holidays', () => {
    expect(
      SendingWindowSchema.safeParse({ days: [1], start: '09:00', end: '17:00', holiday: [] }).success,
    ).toBe(false);
  });
});
