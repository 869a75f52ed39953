import type { EnrollmentRepository, ReactivationRepository } from '@touchbase/db';
import {
  createWorker,
  type LayoutOrPrefix,
  type ReactivationQueue,
  type RedisClient,
  type RunningWorker,
  SchedulerQueue,
  startWorker,
  type TouchQueue,
} from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import { type MigrateEnrollmentsDeps, resumeMigrations } from '@touchbase/use-cases';
import { type ReconcileDeps, reconcile } from './processors/reconcile.processor.js';
import { runReactivation } from './use-cases/run-reactivation.js';

export type SchedulerDeps = {
  enrollments: EnrollmentRepository;
  touchQueue: TouchQueue;
  connection: RedisClient;
  producer: RedisClient;
  /** The queue layout (REDIS_PREFIX, cluster, partitions), or a bare prefix for one Redis. */
  prefix: LayoutOrPrefix;
  logger: Logger;
  metrics: Metrics;
  reconcileEveryMs: number;
  clock?: () => Date;
  /** Out-of-office pauses to end when due (see `ReconcileDeps.pauses`). */
  pauses?: ReconcileDeps['pauses'];
  /** Reactivations: their due jobs are run here, and the reconciler re-creates lost ones from the rows. */
  reactivations?: { repo: ReactivationRepository; queue: ReactivationQueue };
  /** Version migrations a crash or restart left applying are resumed on each tick (in the background). */
  migrations?: MigrateEnrollmentsDeps;
};

/**
 * Builds the scheduler: a BullMQ job scheduler runs the reconciler every
 * `reconcileEveryMs`, once per tick across all replicas (the scheduler id is fixed).
 * On Redis Cluster its workers are supervised, as the sender's are (`startWorker`).
 */
export async function buildScheduler(deps: SchedulerDeps): Promise<{
  worker: RunningWorker;
  /** The worker of due reactivations (when reactivations are wired). */
  reactivator: RunningWorker | null;
  queue: SchedulerQueue;
  runNow(): Promise<{ checked: number; repaired: number }>;
  /** Stops the keeper and the workers (letting jobs in progress finish), then the queue. */
  close(): Promise<void>;
}> {
  const reconcileOnce = () =>
    reconcile({
      enrollments: deps.enrollments,
      touchQueue: deps.touchQueue,
      logger: deps.logger,
      metrics: deps.metrics,
      clock: deps.clock ?? (() => new Date()),
      ...(deps.pauses ? { pauses: deps.pauses } : {}),
      ...(deps.reactivations ? { reactivations: deps.reactivations } : {}),
    });
  const run = async () => {
    const result = await reconcileOnce();
    if (deps.migrations) {
      const resumed = await resumeMigrations(deps.migrations, { budgetMs: deps.reconcileEveryMs });
      if (resumed.length > 0) deps.logger.info({ migrations: resumed }, 'Applying migrations resumed');
    }
    return result;
  };
  const queue = new SchedulerQueue(deps.producer, deps.prefix, deps.logger);
  const stopKeeper = await queue.keepReconciling(deps.reconcileEveryMs, deps.logger);
  const worker = startWorker(
    () =>
      createWorker('schedule.reconcile', () => run(), {
        connection: deps.connection,
        prefix: deps.prefix,
        logger: deps.logger,
        concurrency: 1,
      }),
    queue.queue,
    deps.prefix,
    deps.logger,
  );
  const reactivations = deps.reactivations;
  const reactivator = reactivations
    ? startWorker(
        () =>
          createWorker(
            'reactivation.due',
            async (payload) =>
              (
                await runReactivation(
                  {
                    reactivations: reactivations.repo,
                    touchQueue: deps.touchQueue,
                    logger: deps.logger,
                    clock: deps.clock ?? (() => new Date()),
                  },
                  payload.reactivationId,
                )
              ).kind,
            { connection: deps.connection, prefix: deps.prefix, logger: deps.logger, concurrency: 4 },
          ),
        reactivations.queue.queue,
        deps.prefix,
        deps.logger,
      )
    : null;
  return {
    worker,
    reactivator,
    queue,
    runNow: run,
    async close() {
      // Not on the worker's 'closing': a supervisor closing a stalled worker must not stop the ticks.
      stopKeeper();
      await reactivator?.close();
      await worker.close();
      await queue.close();
    },
  };
}
