import { crc32 } from 'node:zlib';
import type { QueueName } from './queue-catalog.js';

/**
 * Where the queues' keys live: BullMQ writes every key of a queue under
 * `{prefix}:{queue name}:`, and its scripts touch several of them at once, so on
 * Redis Cluster all of one queue must hash to one slot. The layout gives each
 * queue a BullMQ prefix of its own with a hash tag (`touchbase:{touches-0}`), so a
 * queue stays in one slot while different queues, and the partitions of the
 * `touches` queue, land on different slots and so on different shards.
 *
 * On one Redis with one touch partition (the default) the prefix is REDIS_PREFIX
 * as before, and the keys are those of every earlier release.
 */
export type QueueLayout = {
  /** REDIS_PREFIX. */
  prefix: string;
  /** Redis Cluster (REDIS_CLUSTER_NODES set): every queue is hash-tagged. */
  cluster: boolean;
  /** TOUCH_QUEUE_PARTITIONS: how many `touches` queues the touches are split into. */
  touchPartitions: number;
};

/** A layout of one Redis and one touch partition: the prefix as is. */
export const singleRedis = (prefix: string): QueueLayout => ({ prefix, cluster: false, touchPartitions: 1 });

/** A layout, or a bare prefix for {@link singleRedis}. */
export type LayoutOrPrefix = QueueLayout | string;

export const toLayout = (l: LayoutOrPrefix): QueueLayout => (typeof l === 'string' ? singleRedis(l) : l);

const SLOTS = 16_384;

/**
 * The BullMQ prefix of a queue (and of one partition of `touches`). Hash-tagged on
 * a cluster, or when the touches are partitioned (so the same keys serve a later
 * move to a cluster). The tag of partition `i` of `n` is `touches-i`, or
 * `touches-i-k` with the least `k` that puts it in the i-th n-th of the slot
 * space: `redis-cli --cluster create` gives each master an equal run of slots,
 * so n partitions, n a multiple of the masters, spread evenly over them.
 */
export function queuePrefix(layout: LayoutOrPrefix, queue: QueueName, partition = 0): string {
  const l = toLayout(layout);
  if (queue === 'touches') {
    if (!l.cluster && l.touchPartitions === 1) return l.prefix;
    return `${l.prefix}:{${touchPartitionTag(partition, l.touchPartitions)}}`;
  }
  return l.cluster ? `${l.prefix}:{${queue}}` : l.prefix;
}

/** The hash tag of partition `i` of `n` (see {@link queuePrefix}). */
export function touchPartitionTag(i: number, n: number): string {
  const from = Math.floor((i * SLOTS) / n);
  const to = Math.floor(((i + 1) * SLOTS) / n);
  for (let k = 0; k < 100_000; k++) {
    const tag = k === 0 ? `touches-${i}` : `touches-${i}-${k}`;
    const slot = hashSlot(tag);
    if (slot >= from && slot < to) return tag;
  }
  // Unreachable: CRC16 covers every run of slots long before 100,000 tries.
  throw new Error(`no hash tag for touch partition ${i} of ${n}`);
}

/** The partition of an enrollment's touches: a CRC-32 of its id, so every step of it goes to the same queue. */
export function touchPartitionOf(enrollmentId: string, partitions: number): number {
  if (partitions <= 1) return 0;
  return crc32(enrollmentId.toLowerCase()) % partitions;
}

/**
 * The Redis Cluster hash slot of a key without braces: CRC-16/XMODEM of its bytes
 * modulo 16384, as the Redis Cluster specification defines it.
 */
export function hashSlot(key: string): number {
  let crc = 0;
  for (const byte of Buffer.from(key)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % SLOTS;
}
