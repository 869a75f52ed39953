import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** A readiness probe: resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = { name: string; check: () => Promise<unknown> };

/**
 * Registers `/healthz` (the process is up), `/readyz` (its dependencies answer)
 * and `/metrics` (Prometheus text format).
 */
export async function registerHealthRoutes(
  app: FastifyInstance,
  opts: { checks: ReadinessCheck[]; metrics: Metrics },
): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const results = await Promise.all(
      opts.checks.map(async ({ name, check }) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch (err) {
          return [name, (err as Error).message] as const;
        }
      }),
    );
    const ready = results.every(([, r]) => r === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });
}
