import { describe, expect, it } from 'vitest';
import {
  ENROLLMENT_STATUSES,
  isTerminal,
  LIVE_STATUSES,
  RETIRABLE_TOUCH_STATUSES,
  TOUCH_RETIRABLE_ENROLLMENT_STATUSES,
} from '../../src/index.js';

describe('touch retention: which touches may leave the live table', () => {
  it('only those of enrollments that can never send again: not live ones, not bounced ones', () => {
    for (const s of ENROLLMENT_STATUSES) {
      expect(TOUCH_RETIRABLE_ENROLLMENT_STATUSES.includes(s), s).toBe(isTerminal(s));
    }
    for (const s of LIVE_STATUSES) expect(TOUCH_RETIRABLE_ENROLLMENT_STATUSES).not.toContain(s);
    // An address change resumes a bounced enrollment, whose claim must meet its touches.
    expect(TOUCH_RETIRABLE_ENROLLMENT_STATUSES).not.toContain('bounced');
  });

  it('only final touches: not one being sent, not one in doubt', () => {
    expect([...RETIRABLE_TOUCH_STATUSES].sort()).toEqual(['cancelled', 'failed', 'sent']);
  });
});
