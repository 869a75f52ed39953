import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../src/events/canonical-event.js';
import { classifyReplyEvent } from '../../src/events/classified-event.js';
import { effectOf } from '../../src/events/event-effect.js';
import { eventPathOf } from '../../src/events/event-scope.js';
import { redactedEvent } from '../../src/events/redacted-event.js';
import {
  providerReplyStops,
  repliedEdgeOpenTo,
  replyDecisionOf,
  replyExcerptOf,
  takesRepliedEdge,
} from '../../src/people/reply-actions.js';
import { SequencePoliciesSchema } from '../../src/people/sequence-policies.js';

const now = new Date('2026-11-23T10:00:00Z');
const event = (type: CanonicalEvent['type'], extra: Partial<CanonicalEvent> = {}) =>
  ({
    type,
    source: 'sandbox',
    externalId: 'x',
    occurredAt: now,
    channel: 'email',
    data: {},
    ...extra,
  }) as CanonicalEvent;
const reply = (classification: string, extra: Partial<CanonicalEvent> = {}) =>
  event('reply', { classification, ...extra });
const live = (id: string, sequencePolicies: unknown = {}) => ({
  id,
  status: 'active' as const,
  stopReason: null,
  sequencePolicies,
});

describe('reply actions: defaults', () => {
  it('interested and meeting_request end, mark the CRM contact and notify', () => {
    for (const c of ['interested', 'meeting_request']) {
      const d = replyDecisionOf(reply(c), [live('e1')], now);
      expect(d).toMatchObject({ keep: [], markCrm: true, notify: true, referral: null, contactAfter: null });
    }
  });

  it('not_interested ends, with no cooldown unless the sequence sets one', () => {
    expect(replyDecisionOf(reply('not_interested'), [live('e1')], now)).toMatchObject({
      keep: [],
      markCrm: false,
      notify: false,
      contactAfter: null,
    });
    const policies = { replyActions: { not_interested: { cooldownMonths: 6 } } };
    const d = replyDecisionOf(reply('not_interested'), [live('e1', policies)], now);
    expect(d.contactAfter).toEqual(new Date(now.getTime() + 180 * 86_400_000));
  });

  it('wrong_person ends and hands a named referral to triage', () => {
    const d = replyDecisionOf(reply('wrong_person', { referral: 'jane@acme.com' }), [live('e1')], now);
    expect(d).toMatchObject({ keep: [], referral: 'jane@acme.com', notify: false });
    const off = { replyActions: { wrong_person: { triageReferral: false } } };
    expect(
      replyDecisionOf(reply('wrong_person', { referral: 'jane@acme.com' }), [live('e1', off)], now).referral,
    ).toBeNull();
  });

  it("setting one field of a class keeps the class's own defaults for the others", () => {
    const policies = SequencePoliciesSchema.parse({
      replyActions: { wrong_person: { notify: true }, interested: { notify: false } },
    }).replyActions;
    expect(policies.wrong_person).toMatchObject({ notify: true, triageReferral: true });
    expect(policies.interested).toMatchObject({ notify: false, markCrm: true });
  });

  it('out_of_office pauses until the return date, or is ignored where the sequence says so', () => {
    const ooo = event('out_of_office', { returnDate: '2026-11-30' });
    const d = replyDecisionOf(
      ooo,
      [live('pause'), live('ignore', { replyActions: { outOfOffice: 'ignore' } })],
      now,
    );
    expect(d.keep).toEqual(['ignore']);
    // Back on Monday the 30th, resumes a business day later at the time of day it came.
    expect(d.pauseUntil).toEqual(new Date('2026-12-01T10:00:00Z'));
  });

  it('an unsubscribe or a complaint ends and suppresses, whatever the policies', () => {
    expect(effectOf(event('unsubscribe'))).toMatchObject({ kind: 'stop', suppress: true });
    expect(effectOf(event('complaint'))).toMatchObject({ kind: 'stop', suppress: true });
  });
});

