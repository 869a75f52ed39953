import type { Runtime } from '@touchbase/runtime';
import { buildDomainHealth } from './app.js';

/** Starts domain-health on a runtime and registers its shutdown. */
export async function startDomainHealth(rt: Runtime) {
  const dh = await buildDomainHealth({
    pool: rt.db.pool,
    logger: rt.logger.child({ service: 'domain-health' }),
    metrics: rt.metrics,
    threshold: rt.config.DOMAIN_HEALTH_BOUNCE_THRESHOLD,
    minSends: rt.config.DOMAIN_HEALTH_MIN_SENDS,
    windowDays: rt.config.DOMAIN_HEALTH_WINDOW_DAYS,
    connection: rt.redis.worker,
    producer: rt.redis.producer,
    prefix: rt.config.REDIS_PREFIX,
    everyMs: rt.config.DOMAIN_HEALTH_INTERVAL_MS,
  });
  rt.shutdown.addFirst('domain-health worker', async () => {
    await dh.worker.close();
    await dh.queue.close();
  });
  return dh;
}
