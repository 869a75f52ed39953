import { describe, expect, it } from 'vitest';
import { addWait, DurationError, TimeZoneError } from '../../src/time/index.js';

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
const hoursBetween = (a: Date, b: Date) => (b.getTime() - a.getTime()) / HOUR;

describe('addWait: days are calendar days in the prospect zone', () => {
  it('New York spring forward (2026-03-08): 1d from 10:00 EST is 10:00 EDT, 23 hours later', () => {
    const from = at('2026-03-07T15:00:00Z'); // Sat 10:00 EST
    const due = addWait(from, '1d', 'America/New_York');
    expect(due.toISOString()).toBe('2026-03-08T14:00:00.000Z'); // Sun 10:00 EDT
    expect(hoursBetween(from, due)).toBe(23);
  });

  it('New York fall back (2026-11-01): 1d from 10:00 EDT is 10:00 EST, 25 hours later', () => {
    const from = at('2026-10-31T14:00:00Z'); // Sat 10:00 EDT
    const due = addWait(from, '1d', 'America/New_York');
    expect(due.toISOString()).toBe('2026-11-01T15:00:00.000Z'); // Sun 10:00 EST
    expect(hoursBetween(from, due)).toBe(25);
  });

  it('Berlin spring forward (2026-03-29): 23 hours', () => {
    const from = at('2026-03-28T09:00:00Z'); // Sat 10:00 CET
    const due = addWait(from, 'P1D', 'Europe/Berlin');
    expect(due.toISOString()).toBe('2026-03-29T08:00:00.000Z'); // Sun 10:00 CEST
    expect(hoursBetween(from, due)).toBe(23);
  });

  it('Berlin fall back (2026-10-25): 25 hours', () => {
    const from = at('2026-10-24T08:00:00Z'); // Sat 10:00 CEST
    const due = addWait(from, '1d', 'Europe/Berlin');
    expect(due.toISOString()).toBe('2026-10-25T09:00:00.000Z'); // Sun 10:00 CET
    expect(hoursBetween(from, due)).toBe(25);
  });

  it('weeks keep the local time across a change: 1w from Mon 10:00 EST is Mon 10:00 EDT', () => {
    const from = at('2026-03-02T15:00:00Z');
    expect(addWait(from, '1w', 'America/New_York').toISOString()).toBe('2026-03-09T14:00:00.000Z');
    expect(addWait(from, 'P1W', 'America/New_York').toISOString()).toBe('2026-03-09T14:00:00.000Z');
  });

  it('Asia/Kolkata (+05:30, no DST): a day is always 24 hours, even over the New York change', () => {
    const from = at('2026-03-07T15:00:00Z');
    expect(hoursBetween(from, addWait(from, '1d', 'Asia/Kolkata'))).toBe(24);
    expect(hoursBetween(from, addWait(from, '3d', 'Asia/Kolkata'))).toBe(72);
  });

  it('rolls over month and year ends', () => {
    expect(addWait(at('2026-01-31T10:00:00Z'), '1d', 'UTC').toISOString()).toBe('2026-02-01T10:00:00.000Z');
    expect(addWait(at('2026-12-31T10:00:00Z'), '2d', 'UTC').toISOString()).toBe('2027-01-02T10:00:00.000Z');
  });
});

describe('addWait: hours, minutes and seconds are elapsed time', () => {
  it('24h over the spring change is 24 real hours, so 11:00 on the local clock', () => {
    const from = at('2026-03-07T15:00:00Z'); // 10:00 EST
    const due = addWait(from, '24h', 'America/New_York');
    expect(hoursBetween(from, due)).toBe(24);
    expect(due.toISOString()).toBe('2026-03-08T15:00:00.000Z'); // 11:00 EDT
  });

  it('4h from midnight on the spring change day shows 05:00 local', () => {
    const due = addWait(at('2026-03-08T05:00:00Z'), 'PT4H', 'America/New_York');
    expect(due.toISOString()).toBe('2026-03-08T09:00:00.000Z'); // 05:00 EDT
  });

  it('applies calendar days first, then elapsed time (1d12h)', () => {
    const due = addWait(at('2026-03-07T15:00:00Z'), '1d12h', 'America/New_York');
    expect(due.toISOString()).toBe('2026-03-09T02:00:00.000Z'); // Sun 22:00 EDT
  });

  it('mixes the units of an ISO duration the same way', () => {
    const due = addWait(at('2026-10-24T08:00:00Z'), 'P1DT30M', 'Europe/Berlin');
    expect(due.toISOString()).toBe('2026-10-25T09:30:00.000Z');
  });

  it('returns the same instant for a zero wait', () => {
    expect(addWait(at('2026-03-08T07:00:00Z'), '0s', 'America/New_York').toISOString()).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });
});

describe('addWait: local times that do not exist or exist twice', () => {
  it('moves a missing local time forward by the gap (02:30 → 03:30 EDT)', () => {
    const due = addWait(at('2026-03-07T07:30:00Z'), '1d', 'America/New_York'); // Sat 02:30 EST
    expect(due.toISOString()).toBe('2026-03-08T07:30:00.000Z'); // Sun 03:30 EDT
  });

  it('takes the earlier of two instants of a repeated local time (01:30 EDT, not EST)', () => {
    const due = addWait(at('2026-10-31T05:30:00Z'), '1d', 'America/New_York'); // Sat 01:30 EDT
    expect(due.toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('resolves the repeated Berlin hour to summer time', () => {
    const due = addWait(at('2026-10-24T00:30:00Z'), '1d', 'Europe/Berlin'); // Sat 02:30 CEST
    expect(due.toISOString()).toBe('2026-10-25T00:30:00.000Z'); // Sun 02:30 CEST
  });
});

describe('addWait: errors', () => {
  it('throws DurationError for a bad wait', () => {
    expect(() => addWait(at('2026-03-07T15:00:00Z'), 'soon', 'UTC')).toThrow(DurationError);
  });

  it('throws TimeZoneError for a bad zone', () => {
    expect(() => addWait(at('2026-03-07T15:00:00Z'), '1d', 'Mars/Olympus')).toThrow(TimeZoneError);
  });

  it('throws RangeError for an invalid date', () => {
    expect(() => addWait(new Date(Number.NaN), '1d', 'UTC')).toThrow(RangeError);
  });
});