describe('reply actions: stop_on_reply off', () => {
  const goOn = { replyActions: { stopOnReply: false, continueOn: ['neutral', 'not_interested'] } };

  it('keeps going only for the classes the user chose', () => {
    const es = [live('chosen', goOn), live('default')];
    expect(replyDecisionOf(reply('neutral'), es, now).keep).toEqual(['chosen']);
    expect(replyDecisionOf(reply('interested'), es, now).keep).toEqual([]);
  });

  it('continueOn is ignored while stop_on_reply is on', () => {
    const on = { replyActions: { stopOnReply: true, continueOn: ['neutral'] } };
    expect(replyDecisionOf(reply('neutral'), [live('e', on)], now).keep).toEqual([]);
  });

  it('never for unsubscribe or complaint: the schema refuses them, and the rule holds anyway', () => {
    const bad = SequencePoliciesSchema.safeParse({
      replyActions: { stopOnReply: false, continueOn: ['unsubscribe'] },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['replyActions', 'continueOn', 0]);
    expect(SequencePoliciesSchema.safeParse({ replyActions: { continueOn: ['complaint'] } }).success).toBe(
      false,
    );
  });

  it('side effects follow the sequence the reply answered', () => {
    const quiet = { replyActions: { interested: { notify: false, markCrm: false } } };
    const es = [live('loud'), live('quiet', quiet)];
    expect(replyDecisionOf(reply('interested', { enrollmentId: 'quiet' }), es, now).notify).toBe(false);
    expect(replyDecisionOf(reply('interested', { enrollmentId: 'loud' }), es, now).notify).toBe(true);
  });
});

describe('reply excerpts and the event path', () => {
  it('keeps the first lines, masking addresses and phone numbers', () => {
    const text = 'Sounds good!\n\nCall me at +49 170 1234567 or mail bob@acme.com\nThursday?\nMore\n';
    expect(replyExcerptOf(text)).toBe('Sounds good!\nCall me at [number] or mail [address]\nThursday?');
  });

  it('a classified reply carries its excerpt and referral; the log keeps neither in clear', () => {
    const fields = classifyReplyEvent({
      text: "I've left the company, please contact jane@acme.com instead.",
    });
    expect(fields).toMatchObject({
      type: 'reply',
      classification: 'wrong_person',
      referral: 'jane@acme.com',
    });
    const logged = redactedEvent({ ...event('reply'), ...fields } as CanonicalEvent);
    expect(logged.excerpt).toBeUndefined();
    expect(logged.referral).toMatch(/^sha256:/);
  });

  it('with reply actions on, a reply naming our enrollment is batched when its policies only end it (else general)', () => {
    const r = reply('interested', { enrollmentId: '00000000-0000-4000-8000-000000000001' });
    expect(eventPathOf(r, effectOf(r), { notifyCrm: false })).toBe('batched_stop');
    expect(eventPathOf(r, effectOf(r), { notifyCrm: false, replyActions: true })).toBe('batched_reply');
  });
});

describe('reply actions: the replied edge of a graph', () => {
  const on = { replyActions: true };

  it("a person's answer the sequence would end on takes the edge", () => {
    for (const c of [
      'interested',
      'meeting_request',
      'not_interested',
      'wrong_person',
      'neutral',
      'a_provider_class',
    ])
      expect(takesRepliedEdge(reply(c), {}, on), c).toBe(true);
    // No classifier read it (a provider's reply without text): still a reply, it takes the edge.
    expect(takesRepliedEdge(event('reply'), {}, on)).toBe(true);
    // A LinkedIn reply is the person's answer too.
    expect(takesRepliedEdge(reply('interested', { channel: 'linkedin' }), {}, on)).toBe(true);
  });

  it("never an unsubscribe, a complaint, a bounce or an auto-reply, as event types or as a reply's class", () => {
    for (const type of ['unsubscribe', 'complaint', 'bounce', 'out_of_office'] as const)
      expect(takesRepliedEdge(event(type), {}, on), type).toBe(false);
    for (const c of ['unsubscribe', 'complaint', 'bounce', 'out_of_office', 'auto_reply'])
      expect(takesRepliedEdge(reply(c), {}, on), c).toBe(false);
    expect(takesRepliedEdge(event('opened'), {}, on)).toBe(false);
  });

  it('a class the sequence goes on after keeps the enrollment on its track, not the edge', () => {
    const goesOn = { replyActions: { stopOnReply: false, continueOn: ['neutral'] } };
    expect(takesRepliedEdge(reply('neutral'), goesOn, on)).toBe(false);
    expect(takesRepliedEdge(reply('interested'), goesOn, on)).toBe(true);
    // stopOnReply off with no class listed: every class ends, so every class takes the edge.
    expect(takesRepliedEdge(reply('neutral'), { replyActions: { stopOnReply: false } }, on)).toBe(true);
  });

  it("with reply actions off every reply ends every sequence, so every person's answer takes the edge", () => {
    const goesOn = { replyActions: { stopOnReply: false, continueOn: ['neutral'] } };
    expect(takesRepliedEdge(reply('neutral'), goesOn, { replyActions: false })).toBe(true);
    expect(takesRepliedEdge(reply('out_of_office'), {}, { replyActions: false })).toBe(false);
  });

  it("a pause the person's reply stands for lifts (out-of-office, a colleague's reply); an operator's never", () => {
    expect(repliedEdgeOpenTo({ status: 'active', stopReason: null })).toBe(true);
    expect(repliedEdgeOpenTo({ status: 'paused', stopReason: 'out_of_office' })).toBe(true);
    expect(repliedEdgeOpenTo({ status: 'paused', stopReason: 'company_reply' })).toBe(true);
    for (const stopReason of ['manual_pause', 'manual_pause_until', 'missing_variable:firstName', null])
      expect(repliedEdgeOpenTo({ status: 'paused', stopReason }), String(stopReason)).toBe(false);
    for (const status of ['queued', 'replied', 'bounced', 'exhausted'] as const)
      expect(repliedEdgeOpenTo({ status, stopReason: null }), status).toBe(false);
  });

  it('the provider\'s "replied" does not stop the touches of a track a recorded reply led to', () => {
    expect(providerReplyStops({}, null)).toBe(true);
    expect(providerReplyStops({}, 'interested')).toBe(true);
    expect(providerReplyStops({}, 'interested', true)).toBe(false);
  });

  it('a reply the re-check found and recorded (no text: `unclassified`) stops the next touch unless the sequence goes on after it', () => {
    const goesOn = { replyActions: { stopOnReply: false, continueOn: ['unclassified'] } };
    expect(providerReplyStops(goesOn, 'unclassified')).toBe(false);
    expect(providerReplyStops({}, 'unclassified')).toBe(true);
    // The same decision the re-check's event was applied with (reply actions on): kept, not moved.
    const r = event('reply', { enrollmentId: 'a' });
    expect(replyDecisionOf(r, [live('a', goesOn)], now).keep).toEqual(['a']);
    expect(takesRepliedEdge(r, goesOn, { replyActions: true })).toBe(false);
  });
});
