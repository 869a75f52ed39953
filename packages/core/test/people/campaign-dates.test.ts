import { describe, expect, it } from 'vitest';
import { campaignDatesAt, sequencePoliciesOf } from '../../src/people/sequence-policies.js';

const now = new Date('2026-11-23T10:00:00Z');

describe('campaign dates', () => {
  it('without dates, everything starts now', () => {
    expect(campaignDatesAt(sequencePoliciesOf({}), now)).toEqual({ ended: false, notBefore: null });
  });

  it('after the end date nothing new starts', () => {
    const p = sequencePoliciesOf({ endsAt: '2026-11-23T09:59:59Z' });
    expect(campaignDatesAt(p, now)).toEqual({ ended: true, endsAt: '2026-11-23T09:59:59Z' });
    expect(campaignDatesAt(sequencePoliciesOf({ endsAt: '2026-11-24T00:00:00Z' }), now).ended).toBe(false);
  });

  it('before the start date, first touches wait for it; after it, they go now', () => {
    expect(campaignDatesAt(sequencePoliciesOf({ startsAt: '2026-12-01T08:00:00+01:00' }), now)).toEqual({
      ended: false,
      notBefore: new Date('2026-12-01T07:00:00Z'),
    });
    expect(campaignDatesAt(sequencePoliciesOf({ startsAt: '2026-11-01T00:00:00Z' }), now)).toEqual({
      ended: false,
      notBefore: null,
    });
  });

  it('refuses a date that is not ISO 8601', () => {
    expect(() => sequencePoliciesOf({ startsAt: 'next monday' })).toThrow();
  });
});
