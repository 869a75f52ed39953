import type { CanonicalEvent } from '@touchbase/core';
import {
  CrmLookupUnavailableError,
  WebhookPayloadError,
  type WebhookProvider,
  WebhookVerificationError,
} from '@touchbase/providers';
import type { EventReceipt } from '@touchbase/use-cases';
import { ZodError } from 'zod';
import { expandDealEvents } from '../use-cases/expand-deal-events.js';
import { type IngestDeps, ingestEvent } from '../use-cases/ingest-event.js';

/** A webhook delivery as either server took it: the request's parts and the raw body. */
export type WebhookDelivery = {
  method: string;
  /** The URL as the provider called it; built only when read (HubSpot signs it). */
  url: () => string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  pathToken: string | undefined;
};

/** The 200 answer to a delivery. */
export type WebhookAnswer = {
  received: true;
  duplicate: boolean;
  outcome: string;
  eventId: string | null;
  events: { eventId: string | null; type: string; duplicate: boolean; outcome: string; triaged: boolean }[];
};

/**
 * One webhook delivery, whichever server took it (Fastify's route or the fast path):
 * the signature or token over the raw body (throws `WebhookVerificationError`, nothing
 * recorded), the body (throws `WebhookPayloadError` naming the field, nothing
 * recorded), then each event recorded once and applied; resolves once committed.
 */
export async function receiveWebhook(
  provider: WebhookProvider,
  deps: IngestDeps,
  req: WebhookDelivery,
): Promise<WebhookAnswer> {
  const raw = req.rawBody;
  const receivedAt = new Date();
  const delivery = provider.verify({
    method: req.method,
    // Only a signature over the URL (HubSpot's) reads it: built then, not per delivery.
    get url() {
      return req.url();
    },
    headers: req.headers,
    rawBody: raw,
    pathToken: req.pathToken,
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
  const results: WebhookAnswer['events'] = [];
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
  return {
    received: true,
    duplicate: results.length > 0 && results.every((r) => r.duplicate),
    outcome: only?.outcome ?? 'ignored',
    eventId: only?.eventId ?? null,
    events: results,
  };
}

/** Counts a refused delivery by why (the problem+json handler answers it). */
export function countRefusal(provider: WebhookProvider, deps: IngestDeps, err: Error): void {
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
