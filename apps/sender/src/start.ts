import type { Runtime } from '@touchbase/runtime';
import type { Worker } from 'bullmq';
import { buildSender } from './app.js';

/** Starts the sender on a runtime and registers its shutdown (drain the worker first). */
export function startSender(rt: Runtime): Worker {
  const worker = buildSender({
    repos: rt.repos,
    touchQueue: rt.touchQueue,
    providers: rt.providers,
    connection: rt.redis.worker,
    prefix: rt.config.REDIS_PREFIX,
    logger: rt.logger.child({ service: 'sender' }),
    metrics: rt.metrics,
    concurrency: rt.config.SENDER_CONCURRENCY,
    timeScale: rt.config.TIME_SCALE,
    lockDurationMs: rt.config.SENDER_LOCK_DURATION_MS,
    stalledIntervalMs: rt.config.SENDER_STALLED_INTERVAL_MS,
  });
  rt.shutdown.addFirst('sender worker', () => worker.close());
  return worker;
}
