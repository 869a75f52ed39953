import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../src/events/canonical-event.js';
import { companyStopOf, sequencesActingOn } from '../../src/people/company-stop.js';
import { SequencePoliciesSchema, sequencePoliciesOf } from '../../src/people/sequence-policies.js';

const now = new Date('2026-11-23T10:00:00Z');
const reply = (classification?: string) =>
  ({
    type: 'reply',
    source: 'sandbox',
    occurredAt: now,
    ...(classification ? { classification } : {}),
  }) as CanonicalEvent;

describe('company-level stop', () => {
  it('defaults: a positive reply pauses colleagues for 14 days, a neutral one leaves them going', () => {
    const colleagues = [{ enrollmentIds: ['e1'], sequencePolicies: {} }];
    expect(companyStopOf(reply('interested'), colleagues, now)).toEqual([
      { enrollmentId: 'e1', action: 'pause', until: new Date('2026-12-07T10:00:00Z') },
    ]);
    expect(companyStopOf(reply('neutral'), colleagues, now)).toEqual([]);
    expect(companyStopOf(reply(), colleagues, now)).toEqual([]);
  });

  it('an unsubscribe or a complaint ends only the person', () => {
    const colleagues = [
      { enrollmentIds: ['e1'], sequencePolicies: { companyStop: { action: 'end', onClasses: 'any' } } },
    ];
    const unsubscribe = { type: 'unsubscribe', source: 'sandbox', occurredAt: now } as CanonicalEvent;
    expect(companyStopOf(unsubscribe, colleagues, now)).toEqual([]);
    expect(companyStopOf(reply('unsubscribe'), colleagues, now)).toEqual([
      { enrollmentId: 'e1', action: 'end' },
    ]);
  });

  it("each colleague's own sequence decides: end, pause, continue", () => {
    const colleagues = [
      {
        enrollmentIds: ['end'],
        sequencePolicies: { companyStop: { action: 'end', onClasses: ['not_interested'] } },
      },
      { enrollmentIds: ['go'], sequencePolicies: { companyStop: { action: 'continue' } } },
      {
        enrollmentIds: ['other-class'],
        sequencePolicies: { companyStop: { action: 'end', onClasses: ['interested'] } },
      },
    ];
    expect(companyStopOf(reply('not_interested'), colleagues, now)).toEqual([
      { enrollmentId: 'end', action: 'end' },
    ]);
  });

  it('reads each sequence once and decides for all of its colleagues, in enrollment id order', () => {
    const until = new Date('2026-12-07T10:00:00Z');
    expect(
      companyStopOf(
        reply('interested'),
        [
          { enrollmentIds: ['c', 'a'], sequencePolicies: {} },
          {
            enrollmentIds: ['b', 'd'],
            sequencePolicies: { companyStop: { action: 'end', onClasses: 'any' } },
          },
          { enrollmentIds: ['e'], sequencePolicies: { companyStop: { action: 'continue' } } },
        ],
        now,
      ),
    ).toEqual([
      { enrollmentId: 'a', action: 'pause', until },
      { enrollmentId: 'b', action: 'end' },
      { enrollmentId: 'c', action: 'pause', until },
      { enrollmentId: 'd', action: 'end' },
    ]);
  });

  it('compresses the pause with the time scale', () => {
    const [d] = companyStopOf(
      reply('interested'),
      [{ enrollmentIds: ['e1'], sequencePolicies: { companyStop: { pauseDays: 1 } } }],
      now,
      1000,
    );
    expect(d).toMatchObject({ action: 'pause' });
    expect(d && 'until' in d ? d.until.getTime() - now.getTime() : 0).toBe(86_400);
  });

  it('policies are validated, and {} reads as the defaults', () => {
    expect(sequencePoliciesOf({}).companyStop).toEqual({
      action: 'pause',
      onClasses: ['interested', 'meeting_request'],
      pauseDays: 14,
    });
    expect(SequencePoliciesSchema.safeParse({ companyStop: { action: 'explode' } }).success).toBe(false);
  });

  it('names only the sequences whose policy acts on the reply, so a decline reads no colleague', () => {
    const sequences = [
      { id: 's-default', policies: '{}' },
      { id: 's-any-end', policies: JSON.stringify({ companyStop: { action: 'end', onClasses: 'any' } }) },
      {
        id: 's-continue',
        policies: JSON.stringify({ companyStop: { action: 'continue', onClasses: 'any' } }),
      },
    ];
    expect(sequencesActingOn(reply('interested'), sequences)).toEqual(['s-default', 's-any-end']);
    expect(sequencesActingOn(reply('not_interested'), sequences)).toEqual(['s-any-end']);
    expect(sequencesActingOn(reply('not_interested'), [sequences[0]!, sequences[2]!])).toEqual([]);
    expect(
      sequencesActingOn({ ...reply('interested'), type: 'unsubscribe' } as CanonicalEvent, sequences),
    ).toEqual([]);
  });
});
