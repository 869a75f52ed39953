import { type Job, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOBS, type JobName, type JobPayload } from './queue-catalog.js';

/**
 * Creates a worker for one job name of the catalog. The payload is validated when
 * taken: a bad payload fails at once, without retry.
 */
export function createWorker<N extends JobName>(
  name: N,
  handler: (payload: JobPayload<N>, job: Job) => Promise<unknown>,
  opts: { connection: Redis; prefix: string } & Omit<WorkerOptions, 'connection' | 'prefix'>,
): Worker {
  const spec = JOBS[name];
  return new Worker(
    spec.queue,
    async (job) => {
      if (job.name !== name) throw new UnrecoverableError(`unexpected job name ${job.name} on ${spec.queue}`);
      const parsed = spec.schema.safeParse(job.data);
      if (!parsed.success)
        throw new UnrecoverableError(`invalid payload for ${name}: ${parsed.error.message}`);
      return handler(parsed.data as JobPayload<N>, job);
    },
    // Retention of finished jobs is the worker's when the catalog says so (see `keep`).
    { ...('keep' in spec ? spec.keep : {}), ...opts },
  );
}
