import { Queue } from 'bullmq';
import { JOBS, QUEUE, type ReactivationDue, ReactivationDueSchema } from './queue-catalog.js';
import { logQueueErrors } from './queue-errors.js';
import { type LayoutOrPrefix, queuePrefix } from './queue-layout.js';
import type { QueueLogger } from './queue-logger.js';
import type { RedisClient } from './redis-connection.js';

/**
 * The producer side of the `reactivations` queue: one delayed `reactivation.due` job
 * per scheduled reactivation, its id the reactivation's, due at the row's time. The
 * row in PostgreSQL is the truth; the reconciler re-creates a job Redis lost, and
 * adding one that exists is a no-op.
 */
export class ReactivationQueue {
  readonly queue: Queue<ReactivationDue>;

  /** `logger` takes the queue's errors (its Redis connection's, re-emitted). */
  constructor(connection: RedisClient, layout: LayoutOrPrefix, logger: QueueLogger) {
    this.queue = new Queue<ReactivationDue>(QUEUE.reactivations, {
      connection,
      prefix: queuePrefix(layout, QUEUE.reactivations),
    });
    logQueueErrors(this.queue, logger, { queue: QUEUE.reactivations });
  }

  /** Adds the delayed jobs of these reactivations (due now when their time has passed). */
  async schedule(items: { id: string; dueAt: Date }[], nowMs = Date.now()): Promise<void> {
    if (items.length === 0) return;
    const spec = JOBS['reactivation.due'];
    await this.queue.addBulk(
      items.map((r) => ({
        name: 'reactivation.due',
        data: ReactivationDueSchema.parse({ reactivationId: r.id }),
        opts: { ...spec.options, jobId: r.id, delay: Math.max(0, r.dueAt.getTime() - nowMs) },
      })),
    );
  }

  /** Removes the pending jobs of reactivations that will not happen (a won deal). */
  async cancel(ids: string[]): Promise<void> {
    for (const id of ids) await this.queue.remove(id);
  }

  /** Which of these reactivations have a job in Redis. */
  async existing(ids: string[]): Promise<Set<string>> {
    const jobs = await Promise.all(ids.map((id) => this.queue.getJob(id)));
    return new Set(jobs.flatMap((j) => (j?.id ? [j.id] : [])));
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
