import { QUEUE } from '@touchbase/queues';
import { listenNamed, type Runtime } from '@touchbase/runtime';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { buildApi } from './app.js';

/** Starts the API on a runtime: builds, listens, and stops intake first on shutdown. */
export async function startApi(rt: Runtime, opts: { pacingMs?: number } = {}): Promise<FastifyInstance> {
  const extra = [QUEUE.scheduler, QUEUE.domainHealth, QUEUE.alerts].map(
    (name) => new Queue(name, { connection: rt.redis.producer, prefix: rt.config.REDIS_PREFIX }),
  );
  const app = await buildApi({
    repos: rt.repos,
    touchQueue: rt.touchQueue,
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
    queues: [rt.touchQueue.queue, ...extra],
    checks: [
      { name: 'postgres', check: () => rt.db.pool.query('SELECT 1') },
      { name: 'redis', check: () => rt.redis.producer.ping() },
    ],
  });
  if (!rt.config.ADMIN_TOKEN)
    rt.logger.warn('ADMIN_TOKEN is not set: the API and Bull Board are open to anyone who can reach them');
  const where = { host: rt.config.API_HOST, port: rt.config.API_PORT };
  await listenNamed('API_PORT', where, () => app.listen(where));
  rt.shutdown.addFirst('api http', async () => {
    await app.close();
    await Promise.all(extra.map((q) => q.close()));
  });
  return app;
}
