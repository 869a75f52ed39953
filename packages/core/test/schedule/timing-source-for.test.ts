import { describe, expect, it } from 'vitest';
import { type TimingSource, timingSourceFor, touchTimingOf } from '../../src/index.js';

const source: TimingSource = {
  prospect: { timezone: null },
  mailbox: {
    windowDays: [],
    windowStart: '09:00',
    windowEnd: '17:00',
    holidays: [],
    timezone: 'Europe/Berlin',
  },
  sequenceWindow: null,
};
const account = {
  windowDays: [1],
  windowStart: '08:00',
  windowEnd: '10:00',
  holidays: ['2026-12-28'],
  timezone: 'Asia/Tokyo',
};

describe('the sending identity that times a touch', () => {
  it("is the LinkedIn account's window, holidays and zone for a LinkedIn action", () => {
    for (const action of ['linkedin_connect', 'linkedin_message', 'linkedin_visit'] as const) {
      const timing = touchTimingOf(timingSourceFor(source, action, account), { timeScale: 1 });
      expect(timing.timeZone).toBe('Asia/Tokyo');
      expect(timing.window).toEqual({ days: [1], start: '08:00', end: '10:00', holidays: ['2026-12-28'] });
    }
  });

  it("is the mailbox's for an e-mail, a manual task, or before the enrollment has an account", () => {
    expect(timingSourceFor(source, 'email', account)).toBe(source);
    expect(timingSourceFor(source, 'manual_task', account)).toBe(source);
    expect(timingSourceFor(source, 'linkedin_visit', null)).toBe(source);
  });

  it("keeps the prospect's zone and the sequence's window over the account's", () => {
    const own = { days: [2], start: '11:00', end: '12:00' };
    const timing = touchTimingOf(
      timingSourceFor(
        { ...source, prospect: { timezone: 'America/New_York' }, sequenceWindow: own },
        'linkedin_visit',
        account,
      ),
      { timeScale: 1 },
    );
    expect(timing.timeZone).toBe('America/New_York');
    expect(timing.window).toEqual(own);
  });
});
