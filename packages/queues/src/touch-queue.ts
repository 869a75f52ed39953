import { touchKey } from '@touchbase/core';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOBS, QUEUE, type TouchSend, TouchSendSchema } from './queue-catalog.js';

/** One touch to schedule: the enrollment, its step and when it is due. */
export type ScheduledTouch = { enrollmentId: string; step: number; dueAt: Date };

/**
 * The producer side of the `touches` queue: one delayed job per active enrollment,
 * with the deterministic id `{enrollmentId}-{step}`, so adding it twice is a no-op.
 */
export class TouchQueue {
  readonly queue: Queue<TouchSend>;

  constructor(
    private readonly connection: Redis,
    prefix: string,
  ) {
    this.queue = new Queue<TouchSend>(QUEUE.touches, { connection, prefix });
  }

  /** Enqueues the touches, validated, in one round trip per batch. */
  async schedule(touches: ScheduledTouch[], now = Date.now()): Promise<void> {
    if (touches.length === 0) return;
    const spec = JOBS['touch.send'];
    await this.queue.addBulk(
      touches.map((t) => ({
        name: 'touch.send',
        data: TouchSendSchema.parse({ e: t.enrollmentId, s: t.step }),
        opts: {
          ...spec.options,
          jobId: touchKey(t.enrollmentId, t.step),
          delay: Math.max(0, t.dueAt.getTime() - now),
        },
      })),
    );
  }

  /**
   * Removes pending jobs. A job already taken by a sender stays (BullMQ cannot
   * remove a locked job); the sender's claim in PostgreSQL fences it instead.
   */
  async cancel(keys: { enrollmentId: string; step: number }[]): Promise<number> {
    if (keys.length === 0) return 0;
    const results = await Promise.all(
      keys.map((k) => this.queue.remove(touchKey(k.enrollmentId, k.step)).catch(() => 0)),
    );
    return results.filter((r) => r === 1).length;
  }

  /** Which of these job ids exist in Redis (pending, active or delayed). */
  async existing(jobIds: string[]): Promise<Set<string>> {
    if (jobIds.length === 0) return new Set();
    const pipeline = this.connection.pipeline();
    for (const id of jobIds) pipeline.exists(this.queue.toKey(id));
    const replies = (await pipeline.exec()) ?? [];
    return new Set(jobIds.filter((_, i) => replies[i]?.[1] === 1));
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
