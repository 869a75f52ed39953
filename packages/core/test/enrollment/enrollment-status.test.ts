import { describe, expect, it } from 'vitest';
import { canTransition, isTerminal, TERMINAL_STATUSES, touchKey } from '../../src/index.js';

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
