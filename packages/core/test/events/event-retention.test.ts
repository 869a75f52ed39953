import { describe, expect, it } from 'vitest';
import {
  type CanonicalEvent,
  effectOf,
  eventRetentionCutoff,
  FUNNEL_ARCHIVED_EVENT_TYPES,
  RETIRABLE_EVENT_TYPES,
  RETIRABLE_STREAK_BREAKERS,
} from '../../src/index.js';

describe('event retention rules', () => {
  it('retires only effect-free types, archives those the funnel counts, keeps the streak start', () => {
    for (const type of RETIRABLE_EVENT_TYPES) {
      const event: CanonicalEvent = {
        source: 'test',
        externalId: type,
        type,
        occurredAt: new Date(),
        channel: 'email',
        data: {},
      };
      const effect = effectOf(event);
      expect(effect.kind, type).toBe('none');
    }
    expect(FUNNEL_ARCHIVED_EVENT_TYPES).toEqual(['delivered', 'opened', 'clicked']);
    expect(RETIRABLE_STREAK_BREAKERS).toEqual(['delivered', 'opened', 'clicked']);
    for (const type of ['reply', 'bounce', 'unsubscribe', 'complaint', 'out_of_office', 'erasure_request'])
      expect(RETIRABLE_EVENT_TYPES).not.toContain(type);
  });

  it('turns a duration into the cutoff, and refuses one under 7 days', () => {
    const now = new Date('2026-11-24T00:00:00Z');
    expect(eventRetentionCutoff(now, '180d').toISOString()).toBe('2026-05-28T00:00:00.000Z');
    expect(eventRetentionCutoff(now, '7d').toISOString()).toBe('2026-11-17T00:00:00.000Z');
    expect(() => eventRetentionCutoff(now, '180m')).toThrow(/at least 7d/);
    expect(() => eventRetentionCutoff(now, 'soon')).toThrow(/Invalid duration/);
  });
});
