import type { CanonicalEvent } from '@touchbase/core';
import {
  CrmLookupUnavailableError,
  WebhookPayloadError,
  type WebhookProvider,
  WebhookVerificationError,
} from '@touchbase/providers';
import type { EventReceipt } from '@touchbase/use-cases';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { expandDealEvents } from '../use-cases/expand-deal-events.js';
import { type IngestDeps, ingestEvent } from '../use-cases/ingest-event.js';

/**
 * `POST /webhooks/{source}` (and `/webhooks/{source}/{token}` for endpoints guarded
 * by a token) for each provider, in this order: the body size (413), the signature
 * or token over the raw body (401, nothing recorded), the body (400 problem+json
 * naming the field, nothing recorded), then each event recorded once and applied;
 * 200 once committed. A replayed delivery is acknowledged and changes nothing.
 * Refusals are thrown as errors with a code (verification, payload, CRM unavailable)
 * that the one problem+json handler turns into their status; each is counted here.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  opts: IngestDeps & { providers: WebhookProvider[] },
): Promise<void> {
  for (const provider of opts.providers) {
    const handler = (req: FastifyRequest, reply: FastifyReply) => handle(provider, opts, req, reply);
    const onError = async (_req: FastifyRequest, _reply: FastifyReply, err: Error) =>
      countRefusal(provider, opts, err);
    const routeOpts = { bodyLimit: provider.bodyLimit, onError };
    app.post(`/webhooks/${provider.source}`, routeOpts, handler);
    app.post(`/webhooks/${provider.source}/:token`, routeOpts, handler);
  }
}

async function handle(
  provider: WebhookProvider,
  deps: IngestDeps,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const receivedAt = new Date();
  const delivery = provider.verify({
    method: req.method,
    // Only a signature over the URL (HubSpot's) reads it: built then, not per delivery.
    get url() {
      return `${req.protocol}://${req.host}${req.url}`;
    },
    headers: req.headers,
    rawBody: raw,
    pathToken: (req.params as { token?: string }).token,
    nowMs: receivedAt.getTime(),
  });
  // Decoded only once verified, to be parsed.
  let events: CanonicalEvent[] = await provider
    .normalise(raw.toString('utf8'), delivery, receivedAt)
    .catch((err: unknown) => {
      // A payload that passed the provider's schema but makes no valid canonical event (an
      // empty id, say) is the sender's fault: 400 naming the field, not a 500 retried forever.
      throw err instanceof ZodError ? WebhookPayloadError.fromZod(err, 'event') : err;
    });
  events = await expandDealEvents(events, deps.dealContacts, deps.logger);
  const results = [];
  for (const event of events) {
    const r: EventReceipt = await ingestEvent(deps, event);
    results.push({
      eventId: r.eventId,
      type: event.type,
      duplicate: r.duplicate,
      outcome: r.outcome,
      triaged: r.triaged,
    });
  }
  const only = results[0];
  return reply.code(200).send({
    received: true,
    duplicate: results.length > 0 && results.every((r) => r.duplicate),
    outcome: only?.outcome ?? 'ignored',
    eventId: only?.eventId ?? null,
    events: results,
  });
}

/** Counts a refused delivery by why (the problem+json handler answers it). */
function countRefusal(provider: WebhookProvider, deps: IngestDeps, err: Error): void {
  const outcome =
    err instanceof WebhookVerificationError
      ? `rejected_${err.code}`
      : err instanceof WebhookPayloadError
        ? 'rejected_payload'
        : err instanceof CrmLookupUnavailableError
          ? 'deferred_crm'
          : null;
  if (outcome) deps.metrics.eventsReceived.inc({ source: provider.source, type: 'unknown', outcome });
}
