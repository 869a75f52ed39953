import { describe, expect, it } from 'vitest';
import { addLocalDays, localToInstant } from '../../src/time/zoned-time.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('localToInstant', () => {
  it('converts an ordinary local time', () => {
    const local = { year: 2026, month: 7, day: 1, hour: 9, minute: 0 };
    expect(iso(localToInstant('Europe/Berlin', local, 'compatible'))).toBe('2026-07-01T07:00:00.000Z');
    expect(iso(localToInstant('Asia/Kolkata', local, 'compatible'))).toBe('2026-07-01T03:30:00.000Z');
  });

  it('resolves a missing time forward by the gap (compatible) or to the transition (earliest-valid)', () => {
    const local = { year: 2026, month: 3, day: 8, hour: 2, minute: 30 };
    expect(iso(localToInstant('America/New_York', local, 'compatible'))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(localToInstant('America/New_York', local, 'earliest-valid'))).toBe('2026-03-08T07:00:00.000Z');
  });

  it('takes the earlier instant of a repeated time in both modes', () => {
    const local = { year: 2026, month: 10, day: 25, hour: 2, minute: 30 };
    expect(iso(localToInstant('Europe/Berlin', local, 'compatible'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(localToInstant('Europe/Berlin', local, 'earliest-valid'))).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('addLocalDays', () => {
  it('crosses month, leap day and year ends and gives the ISO weekday', () => {
    expect(addLocalDays({ year: 2028, month: 2, day: 28 }, 1)).toEqual({
      year: 2028,
      month: 2,
      day: 29,
      weekday: 2,
      iso: '2028-02-29',
    });
    expect(addLocalDays({ year: 2026, month: 12, day: 31 }, 1).iso).toBe('2027-01-01');
    expect(addLocalDays({ year: 2026, month: 3, day: 8 }, 0).weekday).toBe(7);
  });
});
