import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type AlertDeliver, AlertDeliverSchema, JOBS, QUEUE } from './queue-catalog.js';

/**
 * The producer side of the `alerts` queue: one `alert.deliver` job per ops alert,
 * with the alert id as job id, so enqueuing it again (a lost-job sweep) is a no-op
 * while it is pending or retrying.
 */
export class AlertQueue {
  readonly queue: Queue<AlertDeliver>;

  constructor(connection: Redis, prefix: string) {
    this.queue = new Queue<AlertDeliver>(QUEUE.alerts, { connection, prefix });
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
