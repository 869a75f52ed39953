import { describe, expect, it } from 'vitest';
import {
  DoNotContactTableSchema,
  doNotContactRuleOf,
  fitDue,
  heldFirstTouch,
  moveIntoWindow,
  recipientCountryOf,
  recipientWindowOf,
  unfittedFirstTouch,
  type WaitingInput,
  waitingReason,
  withDoNotContact,
} from '../../src/index.js';

const table = DoNotContactTableSchema.parse({
  DE: { days: [7] },
  FR: { notBefore: '09:00', notAfter: '18:00', days: [6, 7], dates: ['2026-12-25'] },
});

describe('do-not-contact hours and days per recipient country', () => {
  it('narrows the sending window: days removed, hours cut, dates added as holidays', () => {
    const window = { days: [1, 2, 3, 4, 5, 6, 7], start: '08:00', end: '20:00' };
    expect(withDoNotContact(window, doNotContactRuleOf(table, 'de'))).toEqual({
      ...window,
      days: [1, 2, 3, 4, 5, 6],
    });
    expect(withDoNotContact(window, doNotContactRuleOf(table, 'FR'))).toEqual({
      days: [1, 2, 3, 4, 5],
      start: '09:00',
      end: '18:00',
      holidays: ['2026-12-25'],
    });
    // Another country, or none known: the window as it is.
    expect(withDoNotContact(window, doNotContactRuleOf(table, 'US'))).toBe(window);
    expect(withDoNotContact(null, doNotContactRuleOf(table, null))).toBeNull();
  });

  it('applies without a window too (a mailbox that sends at any hour): none on Sundays in DE', () => {
    const w = withDoNotContact(null, doNotContactRuleOf(table, 'DE'))!;
    // Sunday 2026-11-29 10:00 in Berlin moves to Monday 00:00 there.
    expect(moveIntoWindow(new Date('2026-11-29T09:00:00Z'), w, 'Europe/Berlin').toISOString()).toBe(
      '2026-11-29T23:00:00.000Z',
    );
  });

  it('reads the country from the prospect attributes, any case; anything else is unknown', () => {
    expect(recipientCountryOf({ country: ' de ' })).toBe('DE');
    expect(recipientCountryOf({ country: 'Germany' })).toBeNull();
    expect(recipientCountryOf({})).toBeNull();
  });

  it('the table names countries by ISO code and refuses a rule that forbids every day', () => {
    const bad = DoNotContactTableSchema.safeParse({ Germany: { days: [7] } });
    expect(bad.success).toBe(false);
    expect(DoNotContactTableSchema.safeParse({ DE: { days: [1, 2, 3, 4, 5, 6, 7] } }).success).toBe(false);
    expect(DoNotContactTableSchema.safeParse({ DE: { notBefore: '18:00', notAfter: '09:00' } }).success).toBe(
      false,
    );
  });

  it('the waiting reason says when the country, not the window, holds the touch', () => {
    // Sunday 2026-11-29 12:00 UTC; the mailbox sends every day 09:00–17:00.
    const now = new Date('2026-11-29T12:00:00Z');
    const input: WaitingInput = {
      status: 'active',
      stopReason: null,
      nextTouchAt: new Date(now.getTime() - 1000),
      touchInProgress: false,
      prospectTimezone: 'UTC',
      mailbox: {
        id: 'm1',
        status: 'active',
        statusReason: null,
        timezone: 'UTC',
        windowDays: [1, 2, 3, 4, 5, 6, 7],
        windowStart: '09:00',
        windowEnd: '17:00',
        holidays: [],
        perMinute: 5,
        perHour: 60,
        perDay: 300,
        recentSends: [],
      },
      domain: { status: 'active', holdTouches: true, reason: null },
      sequenceWindow: null,
      poolMembers: null,
      missingVariables: [],
      recipientCountry: 'DE',
      doNotContact: doNotContactRuleOf(table, 'DE'),
    };
    expect(waitingReason(input, now)).toEqual({
      reason: 'do_not_contact_hours',
      until: new Date('2026-11-30T09:00:00Z'),
      detail: 'no contact at this time in DE',
    });
    expect(waitingReason({ ...input, recipientCountry: 'US', doNotContact: null }, now)?.reason).toBe('due');

    // A first touch the enrollment already placed after the country's hours: its own
    // time has passed, it is due when they end, and the answer says why.
    const placed = new Date('2026-11-30T09:00:00Z');
    const early = { ...input, nextTouchAt: placed, nextTouchUnfittedAt: new Date(now.getTime() - 1000) };
    expect(waitingReason(early, now)).toEqual({
      reason: 'do_not_contact_hours',
      until: placed,
      detail: 'no contact at this time in DE',
    });
    // Its own time still ahead, or no country rule: it waits for its time.
    const later = { ...early, nextTouchUnfittedAt: placed };
    expect(waitingReason(later, now)?.reason).toBe('waiting_for_due_time');
    expect(waitingReason({ ...early, doNotContact: null }, now)?.reason).toBe('waiting_for_due_time');
  });
});

describe('first placement obeys the country too', () => {
  const mailbox = { windowDays: [], windowStart: '00:00', windowEnd: '23:59', holidays: [] };
  // Sunday 2026-11-29 10:00 in Berlin.
  const sunday = new Date('2026-11-29T09:00:00Z');
  const monday = '2026-11-29T23:00:00.000Z';

  it('recipientWindowOf: the sequence or mailbox window narrowed by the prospect country', () => {
    expect(recipientWindowOf(null, mailbox, table, { country: 'de' })?.days).toEqual([1, 2, 3, 4, 5, 6]);
    expect(recipientWindowOf(null, mailbox, table, { country: 'US' })).toBeNull();
    expect(recipientWindowOf(null, mailbox, undefined, { country: 'DE' })).toBeNull();
    expect(recipientWindowOf(null, mailbox, table, null)).toBeNull();
  });

  it('an enrollment on a Sunday places the first touch to DE on Monday, with its raw time kept', () => {
    const timing = {
      timeZone: 'Europe/Berlin',
      window: recipientWindowOf(null, mailbox, table, { country: 'DE' }),
      timeScale: 1,
    };
    const due = fitDue(unfittedFirstTouch(sunday, 0, 0, timing), timing);
    expect(due.at.toISOString()).toBe(monday);
    expect(due.unfittedAt?.toISOString()).toBe(sunday.toISOString());
  });

  it('a held enrollment released on a Sunday (domain resumed) waits for Monday too', () => {
    const held = {
      ...mailbox,
      timezone: 'Europe/Berlin',
      prospectTimezone: null,
      sequenceWindow: null,
      prospectAttributes: { country: 'DE' },
    };
    expect(heldFirstTouch(sunday, 1, 0, undefined, table)(held, 0).toISOString()).toBe(monday);
    expect(heldFirstTouch(sunday, 1, 0, undefined, table)({ ...held, prospectAttributes: {} }, 0)).toEqual(
      sunday,
    );
  });
});
