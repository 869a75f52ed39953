import { Queue } from 'bullmq';
import { keepJobScheduler } from './job-scheduler-keeper.js';
import { JOBS, QUEUE } from './queue-catalog.js';
import { logQueueErrors } from './queue-errors.js';
import { type LayoutOrPrefix, queuePrefix } from './queue-layout.js';
import type { QueueLogger } from './queue-logger.js';
import type { RedisClient } from './redis-connection.js';

/**
 * The producer side of the `scheduler` queue: the job scheduler (fixed id
 * `reconcile`) that runs `schedule.reconcile` once per tick across all replicas.
 */
export class SchedulerQueue {
  readonly queue: Queue;

  /** `logger` takes the queue's errors (its Redis connection's, re-emitted). */
  constructor(connection: RedisClient, layout: LayoutOrPrefix, logger: QueueLogger) {
    this.queue = new Queue(QUEUE.scheduler, { connection, prefix: queuePrefix(layout, QUEUE.scheduler) });
    logQueueErrors(this.queue, logger, { queue: QUEUE.scheduler });
  }

  /**
   * Keeps the reconciler's job scheduler running every `everyMs`, re-creating it
   * when Redis lost it (see `keepJobScheduler`).
   * @returns a function that stops the keeper.
   */
  keepReconciling(everyMs: number, logger: QueueLogger): Promise<() => void> {
    return keepJobScheduler(
      this.queue,
      { id: 'reconcile', everyMs, jobName: 'schedule.reconcile', opts: JOBS['schedule.reconcile'].options },
      logger,
    );
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
