import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { keepJobScheduler } from './job-scheduler-keeper.js';
import { JOBS, QUEUE } from './queue-catalog.js';
import { logQueueErrors } from './queue-errors.js';
import { type LayoutOrPrefix, queuePrefix } from './queue-layout.js';
import type { QueueLogger } from './queue-logger.js';
import type { RedisClient } from './redis-connection.js';

/**
 * The producer side of the `domain-health` queue: the job scheduler (fixed id
 * `domain-health`) that ticks the guard once per interval across all replicas,
 * and the manual runs an operator asks for, with ids `manual-{ms}-{random}`.
 */
export class DomainHealthQueue {
  readonly queue: Queue;

  /** `logger` takes the queue's errors (its Redis connection's, re-emitted). */
  constructor(connection: RedisClient, layout: LayoutOrPrefix, logger: QueueLogger) {
    this.queue = new Queue(QUEUE.domainHealth, {
      connection,
      prefix: queuePrefix(layout, QUEUE.domainHealth),
    });
    logQueueErrors(this.queue, logger, { queue: QUEUE.domainHealth });
  }

  /**
   * Keeps the guard's job scheduler ticking every `everyMs`, re-creating it when
   * Redis lost it (see `keepJobScheduler`).
   * @returns a function that stops the keeper.
   */
  keepTicking(everyMs: number, logger: QueueLogger): Promise<() => void> {
    return keepJobScheduler(
      this.queue,
      {
        id: 'domain-health',
        everyMs,
        jobName: 'domain-health.tick',
        opts: JOBS['domain-health.tick'].options,
      },
      logger,
    );
  }

  /**
   * Enqueues one manual run of the tick, tried once (the operator asks again).
   * @returns its job id, to follow it with {@link DomainHealthQueue.run}.
   */
  async runNow(now = Date.now()): Promise<string> {
    const jobId = `manual-${now}-${randomUUID().slice(0, 8)}`;
    await this.queue.add(
      'domain-health.tick',
      {},
      { ...JOBS['domain-health.tick'].options, attempts: 1, jobId },
    );
    return jobId;
  }

  /** The job of a run, scheduled or manual, while BullMQ keeps it. */
  run(jobId: string) {
    return this.queue.getJob(jobId);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
