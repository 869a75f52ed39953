import { describe, expect, it } from 'vitest';
import {
  canTransition,
  ENROLLMENT_STATUSES,
  ENROLLMENT_TRANSITIONS,
  isTerminal,
  LIVE_STATUSES,
  TERMINAL_STATUSES,
  touchKey,
} from '../../src/index.js';

describe('enrollment state machine', () => {
  it('has no way out of a terminal state', () => {
    for (const s of TERMINAL_STATUSES) {
      expect(isTerminal(s)).toBe(true);
      expect(canTransition(s, 'active')).toBe(false);
      expect(canTransition(s, 'paused')).toBe(false);
    }
  });

  it('pauses and resumes', () => {
    expect(canTransition('active', 'paused')).toBe(true);
    expect(canTransition('paused', 'active')).toBe(true);
    expect(canTransition('queued', 'active')).toBe(true);
    expect(canTransition('queued', 'exhausted')).toBe(false);
  });

  it('builds the idempotency key and job id without colons', () => {
    expect(touchKey('0b6f6a52-3b0a-4a47-9b59-6d1f2f5b9e10', 3)).toBe(
      '0b6f6a52-3b0a-4a47-9b59-6d1f2f5b9e10-3',
    );
  });
});

describe('enrollment transitions production makes', () => {
  it('stops a live enrollment with any stopping event', () => {
    for (const from of LIVE_STATUSES) {
      for (const to of ['replied', 'bounced', 'unsubscribed', 'cancelled'] as const) {
        expect(canTransition(from, to), `${from} -> ${to}`).toBe(true);
      }
    }
  });

  it('restates an ended enrollment to the earliest stopping event, and ends an exhausted one as it would have', () => {
    expect(canTransition('replied', 'bounced')).toBe(true);
    expect(canTransition('cancelled', 'replied')).toBe(true);
    expect(canTransition('exhausted', 'replied')).toBe(true);
    expect(canTransition('exhausted', 'active')).toBe(false);
    expect(canTransition('replied', 'exhausted')).toBe(false);
  });

  it('resumes a bounced enrollment on a new address, so a bounce is not terminal', () => {
    expect(canTransition('bounced', 'active')).toBe(true);
    expect(isTerminal('bounced')).toBe(false);
  });

  it('never leaves failed, and never reaches queued', () => {
    expect(ENROLLMENT_TRANSITIONS.failed).toEqual([]);
    for (const from of ENROLLMENT_STATUSES) expect(canTransition(from, 'queued')).toBe(false);
  });
});
