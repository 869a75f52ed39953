import { createHmac, timingSafeEqual } from 'node:crypto';
import { type CanonicalEvent, CanonicalEventSchema } from '@touchbase/core';
import { z } from 'zod';
import { first } from './endpoint-token.js';
import { WebhookVerificationError } from './standard-webhooks.js';
import { parseJsonBody, parseWith, type WebhookProvider } from './webhook-provider.js';

/**
 * HubSpot's webhook body: an array of up to 100 events
 * (https://developers.hubspot.com/docs/api/webhooks: `eventId`, `subscriptionId`,
 * `portalId`, `occurredAt` in ms, `subscriptionType`, `attemptNumber`, `objectId`,
 * `propertyName`/`propertyValue` for property changes).
 */
export const HubspotEventsSchema = z
  .array(
    z.looseObject({
      eventId: z.union([z.number(), z.string().min(1).max(200)]),
      subscriptionType: z.string().min(1).max(100),
      occurredAt: z.number().int(),
      objectId: z.union([z.number(), z.string()]),
      portalId: z.union([z.number(), z.string()]).optional(),
      propertyName: z.string().max(200).optional(),
      propertyValue: z.string().max(2000).optional(),
      attemptNumber: z.number().int().optional(),
    }),
  )
  .min(1)
  .max(1000);

/**
 * Verifies HubSpot's v3 signature
 * (https://developers.hubspot.com/docs/apps/developer-platform/build-apps/authentication/request-validation):
 * `X-HubSpot-Signature-v3` is base64 HMAC-SHA256, keyed with the app's client
 * secret, of method + URI + body + `X-HubSpot-Request-Timestamp` (ms); a timestamp
 * older than five minutes is refused.
 */
export function verifyHubspotSignature(
  secret: string,
  req: {
    method: string;
    url: string;
    headers: Record<string, string | string[] | undefined>;
    rawBody: Buffer | string;
  },
  opts: { nowMs: number; toleranceMs?: number },
): void {
  const signature = first(req.headers['x-hubspot-signature-v3']);
  const timestamp = first(req.headers['x-hubspot-request-timestamp']);
  if (!signature || !timestamp) {
    throw new WebhookVerificationError(
      'missing_headers',
      'X-HubSpot-Signature-v3 and X-HubSpot-Request-Timestamp are required',
    );
  }
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(opts.nowMs - ts) > (opts.toleranceMs ?? 300_000)) {
    throw new WebhookVerificationError(
      'stale_timestamp',
      'X-HubSpot-Request-Timestamp is outside the tolerance',
    );
  }
  const expected = signHubspot(secret, req.method, req.url, req.rawBody, timestamp);
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookVerificationError('bad_signature', 'X-HubSpot-Signature-v3 does not match');
  }
}

/** HubSpot's v3 signature of a request (for tests and our own fake HubSpot). */
export function signHubspot(
  secret: string,
  method: string,
  url: string,
  body: Buffer | string,
  timestamp: string,
): Buffer {
  // Over the body's bytes as received (a string is taken as UTF-8).
  return createHmac('sha256', secret)
    .update(`${method}${decodeUri(url)}`, 'utf8')
    .update(body)
    .update(timestamp, 'utf8')
    .digest();
}

// HubSpot decodes these characters in the URI before signing.
function decodeUri(url: string): string {
  return url.replace(/%3A|%2F|%3F|%40|%21|%24|%27|%28|%29|%2A|%2C|%3B/gi, (m) => decodeURIComponent(m));
}

/**
 * `POST /webhooks/hubspot`: CRM events. A GDPR deletion is an erasure request; an
 * opt-out an unsubscribe; a changed email an address change (HubSpot signs, so
 * this may resume sequences); a closed deal ends the contact's sequences (a lost one
 * may schedule a reactivation); a lifecycle stage change may too. The
 * contact is found by its HubSpot id in prospect_identity (kind `hubspot`).
 */
export function hubspotWebhookProvider(opts: {
  clientSecret: string | undefined;
  /** The public URL registered with HubSpot: it is part of what HubSpot signs. */
  publicUrl?: string | undefined;
  toleranceMs?: number;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'hubspot',
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    verify(req) {
      if (!opts.clientSecret)
        throw new WebhookVerificationError('not_configured', 'HUBSPOT_CLIENT_SECRET is not set');
      verifyHubspotSignature(
        opts.clientSecret,
        { ...req, url: opts.publicUrl ?? req.url },
        { nowMs: req.nowMs, ...(opts.toleranceMs ? { toleranceMs: opts.toleranceMs } : {}) },
      );
      return { auth: 'signature', deliveryId: null };
    },
    async normalise(rawBody, delivery) {
      const events = parseWith(HubspotEventsSchema, parseJsonBody(rawBody));
      const out: CanonicalEvent[] = [];
      for (const e of events) {
        const mapped = mapEvent(e);
        if (!mapped) continue;
        out.push(
          CanonicalEventSchema.parse({
            source: 'hubspot',
            externalId: String(e.eventId),
            occurredAt: new Date(e.occurredAt),
            crmId: String(e.objectId),
            channel: 'other',
            auth: delivery.auth,
            ...mapped,
            data: { subscriptionType: e.subscriptionType, ...(mapped.data ?? {}) },
          }),
        );
      }
      return out;
    },
  };
}

function mapEvent(e: z.infer<typeof HubspotEventsSchema>[number]): Partial<CanonicalEvent> | null {
  switch (e.subscriptionType) {
    case 'contact.privacyDeletion':
      return { type: 'erasure_request' };
    case 'contact.propertyChange':
      if (e.propertyName === 'email' && e.propertyValue)
        return { type: 'email_changed', newEmail: e.propertyValue };
      if (e.propertyName === 'hs_email_optout' && e.propertyValue === 'true') return { type: 'unsubscribe' };
      // A lifecycle stage set (back): a sequence's reactivation policy may name it.
      if (e.propertyName === 'lifecyclestage' && e.propertyValue)
        return { type: 'crm.lifecycle_stage', data: { stage: e.propertyValue } };
      return null;
    case 'deal.propertyChange':
      if (e.propertyName !== 'dealstage') return null;
      if (e.propertyValue === 'closedwon') return { type: 'crm.deal_won' };
      if (e.propertyValue === 'closedlost') return { type: 'crm.deal_lost' };
      return null;
    default:
      return null;
  }
}
