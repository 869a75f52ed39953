import { describe, expect, it } from 'vitest';
import { type HeldEnrollmentTiming, heldFirstTouch } from '../../src/index.js';

// A Berlin mailbox open Monday to Friday, 09:00–17:00.
const held: HeldEnrollmentTiming = {
  timezone: 'Europe/Berlin',
  prospectTimezone: null,
  windowDays: [1, 2, 3, 4, 5],
  windowStart: '09:00',
  windowEnd: '17:00',
  holidays: [],
  sequenceWindow: null,
};

describe('held first touch', () => {
  it('starts now inside the window, paced one slot per held enrollment', () => {
    const now = new Date('2026-11-23T10:00:00Z'); // Monday 11:00 in Berlin
    const at = heldFirstTouch(now, 1, 1_000, () => 0);
    expect([at(held, 0), at(held, 1), at(held, 5)].map((d) => d.getTime() - now.getTime())).toEqual([
      0, 1_000, 5_000,
    ]);
  });

  it('waits for the mailbox window in the mailbox zone when the prospect has none', () => {
    const saturday = new Date('2026-11-21T12:00:00Z');
    expect(heldFirstTouch(saturday, 1)(held, 0).toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  it('uses the prospect zone, and the sequence window over the mailbox one', () => {
    const now = new Date('2026-11-23T10:00:00Z'); // Monday 05:00 in New York
    const inNewYork = { ...held, prospectTimezone: 'America/New_York' };
    expect(heldFirstTouch(now, 1)(inNewYork, 0).toISOString()).toBe('2026-11-23T14:00:00.000Z');
    const afternoons = {
      ...inNewYork,
      sequenceWindow: { days: [1, 2, 3, 4, 5], start: '13:00', end: '17:00' },
    };
    expect(heldFirstTouch(now, 1)(afternoons, 0).toISOString()).toBe('2026-11-23T18:00:00.000Z');
  });

  it('ignores the window under TIME_SCALE and compresses the pacing', () => {
    const saturday = new Date('2026-11-21T12:00:00Z');
    expect(heldFirstTouch(saturday, 100, 1_000, () => 0)(held, 10).getTime() - saturday.getTime()).toBe(100);
  });
});
