import type { EventRepository } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';
import { registerProblemHandler } from '@touchbase/runtime';
import { type Logger, type Metrics, type ReadinessCheck, registerHealthRoutes } from '@touchbase/telemetry';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { sandboxWebhookRoute } from './routes/sandbox-webhook.route.js';

export type IngestAppDeps = {
  events: EventRepository;
  touchQueue: TouchQueue;
  logger: Logger;
  metrics: Metrics;
  sandboxSecret: string;
  checks: ReadinessCheck[];
  bodyLimit?: number;
};

/**
 * Builds the ingest app (webhooks); never listens. Webhook bodies are kept as the
 * raw string: signatures are computed over the exact bytes, so routes parse JSON
 * themselves after verifying.
 */
export async function buildIngest(deps: IngestAppDeps): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: deps.logger as FastifyBaseLogger, bodyLimit: deps.bodyLimit ?? 256 * 1024, disableRequestLogging: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  registerProblemHandler(app);
  await registerHealthRoutes(app, { checks: deps.checks, metrics: deps.metrics });
  await app.register(sandboxWebhookRoute, {
    events: deps.events,
    touchQueue: deps.touchQueue,
    logger: deps.logger,
    metrics: deps.metrics,
    secret: deps.sandboxSecret,
  });
  return app;
}
