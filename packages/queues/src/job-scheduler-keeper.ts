import type { JobsOptions, Queue } from 'bullmq';
import type { QueueLogger } from './queue-logger.js';

/** What a kept scheduler runs: one job name with empty data, every `everyMs`. */
export type KeptScheduler = { id: string; everyMs: number; jobName: string; opts: JobsOptions };

/**
 * Keeps a BullMQ job scheduler alive. The scheduler and its next job live only in
 * Redis: a flush, a failover to an empty replica or an operator's `DEL` would stop
 * the reconciler (or the domain-health tick) for good, and with it the repair of
 * everything else Redis lost. So each process re-creates it when it is missing or
 * its next run is long overdue. `upsertJobScheduler` is idempotent and the id is
 * fixed, so replicas doing this at once still give one run per tick. Each repair,
 * and each check Redis fails, is logged with the scheduler id.
 * @returns a function that stops the keeper.
 */
export async function keepJobScheduler(
  queue: Queue,
  spec: KeptScheduler,
  logger: QueueLogger,
): Promise<() => void> {
  const upsert = () =>
    queue.upsertJobScheduler(
      spec.id,
      { every: spec.everyMs },
      { name: spec.jobName, data: {}, opts: spec.opts },
    );
  await upsert();
  const checkEveryMs = Math.min(spec.everyMs, 30_000);
  const timer = setInterval(() => {
    void (async () => {
      const current = await queue.getJobScheduler(spec.id);
      const overdue =
        current?.next !== undefined && current.next < Date.now() - 2 * spec.everyMs - checkEveryMs;
      if (current && !overdue) return;
      // An overdue scheduler whose next job was lost is re-created from scratch.
      if (overdue) await queue.removeJobScheduler(spec.id);
      await upsert();
      logger.warn(
        { scheduler: spec.id, reason: current ? 'overdue' : 'missing' },
        'Job scheduler re-created',
      );
    })().catch((err: unknown) => {
      // Redis is away, most likely; the next check tries again.
      logger.warn({ scheduler: spec.id, err: (err as Error).message }, 'Job scheduler check failed');
    });
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
