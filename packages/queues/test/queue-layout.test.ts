import { describe, expect, it } from 'vitest';
import { hashSlot, queuePrefix, touchPartitionOf, touchPartitionTag } from '../src/index.js';

describe('queue layout', () => {
  it('computes Redis Cluster hash slots as Redis does (CLUSTER KEYSLOT)', () => {
    expect(hashSlot('somekey')).toBe(11058);
    expect(hashSlot('foo')).toBe(12182);
    expect(hashSlot('123456789')).toBe(0x31c3 % 16384);
  });

  it('one Redis, one partition: every queue keeps REDIS_PREFIX, the keys of every earlier release', () => {
    expect(queuePrefix('touchbase', 'touches')).toBe('touchbase');
    const single = { prefix: 'touchbase', cluster: false, touchPartitions: 1 };
    expect(queuePrefix(single, 'touches')).toBe('touchbase');
    expect(queuePrefix(single, 'scheduler')).toBe('touchbase');
  });

  it('on a cluster each queue and touch partition is hash-tagged, the partitions on distinct runs of slots', () => {
    const layout = { prefix: 'touchbase', cluster: true, touchPartitions: 3 };
    expect(queuePrefix(layout, 'scheduler')).toBe('touchbase:{scheduler}');
    expect(queuePrefix(layout, 'alerts')).toBe('touchbase:{alerts}');
    for (const n of [1, 2, 3, 6, 12]) {
      for (let i = 0; i < n; i++) {
        const slot = hashSlot(touchPartitionTag(i, n));
        expect(slot).toBeGreaterThanOrEqual(Math.floor((i * 16384) / n));
        expect(slot).toBeLessThan(Math.floor(((i + 1) * 16384) / n));
      }
    }
    expect(queuePrefix(layout, 'touches', 2)).toBe(`touchbase:{${touchPartitionTag(2, 3)}}`);
  });

  it('an enrollment always goes to the same partition, and the partitions share the enrollments', () => {
    const ids = Array.from(
      { length: 3000 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    expect(touchPartitionOf(ids[0]!, 4)).toBe(touchPartitionOf(ids[0]!.toUpperCase(), 4));
    expect(touchPartitionOf(ids[0]!, 1)).toBe(0);
    const counts = [0, 0, 0, 0];
    for (const id of ids) counts[touchPartitionOf(id, 4)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(600);
  });
});
