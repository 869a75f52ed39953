import { createServer, type ServerOptions } from 'node:http';
import { MAX_TRACKING_TOKEN_LENGTH } from '@touchbase/core';
import type { EventRepository } from '@touchbase/db';
import type { WebhookProvider } from '@touchbase/providers';
import type { TouchQueue } from '@touchbase/queues';
import { registerProblemHandler } from '@touchbase/runtime';
import {
  type Logger,
  lazyChildLoggerFactory,
  type Metrics,
  type ReadinessCheck,
  registerHealthRoutes,
} from '@touchbase/telemetry';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger.js';
import { trackingRoutes } from './routes/tracking.routes.js';
import { unsubscribeRoutes } from './routes/unsubscribe.routes.js';
import { webhookRoutes } from './routes/webhook.routes.js';
import { WebhookFastPath } from './routes/webhook-fast-path.js';
import type { IngestDeps } from './use-cases/ingest-event.js';

export type IngestAppDeps = IngestDeps & {
  events: EventRepository;
  touchQueue: TouchQueue;
  logger: Logger;
  metrics: Metrics;
  /** The webhook endpoints (see `webhookProvidersFrom`). */
  providers: WebhookProvider[];
  checks: ReadinessCheck[];
  /**
   * UNSUBSCRIBE_SECRET, the key the sender signs `/u/{token}` links with; without
   * it the one-click unsubscribe routes are not served (a bench of webhooks alone).
   */
  unsubscribeSecret?: string;
  /**
   * TRACKING_SECRET, the key the sender signs open pixels and tracked links with;
   * without it `/t/o/{token}` and `/t/c/{token}` are not served.
   */
  trackingSecret?: string;
  /** Default body limit; each endpoint sets its own. */
  bodyLimit?: number;
};

/** The server settings Fastify applies to the server it makes, applied to ours alike. */
type ServerLimits = {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
};

/**
 * Builds the ingest app (webhooks, one-click unsubscribe, open/click tracking); never listens. Bodies
 * are kept as the raw bytes (a Buffer, not decoded text, which would turn bytes
 * that are not UTF-8 into U+FFFD): signatures are computed over the exact bytes,
 * so each endpoint parses its body itself after verifying.
 */
export async function buildIngest(deps: IngestAppDeps): Promise<FastifyInstance> {
  const fastPath = new WebhookFastPath(deps, deps.logger);
  const app = Fastify({
    // The server Fastify would make (its timeouts and limits), with the webhooks' fast
    // path in front: it takes the canonical spelling of a webhook route and leaves
    // every other request to Fastify (see WebhookFastPath). `inject` goes to Fastify.
    serverFactory: (handler, opts) => {
      // Fastify hands over its options with their defaults filled in.
      const o = opts as ServerLimits;
      const server = createServer(o.http ?? {}, (req, res) => {
        if (!fastPath.serve(req, res)) handler(req, res);
      });
      server.keepAliveTimeout = o.keepAliveTimeout;
      server.requestTimeout = o.requestTimeout;
      server.setTimeout(o.connectionTimeout);
      if (o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
      return server;
    },
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.bodyLimit ?? 1024 * 1024,
    logController: new LogController({ disableRequestLogging: true }),
    // A delivery that logs nothing makes no pino child (its reqId binding) either.
    childLoggerFactory: lazyChildLoggerFactory as unknown as FastifyChildLoggerFactory,
    // A tracked link's token carries its URL (Fastify's default allows 100 characters a parameter).
    routerOptions: { maxParamLength: MAX_TRACKING_TOKEN_LENGTH + 64 },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  // Closing: Fastify answers new requests 503, so the fast path stops taking them.
  app.addHook('preClose', async () => fastPath.close());
  registerProblemHandler(app);
  await registerHealthRoutes(app, { checks: deps.checks, metrics: deps.metrics });
  await app.register(webhookRoutes, deps);
  if (deps.unsubscribeSecret) {
    await app.register(unsubscribeRoutes, { ...deps, unsubscribeSecret: deps.unsubscribeSecret });
  }
  if (deps.trackingSecret) {
    await app.register(trackingRoutes, { ...deps, trackingSecret: deps.trackingSecret });
  }
  return app;
}
