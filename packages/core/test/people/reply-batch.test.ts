import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../src/events/canonical-event.js';
import { replyBatchConditionOf } from '../../src/people/reply-batch.js';

const reply = (classification: string, over: Partial<CanonicalEvent> = {}) =>
  ({
    source: 'http',
    externalId: 'evt_1',
    type: 'reply',
    channel: 'email',
    occurredAt: new Date('2026-11-27T10:00:00Z'),
    data: {},
    enrollmentId: '00000000-0000-4000-8000-000000000001',
    classification,
    ...over,
  }) as CanonicalEvent;

const ON = { replyActions: true, companyStops: true, notifyCrm: true };
const DEFAULTS = '{}';
const NOTIFY_DECLINE = JSON.stringify({ replyActions: { not_interested: { notify: true } } });
const GOES_ON = JSON.stringify({ replyActions: { stopOnReply: false, continueOn: ['neutral'] } });
const COOLDOWN = JSON.stringify({ replyActions: { not_interested: { cooldownMonths: 6 } } });
const COMPANY_ANY = JSON.stringify({ companyStop: { onClasses: 'any', action: 'end' } });
const TEXTS = [DEFAULTS, NOTIFY_DECLINE, GOES_ON, COOLDOWN, COMPANY_ANY];

describe('when a reply may take the batched stop (replyBatchConditionOf)', () => {
  it('a decline only ends under the defaults; a notification, a cooldown or going on ask for more', () => {
    const c = replyBatchConditionOf(reply('not_interested'), TEXTS, ON);
    expect(c.ownEnds).toEqual([DEFAULTS, GOES_ON, COMPANY_ANY]);
    expect(c.endsWithoutLive).toBe(true);
    // By the defaults a decline acts on no colleague; a policy of `any` does.
    expect(c.colleaguesLeft).toEqual([DEFAULTS, NOTIFY_DECLINE, GOES_ON, COOLDOWN]);
  });

  it('a class the sequence goes on after is not a plain end there', () => {
    const c = replyBatchConditionOf(reply('neutral'), TEXTS, ON);
    expect(c.ownEnds).not.toContain(GOES_ON);
    expect(c.ownEnds).toContain(DEFAULTS);
  });

  it('an interested reply asks for a notification by the defaults (and a CRM mark when a CRM is told), and pauses colleagues', () => {
    const c = replyBatchConditionOf(reply('interested'), TEXTS, ON);
    expect(c.ownEnds).toEqual([]);
    expect(c.endsWithoutLive).toBe(false);
    expect(c.colleaguesLeft).toEqual([]);
  });

  it('a wrong person that names a referral asks for triage; without a referral it only ends', () => {
    expect(
      replyBatchConditionOf(reply('wrong_person', { referral: 'jane@acme.example' }), [DEFAULTS], ON).ownEnds,
    ).toEqual([]);
    expect(replyBatchConditionOf(reply('wrong_person'), [DEFAULTS], ON).ownEnds).toEqual([DEFAULTS]);
  });

  it('with reply actions or company-level stop off, that half asks nothing of the statement', () => {
    const off = replyBatchConditionOf(reply('interested'), TEXTS, {
      ...ON,
      replyActions: false,
      companyStops: false,
    });
    expect(off).toEqual({ ownEnds: null, endsWithoutLive: true, colleaguesLeft: null });
  });
});
