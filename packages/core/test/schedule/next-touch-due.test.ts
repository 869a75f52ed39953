import { describe, expect, it } from 'vitest';
import { dueAfterWait, firstTouchDue } from '../../src/index.js';

const window = { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };

describe('next touch due', () => {
  it('moves a follow-up into the window in the prospect’s zone', () => {
    // Thursday 2026-11-19 16:00 in New York + 1d = Friday 16:00, inside the window.
    const from = new Date('2026-11-19T21:00:00Z');
    expect(
      dueAfterWait(from, '1d', { timeZone: 'America/New_York', window, timeScale: 1 }).toISOString(),
    ).toBe('2026-11-20T21:00:00.000Z');
    // + 2d = Saturday: moved to Monday 09:00 New York.
    expect(
      dueAfterWait(from, '2d', { timeZone: 'America/New_York', window, timeScale: 1 }).toISOString(),
    ).toBe('2026-11-23T14:00:00.000Z');
  });

  it('compresses waits and ignores windows under TIME_SCALE', () => {
    const from = new Date('2026-11-21T12:00:00Z'); // a Saturday
    expect(
      dueAfterWait(from, '1d', { timeZone: 'UTC', window, timeScale: 86_400 }).getTime() - from.getTime(),
    ).toBe(1000);
  });

  it('paces first touches of a large enrollment', () => {
    const now = new Date('2026-11-23T10:00:00Z'); // Monday, inside the UTC window
    const t = (i: number, random = () => 0) =>
      firstTouchDue(now, i, 500, { timeZone: 'UTC', window, timeScale: 1, random }).getTime() - now.getTime();
    expect([t(0), t(1), t(10)]).toEqual([0, 500, 5000]);
    // Randomised inside each prospect's slot, never into the next one.
    expect(t(10, () => 0.999)).toBe(5499);
    // Compressed with everything else under TIME_SCALE.
    const scaled = firstTouchDue(now, 10, 500, { timeZone: 'UTC', window, timeScale: 100, random: () => 0 });
    expect(scaled.getTime() - now.getTime()).toBe(50);
  });
});
