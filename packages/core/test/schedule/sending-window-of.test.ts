import { describe, expect, it } from 'vitest';
import {
  dueAfterDelay,
  MAX_TOUCH_ATTEMPTS,
  moveIntoWindow,
  SOFT_BOUNCE_RETRY_MS,
  sendingWindowOf,
  softBounceRetryDue,
  touchKey,
} from '../../src/index.js';

const weekdays = { windowDays: [1, 2, 3, 4, 5], windowStart: '09:00', windowEnd: '17:00' };

describe('the window a touch obeys', () => {
  it("is the sequence's own when it has one, holidays included, whatever the mailbox says", () => {
    const own = { days: [2, 4], start: '10:00', end: '12:00', holidays: ['2026-12-24'] };
    expect(sendingWindowOf(own, { ...weekdays, holidays: ['2026-12-25'] })).toEqual(own);
  });

  it("is the mailbox's otherwise, with its holidays", () => {
    expect(sendingWindowOf(null, { ...weekdays, holidays: ['2026-12-25'] })).toEqual({
      days: [1, 2, 3, 4, 5],
      start: '09:00',
      end: '17:00',
      holidays: ['2026-12-25'],
    });
    expect(sendingWindowOf(undefined, weekdays)).toEqual({
      days: [1, 2, 3, 4, 5],
      start: '09:00',
      end: '17:00',
    });
  });

  it('a mailbox without weekdays sends at any time, but not on its holidays', () => {
    expect(sendingWindowOf(null, { windowDays: [], windowStart: '09:00', windowEnd: '17:00' })).toBeNull();
    const w = sendingWindowOf(null, {
      windowDays: [],
      windowStart: '09:00',
      windowEnd: '17:00',
      holidays: ['2026-12-25'],
    });
    // Christmas Day 15:00 in Berlin waits until Boxing Day 00:00 Berlin.
    expect(moveIntoWindow(new Date('2026-12-25T14:00:00Z'), w!, 'Europe/Berlin').toISOString()).toBe(
      '2026-12-25T23:00:00.000Z',
    );
    expect(moveIntoWindow(new Date('2026-12-24T14:00:00Z'), w!, 'Europe/Berlin').toISOString()).toBe(
      '2026-12-24T14:00:00.000Z',
    );
  });
});

describe('waits that must land inside the window', () => {
  const timing = {
    timeZone: 'America/New_York',
    window: { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', holidays: ['2026-11-26'] },
    timeScale: 1,
  };

  it("a token bucket's wait that runs past the end of the window moves to the next slot, skipping a holiday", () => {
    // Wednesday 2026-11-25 16:30 New York + 1 h = 17:30, past the end; Thursday is
    // Thanksgiving (a holiday), so Friday 09:00.
    const now = new Date('2026-11-25T21:30:00Z');
    expect(dueAfterDelay(now, 3_600_000, timing).toISOString()).toBe('2026-11-27T14:00:00.000Z');
    // A wait that stays inside the window is kept as it is.
    expect(dueAfterDelay(now, 60_000, timing).toISOString()).toBe('2026-11-25T21:31:00.000Z');
  });

  it('under TIME_SCALE the wait is kept as given and the window ignored', () => {
    const now = new Date('2026-11-25T21:30:00Z');
    expect(dueAfterDelay(now, 3_600_000, { ...timing, timeScale: 1440 }).getTime() - now.getTime()).toBe(
      3_600_000,
    );
  });

  it('a soft-bounced touch is resent a day later, two days after a second bounce, inside the window', () => {
    // Monday 2026-11-23 10:00 New York.
    const now = new Date('2026-11-23T15:00:00Z');
    expect(softBounceRetryDue(now, 1, timing).toISOString()).toBe('2026-11-24T15:00:00.000Z');
    // Two days after Tuesday 10:00 is Thursday, Thanksgiving: Friday 09:00.
    expect(softBounceRetryDue(new Date('2026-11-24T15:00:00Z'), 2, timing).toISOString()).toBe(
      '2026-11-27T14:00:00.000Z',
    );
    // Compressed like every wait under TIME_SCALE (one day: 300 ms at 288000).
    const scaled = softBounceRetryDue(now, 1, { ...timing, timeScale: 288_000 });
    expect(scaled.getTime() - now.getTime()).toBe(SOFT_BOUNCE_RETRY_MS / 288_000);
  });
});

describe('the key of a resend', () => {
  const id = '0b6f6a52-3b0a-4a47-9b59-6d1f2f5b9e10';
  it('keeps `{enrollmentId}-{step}` for the first attempt and adds the attempt to a resend', () => {
    expect(touchKey(id, 2)).toBe(`${id}-2`);
    expect(touchKey(id, 2, 1)).toBe(`${id}-2`);
    expect(touchKey(id, 2, 2)).toBe(`${id}-2-2`);
    expect(touchKey(id, 2, MAX_TOUCH_ATTEMPTS)).toBe(`${id}-2-3`);
  });
});
