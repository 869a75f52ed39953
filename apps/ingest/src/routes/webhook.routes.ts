import type { WebhookProvider } from '@touchbase/providers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IngestDeps } from '../use-cases/ingest-event.js';
import { countRefusal, receiveWebhook } from './receive-webhook.js';

/**
 * `POST /webhooks/{source}` (and `/webhooks/{source}/{token}` for endpoints guarded
 * by a token) for each provider, in this order: the body size (413), the signature
 * or token over the raw body (401, nothing recorded), the body (400 problem+json
 * naming the field, nothing recorded), then each event recorded once and applied;
 * 200 once committed. A replayed delivery is acknowledged and changes nothing.
 * Refusals are thrown as errors with a code (verification, payload, CRM unavailable)
 * that the one problem+json handler turns into their status; each is counted here.
 * The canonical spelling of the path is usually answered before Fastify routes, by
 * the fast path (webhook-fast-path.ts), with the same {@link receiveWebhook}.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  opts: IngestDeps & { providers: WebhookProvider[] },
): Promise<void> {
  for (const provider of opts.providers) {
    const handler = async (req: FastifyRequest, reply: FastifyReply) =>
      reply.code(200).send(
        await receiveWebhook(provider, opts, {
          method: req.method,
          url: () => `${req.protocol}://${req.host}${req.url}`,
          headers: req.headers,
          rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          pathToken: (req.params as { token?: string }).token,
        }),
      );
    const onError = async (_req: FastifyRequest, _reply: FastifyReply, err: Error) =>
      countRefusal(provider, opts, err);
    const routeOpts = { bodyLimit: provider.bodyLimit, onError };
    app.post(`/webhooks/${provider.source}`, routeOpts, handler);
    app.post(`/webhooks/${provider.source}/:token`, routeOpts, handler);
  }
}
