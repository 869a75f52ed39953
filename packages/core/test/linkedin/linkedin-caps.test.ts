import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LINKEDIN_CAPS,
  LinkedInCapsSchema,
  linkedInActionLimits,
} from '../../src/linkedin/linkedin-caps.js';

describe('LinkedIn caps', () => {
  it('defaults every cap near, and under, LinkedIn safe limits', () => {
    const caps = LinkedInCapsSchema.parse({});
    expect(caps).toEqual(DEFAULT_LINKEDIN_CAPS);
    expect(caps.invitationsPerWeek).toBeLessThanOrEqual(100);
    expect(caps.invitationsPerDay * 5).toBeLessThanOrEqual(caps.invitationsPerWeek);
  });

  it('gives invitations a day and a week window, messages and visits a day window', () => {
    const caps = LinkedInCapsSchema.parse({});
    expect(linkedInActionLimits(caps, 'invitation')).toEqual({
      perMinute: 2,
      perHour: 15,
      perDay: 20,
      perWeek: 100,
      minSpacingMs: 60_000,
    });
    expect(linkedInActionLimits(caps, 'message')).toEqual({
      perMinute: 2,
      perHour: 15,
      perDay: 50,
      minSpacingMs: 60_000,
    });
    expect(linkedInActionLimits(caps, 'profile_visit').perDay).toBe(80);
  });

  it('never lets a smaller window allow more than a larger one, and 0 turns an action off', () => {
    const caps = LinkedInCapsSchema.parse({
      invitationsPerDay: 50,
      invitationsPerWeek: 10,
      messagesPerDay: 0,
    });
    const inv = linkedInActionLimits(caps, 'invitation');
    expect(inv.perDay).toBe(10);
    expect(inv.perHour).toBeLessThanOrEqual(inv.perDay);
    const msg = linkedInActionLimits(caps, 'message');
    expect([msg.perMinute, msg.perHour, msg.perDay]).toEqual([0, 0, 0]);
  });

  it('refuses caps out of range, naming the field', () => {
    const r = LinkedInCapsSchema.safeParse({ invitationsPerDay: 5000 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['invitationsPerDay']);
  });
});
