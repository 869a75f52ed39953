import type { CanonicalEvent } from '@touchbase/core';
import { WebhookPayloadError, type WebhookProvider, WebhookVerificationError } from '@touchbase/providers';
import { sendProblem } from '@touchbase/runtime';
import type { EventReceipt } from '@touchbase/use-cases';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CrmLookupUnavailableError, expandDealEvents } from '../use-cases/expand-deal-events.js';
import { type IngestDeps, ingestEvent } from '../use-cases/ingest-event.js';

/**
 * `POST /webhooks/{source}` (and `/webhooks/{source}/{token}` for endpoints guarded
 * by a token) for each provider, in this order: the body size (413), the signature
 * or token over the raw body (401, nothing recorded), the body (400 problem+json
 * naming the field, nothing recorded), then each event recorded once and applied;
 * 200 once committed. A replayed delivery is acknowledged and changes nothing.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  opts: IngestDeps & { providers: WebhookProvider[] },
): Promise<void> {
  for (const provider of opts.providers) {
    const handler = (req: FastifyRequest, reply: FastifyReply) => handle(provider, opts, req, reply);
    app.post(`/webhooks/${provider.source}`, { bodyLimit: provider.bodyLimit }, handler);
    app.post(`/webhooks/${provider.source}/:token`, { bodyLimit: provider.bodyLimit }, handler);
  }
}

async function handle(
  provider: WebhookProvider,
  deps: IngestDeps,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const raw = typeof req.body === 'string' ? req.body : '';
  const receivedAt = new Date();
  let delivery: ReturnType<WebhookProvider['verify']>;
  try {
    delivery = provider.verify({
      method: req.method,
      url: `${req.protocol}://${req.host}${req.url}`,
      headers: req.headers,
      rawBody: raw,
      pathToken: (req.params as { token?: string }).token,
      nowMs: receivedAt.getTime(),
    });
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    deps.metrics.eventsReceived.inc({
      source: provider.source,
      type: 'unknown',
      outcome: `rejected_${err.code}`,
    });
    return sendProblem(reply, {
      status: 401,
      title: 'Webhook not authenticated',
      code: err.code,
      detail: err.message,
    });
  }
  let events: CanonicalEvent[];
  try {
    events = await provider.normalise(raw, delivery, receivedAt);
  } catch (err) {
    if (!(err instanceof WebhookPayloadError)) throw err;
    deps.metrics.eventsReceived.inc({
      source: provider.source,
      type: 'unknown',
      outcome: 'rejected_payload',
    });
    return sendProblem(reply, {
      status: 400,
      title: err.code === 'malformed_json' ? 'Malformed JSON' : 'Invalid webhook payload',
      code: err.code,
      detail: err.message,
      errors: err.errors,
    });
  }
  try {
    events = await expandDealEvents(events, deps.dealContacts, deps.logger);
  } catch (err) {
    if (!(err instanceof CrmLookupUnavailableError)) throw err;
    deps.metrics.eventsReceived.inc({ source: provider.source, type: 'unknown', outcome: 'deferred_crm' });
    const retryAfter = Math.max(1, Math.ceil((err.retryAfterMs ?? 60_000) / 1000));
    reply.header('retry-after', String(retryAfter));
    return sendProblem(reply, {
      status: 503,
      title: 'CRM unavailable',
      code: err.code,
      detail: `Could not ask the CRM who is on the deal; nothing was recorded, send it again (${err.message})`,
    });
  }
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
