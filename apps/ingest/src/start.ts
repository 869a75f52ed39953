import type { Runtime } from '@touchbase/runtime';
import type { FastifyInstance } from 'fastify';
import { buildIngest } from './app.js';

/** Starts ingest on a runtime: builds, listens, and stops intake first on shutdown. */
export async function startIngest(rt: Runtime): Promise<FastifyInstance> {
  const app = await buildIngest({
    events: rt.repos.events,
    touchQueue: rt.touchQueue,
    logger: rt.logger.child({ service: 'ingest' }),
    metrics: rt.metrics,
    sandboxSecret: rt.config.SANDBOX_WEBHOOK_SECRET,
    checks: [
      { name: 'postgres', check: () => rt.db.pool.query('SELECT 1') },
      { name: 'redis', check: () => rt.redis.producer.ping() },
    ],
  });
  await app.listen({ host: rt.config.INGEST_HOST, port: rt.config.INGEST_PORT });
  rt.shutdown.addFirst('ingest http', () => app.close());
  return app;
}
