import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../src/events/canonical-event.js';
import { effectOf } from '../../src/events/event-effect.js';
import { eventPathOf } from '../../src/events/event-scope.js';
import { reactivationPlanOf, reactivationRefusalOf } from '../../src/people/reactivation.js';
import { SequencePoliciesSchema } from '../../src/people/sequence-policies.js';

const now = new Date('2026-11-23T10:00:00Z');
const REACT = '00000000-0000-4000-8000-00000000aaaa';
const event = (type: CanonicalEvent['type'], data: Record<string, unknown> = {}) =>
  ({ type, source: 'hubspot', externalId: 'x', occurredAt: now, channel: 'other', data }) as CanonicalEvent;
const past = (id: string, sequencePolicies: unknown, daysAgo: number) => ({
  id,
  sequenceId: `s-${id}`,
  status: 'cancelled' as const,
  sequencePolicies,
  createdAt: new Date(now.getTime() - daysAgo * 86_400_000),
});
const withReactivation = (over: object = {}) => ({ reactivation: { sequenceId: REACT, ...over } });

describe('reactivation: what schedules it', () => {
  it('a lost deal schedules the reactivation sequence of the newest enrollment that names one, after the cooling-off', () => {
    const plan = reactivationPlanOf(
      event('crm.deal_lost'),
      [
        past('old', withReactivation({ coolingOffDays: 30 }), 400),
        past('new', withReactivation(), 20),
        past('none', {}, 1),
      ],
      now,
    );
    expect(plan).toEqual({
      fromEnrollmentId: 'new',
      sequenceId: REACT,
      trigger: 'crm.deal_lost',
      dueAt: new Date(now.getTime() + 180 * 86_400_000),
    });
  });

  it('nothing when no sequence of theirs names a reactivation sequence, or it ignores lost deals', () => {
    expect(reactivationPlanOf(event('crm.deal_lost'), [past('a', {}, 1)], now)).toBeNull();
    expect(
      reactivationPlanOf(
        event('crm.deal_lost'),
        [past('a', withReactivation({ onDealLost: false }), 1)],
        now,
      ),
    ).toBeNull();
    expect(reactivationPlanOf(event('crm.deal_won'), [past('a', withReactivation(), 1)], now)).toBeNull();
    expect(reactivationPlanOf(event('crm.deal_lost'), [], now)).toBeNull();
  });

  it('a lifecycle stage set back reactivates only for the stages a sequence chose', () => {
    const chosen = [past('a', withReactivation({ lifecycleStages: ['lead'] }), 5)];
    expect(reactivationPlanOf(event('crm.lifecycle_stage', { stage: 'lead' }), chosen, now)?.trigger).toBe(
      'crm.lifecycle_stage',
    );
    expect(reactivationPlanOf(event('crm.lifecycle_stage', { stage: 'customer' }), chosen, now)).toBeNull();
    expect(
      reactivationPlanOf(
        event('crm.lifecycle_stage', { stage: 'lead' }),
        [past('a', withReactivation(), 5)],
        now,
      ),
    ).toBeNull();
  });

  it('TIME_SCALE compresses the cooling-off', () => {
    const plan = reactivationPlanOf(
      event('crm.deal_lost'),
      [past('a', withReactivation({ coolingOffDays: 180 }), 1)],
      now,
      288_000,
    );
    expect(plan!.dueAt.getTime() - now.getTime()).toBe(54_000);
  });

  it('CRM changes that may reactivate or cancel one take the general path', () => {
    for (const e of [
      event('crm.deal_lost'),
      event('crm.deal_won'),
      event('crm.lifecycle_stage', { stage: 'lead' }),
    ]) {
      expect(eventPathOf(e, effectOf(e), { notifyCrm: false })).toBe('general');
    }
  });

  it('the policy names a sequence by uuid, with a cooling-off of 1 to 3650 days', () => {
    expect(SequencePoliciesSchema.parse({}).reactivation).toEqual({
      sequenceId: null,
      coolingOffDays: 180,
      onDealLost: true,
      lifecycleStages: [],
    });
    expect(SequencePoliciesSchema.safeParse({ reactivation: { sequenceId: 'nope' } }).success).toBe(false);
    expect(SequencePoliciesSchema.safeParse({ reactivation: { coolingOffDays: 0 } }).success).toBe(false);
  });
});

describe('reactivation: who may be enrolled when it is due', () => {
  const ok = { exists: true, suppressed: false, wonSince: false, liveEnrollments: 0, inCooldown: false };
  it('enrolls a person nothing stands against', () => {
    expect(reactivationRefusalOf(ok)).toBeNull();
  });
  it('never the erased, the suppressed, the won, the live somewhere, the cooling off', () => {
    expect(reactivationRefusalOf({ ...ok, exists: false })).toBe('erased');
    expect(reactivationRefusalOf({ ...ok, suppressed: true })).toBe('suppressed');
    expect(reactivationRefusalOf({ ...ok, wonSince: true })).toBe('won');
    expect(reactivationRefusalOf({ ...ok, liveEnrollments: 1 })).toBe('live');
    expect(reactivationRefusalOf({ ...ok, inCooldown: true })).toBe('cooling_off');
  });
});
