import { describe, expect, it } from 'vitest';
import {
  type ContactCounts,
  contactCountsNeeded,
  contactDayOf,
  contactHold,
  cooldownMs,
  dayBounds,
  exclusivityConflict,
  isFirstTouch,
} from '../../src/people/contact-policies.js';
import { patchSequencePolicies } from '../../src/people/policies-patch.js';
import { sequencePoliciesOf } from '../../src/people/sequence-policies.js';

const now = new Date('2026-11-27T10:00:00Z');
const none: ContactCounts = { lastContactAt: null, firstTouchesToday: 0, domainTouchesToday: 0 };
const policy = (contact: object) => sequencePoliciesOf({ contact }).contact;
const first = { firstTouch: true, timeZone: 'Europe/Berlin' };
const DAY = 86_400_000;

describe('contact policy defaults', () => {
  it('exclusive, 30 days of cooldown, no cap on new people or per recipient domain', () => {
    expect(sequencePoliciesOf({}).contact).toEqual({
      exclusive: true,
      cooldownDays: 30,
      newPeoplePerDay: null,
      recipientDomainPerDay: null,
    });
  });
});

describe('exclusivity', () => {
  const seq = { id: 's2', exclusive: true };

  it('refuses a person live in another sequence, naming it', () => {
    expect(exclusivityConflict(seq, [{ sequenceId: 's1', exclusive: true }])).toBe('s1');
  });

  it('either side being exclusive is enough', () => {
    expect(exclusivityConflict(seq, [{ sequenceId: 's1', exclusive: false }])).toBe('s1');
    expect(exclusivityConflict({ id: 's2', exclusive: false }, [{ sequenceId: 's1', exclusive: true }])).toBe(
      's1',
    );
  });

  it('two sequences that both opted out share the person; the same sequence is not a conflict', () => {
    expect(
      exclusivityConflict({ id: 's2', exclusive: false }, [{ sequenceId: 's1', exclusive: false }]),
    ).toBeNull();
    expect(exclusivityConflict(seq, [{ sequenceId: 's2', exclusive: true }])).toBeNull();
    expect(exclusivityConflict(seq, [])).toBeNull();
  });
});

describe('cooldown', () => {
  it('a first touch waits until N days after the last contact by another sequence', () => {
    const last = new Date(now.getTime() - 10 * DAY);
    expect(contactHold(policy({}), first, { ...none, lastContactAt: last }, now)).toEqual({
      reason: 'cooldown',
      until: new Date(last.getTime() + 30 * DAY),
    });
  });

  it('is over once the N days have passed; 0 turns it off; later touches are not held', () => {
    const last = new Date(now.getTime() - 31 * DAY);
    expect(contactHold(policy({}), first, { ...none, lastContactAt: last }, now)).toBeNull();
    const recent = { ...none, lastContactAt: new Date(now.getTime() - DAY) };
    expect(contactHold(policy({ cooldownDays: 0 }), first, recent, now)).toBeNull();
    expect(contactHold(policy({}), { ...first, firstTouch: false }, recent, now)).toBeNull();
  });
});

describe('new people per day', () => {
  it('unlimited by default; at the cap, the first touch waits for the next day in the zone', () => {
    expect(contactHold(policy({}), first, { ...none, firstTouchesToday: 10_000 }, now)).toBeNull();
    const p = policy({ newPeoplePerDay: 2 });
    expect(contactHold(p, first, { ...none, firstTouchesToday: 1 }, now)).toBeNull();
    expect(contactHold(p, first, { ...none, firstTouchesToday: 2 }, now)).toEqual({
      reason: 'new_people_cap',
      until: new Date('2026-11-27T23:00:00Z'), // midnight in Berlin
    });
    expect(
      contactHold(p, { ...first, firstTouch: false }, { ...none, firstTouchesToday: 2 }, now),
    ).toBeNull();
  });
});

describe('recipient-domain cap', () => {
  it('off by default; at the cap any touch to the company waits for the next day', () => {
    expect(contactHold(policy({}), first, { ...none, domainTouchesToday: 500 }, now)).toBeNull();
    const p = policy({ recipientDomainPerDay: 3 });
    const later = { firstTouch: false, timeZone: 'UTC' };
    expect(contactHold(p, later, { ...none, domainTouchesToday: 2 }, now)).toBeNull();
    expect(contactHold(p, later, { ...none, domainTouchesToday: 3 }, now)).toEqual({
      reason: 'recipient_domain_cap',
      until: new Date('2026-11-28T00:00:00Z'),
    });
    // No company domain (free-mail address): nothing to count.
    expect(contactHold(p, later, { ...none, domainTouchesToday: null }, now)).toBeNull();
  });

  it('when several hold, the latest end decides', () => {
    const p = policy({ recipientDomainPerDay: 1, newPeoplePerDay: 1 });
    const last = new Date(now.getTime() - 29 * DAY);
    const hold = contactHold(
      p,
      first,
      { lastContactAt: last, firstTouchesToday: 5, domainTouchesToday: 5 },
      now,
    );
    expect(hold).toEqual({ reason: 'cooldown', until: new Date(last.getTime() + 30 * DAY) });
  });
});

