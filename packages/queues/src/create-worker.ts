import { DelayedError, type Job, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import { JOBS, type JobName, type JobPayload, type RetryPolicy } from './queue-catalog.js';
import { type LayoutOrPrefix, queuePrefix, toLayout } from './queue-layout.js';
import type { QueueLogger } from './queue-logger.js';
import type { RedisClient } from './redis-connection.js';

/**
 * Creates a worker for one job name of the catalog. The payload is validated when
 * taken: a bad payload fails at once, without retry. A job whose catalog entry has
 * a `retry` policy is retried by the worker (see `retryLater`).
 *
 * Every worker logs the same way, with the queue, job name and job id: a worker
 * error (Redis away), a job that stalled (its worker died or blocked the event
 * loop past the lock), each failure retried, and a job that failed for good.
 */
export function createWorker<N extends JobName>(
  name: N,
  handler: (payload: JobPayload<N>, job: Job) => Promise<unknown>,
  opts: {
    connection: RedisClient;
    /** REDIS_PREFIX, or the layout that gives this queue its (hash-tagged) prefix. */
    prefix: LayoutOrPrefix;
    /** Which partition of the `touches` queue this worker takes (default 0). */
    partition?: number;
    logger: QueueLogger;
    /** Told of each failure the worker retries, after it is logged (the last one is BullMQ's `failed` event). */
    onRetry?: (job: Job, err: unknown, delayMs: number) => void;
    /** Overrides the catalog's retry policy (tests, tuning). */
    retry?: RetryPolicy;
  } & Omit<WorkerOptions, 'connection' | 'prefix'>,
): Worker {
  const { logger, onRetry, retry: retryOverride, prefix, partition, ...workerOpts } = opts;
  const spec = JOBS[name];
  const retry: RetryPolicy | undefined = retryOverride ?? ('retry' in spec ? spec.retry : undefined);
  const ids = { queue: spec.queue, jobName: name, ...(partition !== undefined ? { partition } : {}) };
  const retried = (job: Job, err: unknown, delayMs: number) => {
    logger.warn(
      { ...ids, jobId: job.id, retries: retriesOf(job), delayMs, err: (err as Error).message },
      'Job failed; retried later with the same id',
    );
    onRetry?.(job, err, delayMs);
  };
  const worker = new Worker(
    spec.queue,
    async (job) => {
      if (job.name !== name) throw new UnrecoverableError(`unexpected job name ${job.name} on ${spec.queue}`);
      // A hand-written check where the catalog has one (the touches); the schema otherwise, and for its message.
      const quick = 'valid' in spec && spec.valid(job.data);
      const parsed = quick ? { success: true as const, data: job.data } : spec.schema.safeParse(job.data);
      if (!parsed.success)
        throw new UnrecoverableError(`invalid payload for ${name}: ${parsed.error.message}`);
      try {
        return await handler(parsed.data as JobPayload<N>, job);
      } catch (err) {
        if (!retry || err instanceof DelayedError || err instanceof UnrecoverableError) throw err;
        return retryLater(job, retry, err, retried);
      }
    },
    // Retention of finished jobs is the worker's when the catalog says so (see `keep`).
    {
      ...('keep' in spec ? spec.keep : {}),
      // A failover drops the connection to the failed master for a second or two; BullMQ
      // waits runRetryDelay (15 s by default) after a connection error before asking
      // again, which would leave a cluster's partition idle long after its replica took over.
      ...(toLayout(prefix).cluster ? { runRetryDelay: 1_000 } : {}),
      ...workerOpts,
      prefix: queuePrefix(prefix, spec.queue, partition),
    },
  );
  worker.on('error', (err) => logger.error({ ...ids, err: err.message }, 'Worker error'));
  worker.on('stalled', (jobId) => logger.warn({ ...ids, jobId }, 'Job stalled; run again'));
  worker.on('failed', (job, err) => {
    const details = {
      ...ids,
      jobId: job?.id,
      attemptsMade: job?.attemptsMade,
      retries: job ? retriesOf(job) : 0,
      err: err.message,
    };
    // BullMQ emits 'failed' for every failed attempt of a job it retries itself (the
    // catalog's `attempts`); only the last one, or an unrecoverable one, is final.
    const final = !job || err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (final) logger.error(details, 'Job failed for good');
    else logger.warn(details, 'Job attempt failed; retried by BullMQ');
  });
  return worker;
}

/** Retries already spent by a job under a worker-kept policy. */
export function retriesOf(job: Job): number {
  const r = (job.data as { r?: unknown }).r;
  return typeof r === 'number' ? r : 0;
}

/**
 * Sends a failed job back to delayed with exponential backoff and its retry count
 * in the payload (same id, so a touch keeps its idempotency key); the last allowed
 * failure rethrows, and BullMQ marks the job failed for Bull Board and the reconciler.
 */
async function retryLater(
  job: Job,
  retry: RetryPolicy,
  err: unknown,
  onRetry?: (job: Job, err: unknown, delayMs: number) => void,
): Promise<never> {
  const spent = retriesOf(job) + 1;
  if (spent >= retry.attempts) throw err;
  const full = retry.delayMs * 2 ** (spent - 1);
  const delay = Math.round(full * (1 - retry.jitter * Math.random()));
  await job.updateData({ ...(job.data as object), r: spent });
  await job.moveToDelayed(Date.now() + delay, job.token);
  onRetry?.(job, err, delay);
  throw new DelayedError();
}
