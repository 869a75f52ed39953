import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** A readiness probe: resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = { name: string; check: () => Promise<unknown> };

/**
 * Registers `/healthz` (the process is up), `/readyz` (its dependencies answer:
 * 200 `{ status: 'ready', checks }`, or 503 problem+json naming each that did not)
 * and `/metrics` (Prometheus text format), unless `metricsRoute: false` (the API
 * registers `/metrics` itself, behind its guard when not on loopback).
 */
export async function registerHealthRoutes(
  app: FastifyInstance,
  opts: { checks: ReadinessCheck[]; metrics: Metrics; metricsRoute?: boolean },
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
    const checks = Object.fromEntries(results);
    if (results.every(([, r]) => r === 'ok')) return reply.send({ status: 'ready', checks });
    // Not ready is an error answer like any other: RFC 9457 problem+json, naming what failed.
    return reply
      .code(503)
      .type('application/problem+json')
      .header('retry-after', '5')
      .send({
        type: 'https://touchbase.dev/problems/not_ready',
        title: 'Not ready',
        status: 503,
        code: 'not_ready',
        detail: results
          .filter(([, r]) => r !== 'ok')
          .map(([name, r]) => `${name}: ${r}`)
          .join('; '),
        checks,
      });
  });
  if (opts.metricsRoute !== false) registerMetricsRoute(app, opts.metrics);
}

/** Registers `/metrics` (Prometheus text format) alone. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
