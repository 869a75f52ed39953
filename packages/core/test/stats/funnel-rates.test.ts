import { describe, expect, it } from 'vitest';
import { funnelRow, funnelTracking, rate } from '../../src/index.js';

const counts = {
  enrolled: 10,
  sent: 8,
  delivered: 0,
  opened: 3,
  clicked: 0,
  replied: 2,
  positiveReplies: 1,
  bounced: 1,
  unsubscribed: 0,
  exhausted: 4,
};

describe('funnel rates', () => {
  it('divides by the enrollments reached, to 4 decimals, null with none', () => {
    expect(rate(1, 3)).toBe(0.3333);
    expect(rate(0, 0)).toBeNull();
  });

  it('keeps untracked engagement unknown (null), not zero', () => {
    const tracking = funnelTracking([counts]);
    expect(tracking).toEqual({ delivered: false, opened: true, clicked: false });
    expect(funnelRow(counts, tracking)).toMatchObject({
      delivered: null,
      opened: 3,
      clicked: null,
      replyRate: 0.25,
      positiveReplyRate: 0.125,
      bounceRate: 0.125,
      openRate: 0.375,
      clickRate: null,
    });
  });
});
