import { Queue } from 'bullmq';
import { type AlertDeliver, AlertDeliverSchema, JOBS, QUEUE } from './queue-catalog.js';
import { logQueueErrors } from './queue-errors.js';
import { type LayoutOrPrefix, queuePrefix } from './queue-layout.js';
import type { QueueLogger } from './queue-logger.js';
import type { RedisClient } from './redis-connection.js';

/**
 * The producer side of the `alerts` queue: one `alert.deliver` job per ops alert,
 * with the alert id as job id, so enqueuing it again (a lost-job sweep) is a no-op
 * while it is pending or retrying.
 */
export class AlertQueue {
  readonly queue: Queue<AlertDeliver>;

  /** `logger` takes the queue's errors (its Redis connection's, re-emitted). */
  constructor(connection: RedisClient, layout: LayoutOrPrefix, logger: QueueLogger) {
    this.queue = new Queue<AlertDeliver>(QUEUE.alerts, {
      connection,
      prefix: queuePrefix(layout, QUEUE.alerts),
    });
    logQueueErrors(this.queue, logger, { queue: QUEUE.alerts });
  }

  /** Enqueues the deliveries of these alerts, validated. */
  async enqueue(alertIds: string[]): Promise<void> {
    if (alertIds.length === 0) return;
    const spec = JOBS['alert.deliver'];
    await this.queue.addBulk(
      alertIds.map((alertId) => ({
        name: 'alert.deliver',
        data: AlertDeliverSchema.parse({ alertId }),
        opts: { ...spec.options, jobId: alertId },
      })),
    );
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
