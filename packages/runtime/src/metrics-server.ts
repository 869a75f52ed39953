import { registerHealthRoutes } from '@touchbase/telemetry';
import Fastify, { type FastifyInstance } from 'fastify';
import { listenNamed } from './port-in-use.js';
import type { Runtime } from './runtime.js';

/**
 * A small HTTP server with `/metrics`, `/healthz` and `/readyz` (PostgreSQL and
 * Redis answer) for a service run alone: the sender, the scheduler and
 * domain-health are workers without an HTTP server of their own, so without it
 * their prom-client metrics could not be scraped. Listens on
 * `METRICS_HOST:METRICS_PORT`; the caller decides whether to start it.
 */
export async function startMetricsServer(
  rt: Pick<Runtime, 'config' | 'db' | 'redis' | 'metrics' | 'logger'>,
  service: string,
  port: number,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await registerHealthRoutes(app, {
    metrics: rt.metrics,
    checks: [
      { name: 'postgres', check: () => rt.db.pool.query('SELECT 1') },
      { name: 'redis', check: () => rt.redis.producer.ping() },
    ],
  });
  const host = rt.config.METRICS_HOST;
  await listenNamed('METRICS_PORT', { host, port }, () => app.listen({ host, port }));
  const address = app.server.address();
  rt.logger.info(
    { service, port: typeof address === 'object' && address ? address.port : port },
    'Metrics server listening',
  );
  return app;
}
