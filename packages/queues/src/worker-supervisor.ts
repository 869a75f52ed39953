import type { Queue, Worker } from 'bullmq';
import { type LayoutOrPrefix, toLayout } from './queue-layout.js';
import type { QueueLogger } from './queue-logger.js';

/** A worker as a service holds it: the one taking jobs now, and how to stop it. */
export type RunningWorker = { readonly current: Worker; close(): Promise<void> };

/** Options of {@link WorkerSupervisor}. */
export type SupervisionOptions = { stallMs?: number; checkEveryMs?: number; ids?: object };

/**
 * Starts the worker `make` builds for `queue`: supervised on Redis Cluster (see
 * {@link WorkerSupervisor}: one whose fetch loop never came back from a failover
 * is replaced), as it is on one Redis, where that was never seen.
 */
export function startWorker(
  make: () => Worker,
  queue: Queue,
  layout: LayoutOrPrefix,
  logger: QueueLogger,
  opts: SupervisionOptions = {},
): RunningWorker {
  if (toLayout(layout).cluster) return new WorkerSupervisor(make, queue, logger, opts);
  const worker = make();
  return { current: worker, close: () => worker.close() };
}

/**
 * Keeps a BullMQ worker taking jobs on Redis Cluster. After a master is killed,
 * now and then a worker's fetch loop never comes back, with no error (BullMQ 6.7 on
 * an ioredis 5 `Cluster`, seen in about one kill -9 of three in
 * test/faults/redis-cluster.e2e.test.ts): its queue fills while it idles. Every
 * `checkEveryMs` the supervisor looks whether the queue has work that is due (a job
 * waiting, or a delayed one past its time by more than `stallMs`) while the worker
 * has started, finished or failed no job for `stallMs`; then it closes that worker
 * (without waiting: its hung call may never settle; its jobs in progress run out
 * their lock and are taken again, fenced by the claim) and starts a new one.
 */
export class WorkerSupervisor implements RunningWorker {
  private worker: Worker;
  private lastProgress = Date.now();
  private readonly timer: NodeJS.Timeout;
  private checking = false;
  private closed = false;
  /** How many times the worker was replaced. */
  restarts = 0;

  constructor(
    private readonly make: () => Worker,
    private readonly queue: Queue,
    private readonly logger: QueueLogger,
    private readonly opts: SupervisionOptions = {},
  ) {
    this.worker = this.watch(make());
    this.timer = setInterval(() => void this.check(), opts.checkEveryMs ?? 5_000);
    this.timer.unref();
  }

  /** The worker now running. */
  get current(): Worker {
    return this.worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.worker.close();
  }

  private watch(worker: Worker): Worker {
    const progress = () => {
      this.lastProgress = Date.now();
    };
    worker.on('active', progress);
    worker.on('completed', progress);
    worker.on('failed', progress);
    this.lastProgress = Date.now();
    return worker;
  }

  private async check(): Promise<void> {
    if (this.checking || this.closed) return;
    this.checking = true;
    try {
      const stallMs = this.opts.stallMs ?? 20_000;
      if (Date.now() - this.lastProgress < stallMs) return;
      const counts = await this.queue.getJobCounts('waiting', 'prioritized');
      let due = (counts.waiting ?? 0) + (counts.prioritized ?? 0) > 0;
      if (!due) {
        const [first] = await this.queue.getDelayed(0, 0);
        due = first !== undefined && first.timestamp + (first.delay ?? 0) < Date.now() - stallMs;
      }
      if (!due || this.closed) return;
      const stalled = this.worker;
      this.restarts++;
      this.logger.warn(
        {
          ...this.opts.ids,
          queue: this.queue.name,
          idleMs: Date.now() - this.lastProgress,
          restarts: this.restarts,
        },
        'Worker idle while its queue has due jobs; replaced',
      );
      this.worker = this.watch(this.make());
      stalled.close().catch((err: unknown) => {
        this.logger.warn({ ...this.opts.ids, err: (err as Error).message }, 'Stalled worker failed to close');
      });
    } catch (err) {
      // Redis is away (a failover under way, most likely): the next check asks again.
      this.logger.warn({ ...this.opts.ids, err: (err as Error).message }, 'Worker supervision check failed');
    } finally {
      this.checking = false;
    }
  }
}
