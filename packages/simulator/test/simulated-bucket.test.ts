import { describe, expect, it } from 'vitest';
import { SimulatedBucket } from '../src/simulated-bucket.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('SimulatedBucket (the sender token bucket on a virtual clock)', () => {
  const limits = { perMinute: 10, perHour: 100, perDay: 3, minSpacingMs: 0 };

  it('grants up to the day cap, then tells a waiter when its slot comes', () => {
    const b = new SimulatedBucket(limits, 0, () => 0);
    expect(b.take(1, 0).granted).toBe(true);
    expect(b.take(2, 1000).granted).toBe(true);
    expect(b.take(3, 2000).granted).toBe(true);
    expect(b.take(4, 3000)).toEqual({ granted: false, waitMs: DAY - 3000 });
    // The next waiter queues after the first: one slot later, not at the same instant.
    expect(b.take(5, 3000)).toEqual({ granted: false, waitMs: DAY + 1000 - 3000 });
  });

  it('grants a waiter that comes back at its hint, and keeps it waiting when early', () => {
    const b = new SimulatedBucket(limits, 0, () => 0);
    for (let i = 0; i < 3; i++) b.take(i, i);
    const refused = b.take(9, 10);
    expect(refused.granted).toBe(false);
    const wait = (refused as { waitMs: number }).waitMs;
    expect(b.take(9, 10 + wait - 1)).toEqual({ granted: false, waitMs: 1 });
    expect(b.take(9, 10 + wait).granted).toBe(true);
  });

  it('leaves no hint with queue: false (a pool trying its next member)', () => {
    const b = new SimulatedBucket(limits, 0, () => 0);
    for (let i = 0; i < 3; i++) b.take(i, i);
    expect(b.take(7, 10, false)).toEqual({ granted: false, waitMs: 0 });
    expect(b.usedToday(10)).toBe(3);
  });

  it('holds the minimum spacing between grants', () => {
    const b = new SimulatedBucket({ ...limits, perDay: 100, minSpacingMs: 60_000 }, 0, () => 0);
    expect(b.take(1, 0).granted).toBe(true);
    expect(b.take(2, 30_000)).toEqual({ granted: false, waitMs: 30_000 });
    expect(b.take(2, 60_000).granted).toBe(true);
  });
});
