import type { Runtime } from '@touchbase/runtime';
import { buildScheduler } from './app.js';

/** Starts the scheduler on a runtime and registers its shutdown. */
export async function startScheduler(rt: Runtime) {
  const scheduler = await buildScheduler({
    enrollments: rt.repos.enrollments,
    pauses: rt.repos.events,
    touchQueue: rt.touchQueue,
    connection: rt.redis.worker,
    producer: rt.redis.producer,
    prefix: rt.queueLayout,
    logger: rt.logger.child({ service: 'scheduler' }),
    metrics: rt.metrics,
    reconcileEveryMs: rt.config.SCHEDULER_RECONCILE_INTERVAL_MS,
    reactivations: { repo: rt.repos.reactivations, queue: rt.reactivationQueue },
    migrations: {
      repos: rt.repos,
      touchQueue: rt.touchQueue,
      logger: rt.logger.child({ service: 'scheduler' }),
      timeScale: rt.config.TIME_SCALE,
      doNotContact: rt.doNotContact,
    },
  });
  rt.shutdown.addFirst('scheduler worker', () => scheduler.close());
  return scheduler;
}
