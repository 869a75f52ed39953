import { touchKey } from '@touchbase/core';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOBS, QUEUE, type TouchSend, TouchSendSchema } from './queue-catalog.js';
import { touchJobId, touchKeyOfJobId } from './touch-job-id.js';

/** One touch to schedule: the enrollment, its step (and attempt, for a resend) and when it is due. */
export type ScheduledTouch = { enrollmentId: string; step: number; attempt?: number; dueAt: Date };

/** The job of one touch: an enrollment's step, and its attempt when it is a resend. */
export type TouchJobKey = { enrollmentId: string; step: number; attempt?: number };

const jobIdOf = (k: TouchJobKey) => touchJobId(touchKey(k.enrollmentId, k.step, k.attempt));

/**
 * The producer side of the `touches` queue: one delayed job per active enrollment,
 * with the deterministic id `{enrollmentId}-{step}` (`{enrollmentId}-{step}-{attempt}`
 * for a resend after a soft bounce), so adding it twice is a no-op.
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
        data: TouchSendSchema.parse({
          e: t.enrollmentId,
          s: t.step,
          ...((t.attempt ?? 1) > 1 ? { a: t.attempt } : {}),
        }),
        opts: {
          ...spec.options,
          // Left out of the stored options (BullMQ would write its default `"attempts":0`):
          // they must fit Redis's compact hash encoding; the worker keeps the retries.
          attempts: undefined,
          jobId: jobIdOf(t),
          delay: Math.max(0, t.dueAt.getTime() - now),
        },
      })),
    );
  }

  /**
   * Removes pending jobs. A job already taken by a sender stays (BullMQ cannot
   * remove a locked job); the sender's claim in PostgreSQL fences it instead.
   */
  async cancel(keys: TouchJobKey[]): Promise<void> {
    if (keys.length === 0) return;
    // BullMQ answers 1 whether or not it had the job, so there is no count to give.
    await Promise.all(keys.map((k) => this.queue.remove(jobIdOf(k)).catch(() => 0)));
  }

  /**
   * Which of these touches (by key) have a job really scheduled: waiting, delayed, active or
   * prioritized. A job hash alone is not enough: after a partial loss (a flush of
   * the delayed set, a failover) a hash can remain that no worker will ever pick
   * up, and a failed job (retries spent) is kept for Bull Board but will not run
   * again. Those stale entries are removed here and reported missing, so the
   * reconciler adds them anew.
   */
  async existing(touchKeys: string[]): Promise<Set<string>> {
    if (touchKeys.length === 0) return new Set();
    const jobIds = touchKeys.map(touchJobId);
    // Most pending touches are delayed: one ZSCORE each settles them in one round trip.
    const delayedKey = this.queue.toKey('delayed');
    const first = this.connection.pipeline();
    for (const id of jobIds) {
      first.zscore(delayedKey, id);
      first.exists(this.queue.toKey(id));
    }
    const replies = (await first.exec()) ?? [];
    const present = new Set<string>();
    const toInspect: string[] = [];
    jobIds.forEach((id, i) => {
      if (replies[2 * i]?.[1] !== null && replies[2 * i]?.[1] !== undefined) present.add(id);
      else if (replies[2 * i + 1]?.[1] === 1) toInspect.push(id);
    });
    for (const id of toInspect) {
      const state = await this.queue.getJobState(id);
      if (
        state === 'active' ||
        state === 'waiting' ||
        state === 'delayed' ||
        state === 'prioritized' ||
        state === 'waiting-children'
      ) {
        present.add(id);
      } else {
        await this.dropStale(id);
      }
    }
    return new Set([...present].map(touchKeyOfJobId));
  }

  /** Deletes a job that will never run (failed, completed, or orphaned by a partial loss). */
  private async dropStale(id: string): Promise<void> {
    const removed = await this.queue.remove(id).catch(() => 0);
    // remove() refuses a job it cannot find in any state; delete the orphan hash itself.
    if (removed !== 1) await this.connection.del(this.queue.toKey(id), `${this.queue.toKey(id)}:logs`);
  }

  /** The job of one touch key, for inspection (Bull Board shows the same id). */
  job(touchKey: string) {
    return this.queue.getJob(touchJobId(touchKey));
  }

  /** When the job of one touch key is due, if it is delayed. */
  async delayedUntil(touchKey: string): Promise<number | null> {
    const score = await this.connection.zscore(this.queue.toKey('delayed'), touchJobId(touchKey));
    // BullMQ scores a delayed job with its due time times 0x1000 plus a counter.
    return score === null ? null : Math.floor(Number(score) / 0x1000);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
