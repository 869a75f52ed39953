import { DomainHealthQueue, SchedulerQueue } from '@touchbase/queues';
import type { Runtime } from '@touchbase/runtime';
import type { FastifyInstance } from 'fastify';
import { buildApi } from './app.js';

/** Starts the API on a runtime: builds, listens, and stops intake first on shutdown. */
export async function startApi(rt: Runtime, opts: { pacingMs?: number } = {}): Promise<FastifyInstance> {
  // Shown in Bull Board; the domain-health one also takes the operator's manual runs.
  const schedulerQueue = new SchedulerQueue(rt.redis.producer, rt.config.REDIS_PREFIX);
  const domainHealthQueue = new DomainHealthQueue(rt.redis.producer, rt.config.REDIS_PREFIX);
  const app = await buildApi({
    repos: rt.repos,
    touchQueue: rt.touchQueue,
    domainHealthQueue,
    alertQueue: rt.alertQueue,
    enroll: {
      repos: rt.repos,
      touchQueue: rt.touchQueue,
      clock: () => new Date(),
      timeScale: rt.config.TIME_SCALE,
      pacingMs: opts.pacingMs ?? rt.config.SCHEDULER_PACING_MS,
    },
    providerNames: rt.providers.names(),
    logger: rt.logger.child({ service: 'api' }),
    metrics: rt.metrics,
    adminToken: rt.config.ADMIN_TOKEN,
    queues: [rt.touchQueue.queue, schedulerQueue.queue, domainHealthQueue.queue, rt.alertQueue.queue],
    checks: [
      { name: 'postgres', check: () => rt.db.pool.query('SELECT 1') },
      { name: 'redis', check: () => rt.redis.producer.ping() },
    ],
  });
  if (!rt.config.ADMIN_TOKEN)
    rt.logger.warn('ADMIN_TOKEN is not set: the API and Bull Board are open to anyone who can reach them');
  await app.listen({ host: rt.config.API_HOST, port: rt.config.API_PORT });
  rt.shutdown.addFirst('api http', async () => {
    await app.close();
    await Promise.all([schedulerQueue.close(), domainHealthQueue.close()]);
  });
  return app;
}