describe('counts and days', () => {
  it('asks only for the counts its policies use', () => {
    expect(contactCountsNeeded(policy({}), true)).toEqual({
      lastContact: true,
      firstTouchesToday: false,
      domainTouchesToday: false,
    });
    expect(contactCountsNeeded(policy({ newPeoplePerDay: 5, recipientDomainPerDay: 2 }), false)).toEqual({
      lastContact: false,
      firstTouchesToday: false,
      domainTouchesToday: true,
    });
  });

  it('a day runs from midnight to midnight in the zone, across a DST change', () => {
    expect(dayBounds(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin')).toEqual({
      start: new Date('2026-03-28T23:00:00Z'),
      end: new Date('2026-03-29T22:00:00Z'),
    });
  });

  it('under TIME_SCALE a day is compressed like every wait, and the caps wait for the compressed next day', () => {
    // 288000: a day lasts 300 ms, aligned on the epoch whatever the zone.
    const at = new Date(Math.floor(now.getTime() / 300) * 300 + 120);
    const day = contactDayOf(at, { timeZone: 'Europe/Berlin', timeScale: 288_000 });
    expect(day.end.getTime() - day.start.getTime()).toBe(300);
    expect(at.getTime() - day.start.getTime()).toBe(120);
    expect(contactDayOf(at, { timeZone: 'Europe/Berlin', timeScale: 1 })).toEqual(
      dayBounds(at, 'Europe/Berlin'),
    );
    expect(contactDayOf(at, { timeZone: 'Europe/Berlin' })).toEqual(dayBounds(at, 'Europe/Berlin'));
    const p = policy({ newPeoplePerDay: 1, recipientDomainPerDay: 1 });
    const scaled = { ...first, timeScale: 288_000 };
    expect(contactHold(p, scaled, { ...none, firstTouchesToday: 1 }, at)).toEqual({
      reason: 'new_people_cap',
      until: day.end,
    });
    expect(contactHold(p, { ...scaled, firstTouch: false }, { ...none, domainTouchesToday: 1 }, at)).toEqual({
      reason: 'recipient_domain_cap',
      until: day.end,
    });
  });

  it('under TIME_SCALE the cooldown is compressed: 30 days last 9 s at 288000', () => {
    expect(cooldownMs(30)).toBe(30 * DAY);
    expect(cooldownMs(30, 1)).toBe(30 * DAY);
    expect(cooldownMs(30, 288_000)).toBe(9_000);
    const last = new Date(now.getTime() - 4_000);
    const scaled = { ...first, timeScale: 288_000 };
    expect(contactHold(policy({}), scaled, { ...none, lastContactAt: last }, now)).toEqual({
      reason: 'cooldown',
      until: new Date(last.getTime() + 9_000),
    });
    const longAgo = new Date(now.getTime() - 10_000);
    expect(contactHold(policy({}), scaled, { ...none, lastContactAt: longAgo }, now)).toBeNull();
  });

  it('a first touch is step 1, attempt 1, with no conversation yet', () => {
    expect(isFirstTouch({ step: 1, attempt: 1, conversationId: null })).toBe(true);
    expect(isFirstTouch({ step: 1, attempt: 2, conversationId: null })).toBe(false);
    expect(isFirstTouch({ step: 2, attempt: 1, conversationId: 'c' })).toBe(false);
  });
});

describe('policies patch', () => {
  it('merges field by field, null back to the default, defaults filled in', () => {
    const current = sequencePoliciesOf({ contact: { cooldownDays: 7, newPeoplePerDay: 5 } });
    const r = patchSequencePolicies(current, { contact: { exclusive: false, newPeoplePerDay: null } });
    expect(r).toEqual({
      ok: true,
      policies: {
        ...current,
        contact: { exclusive: false, cooldownDays: 7, newPeoplePerDay: null, recipientDomainPerDay: null },
      },
    });
  });

  it('names the field at fault, unknown fields included', () => {
    const current = sequencePoliciesOf({});
    expect(patchSequencePolicies(current, { contact: { cooldownDays: -1 } })).toMatchObject({
      ok: false,
      errors: [{ field: 'body.contact.cooldownDays' }],
    });
    expect(patchSequencePolicies(current, { contact: { coolDown: 3 } })).toEqual({
      ok: false,
      errors: [{ field: 'body.contact.coolDown', message: 'unknown policy field' }],
    });
    expect(patchSequencePolicies(current, [1])).toMatchObject({ ok: false });
    // A `__proto__` key is an unknown field, not a way to reach the prototype.
    expect(
      patchSequencePolicies(current, JSON.parse('{"__proto__": {"contact": {"exclusive": false}}}')),
    ).toEqual({
      ok: false,
      errors: [{ field: 'body.__proto__', message: 'unknown policy field' }],
    });
  });
});
