import { createHmac, timingSafeEqual } from 'node:crypto';
import { type CanonicalEvent, CanonicalEventSchema, classifyReplyEvent } from '@touchbase/core';
import { z } from 'zod';
import { first, verifyEndpointToken } from './endpoint-token.js';
import { WebhookVerificationError } from './standard-webhooks.js';
import {
  htmlToText,
  missingField,
  parseJsonBody,
  parseWith,
  type WebhookProvider,
} from './webhook-provider.js';

/**
 * Smartlead's webhook body: a flat JSON object whose `event_type` names the event
 * (EMAIL_SENT, EMAIL_OPEN, EMAIL_LINK_CLICK, EMAIL_REPLY, EMAIL_BOUNCE,
 * LEAD_UNSUBSCRIBED, LEAD_CATEGORY_UPDATED, ...). Shapes from Smartlead's docs:
 * https://api.smartlead.ai/guides/webhook-integration (flat object, `event_type`),
 * https://help.smartlead.ai/Threaded-Replies-ff92a607c93645b7b1568d8219218423
 * (EMAIL_REPLY: `stats_id`, `event_timestamp`, `from_email` is our mailbox,
 * `sl_lead_email` the lead, `sent_message.message_id`, `reply_message.{message_id,text,html}`),
 * https://help.smartlead.ai/Email-Bounce-3c44b5bd92234b02ba2c9e42542b0e9a
 * (EMAIL_BOUNCE: `bounce_message.{message_id,text,html}`), and the Lead Category
 * Updated / Lead Unsubscribed pages (`lead_email`, deprecated for `to_email`).
 * Every field but `event_type` is optional: Smartlead renamed many of them over time.
 */
const MessagePart = z
  .object({
    message_id: z.string().max(500).nullish(),
    html: z.string().max(500_000).nullish(),
    text: z.string().max(200_000).nullish(),
    time: z.string().max(50).nullish(),
  })
  .partial();

export const SmartleadPayloadSchema = z.looseObject({
  event_type: z.string().min(1).max(60),
  stats_id: z.union([z.string(), z.number()]).nullish(),
  webhook_id: z.union([z.string(), z.number()]).nullish(),
  event_timestamp: z.string().max(50).nullish(),
  time_replied: z.string().max(50).nullish(),
  time_sent: z.string().max(50).nullish(),
  created_at: z.string().max(50).nullish(),
  from_email: z.string().max(320).nullish(),
  to_email: z.string().max(320).nullish(),
  sl_lead_email: z.string().max(320).nullish(),
  lead_email: z.string().max(320).nullish(),
  subject: z.string().max(2000).nullish(),
  sequence_number: z.union([z.string(), z.number()]).nullish(),
  campaign_id: z.union([z.string(), z.number()]).nullish(),
  message_id: z.string().max(500).nullish(),
  preview_text: z.string().max(200_000).nullish(),
  reply_body: z.string().max(500_000).nullish(),
  sent_message: MessagePart.nullish(),
  reply_message: MessagePart.nullish(),
  bounce_message: MessagePart.nullish(),
});
type SmartleadPayload = z.infer<typeof SmartleadPayloadSchema>;

const TYPES: Record<string, CanonicalEvent['type']> = {
  EMAIL_SENT: 'sent',
  FIRST_EMAIL_SENT: 'sent',
  EMAIL_OPEN: 'opened',
  EMAIL_LINK_CLICK: 'clicked',
  EMAIL_REPLY: 'reply',
  EMAIL_BOUNCE: 'bounce',
  LEAD_UNSUBSCRIBED: 'unsubscribe',
};

/**
 * `POST /webhooks/smartlead/{token}`. Smartlead's classic webhooks are not signed
 * (they echo a `secret_key` in the body), so the endpoint carries a secret token
 * of its own; when a signing secret is configured, its newer
 * `X-Smartlead-Signature: sha256=<hex HMAC of the raw body>` is required as well.
 * Either way its events may only stop or pause sequences.
 */
export function smartleadWebhookProvider(opts: {
  token: string | undefined;
  signingSecret?: string | undefined;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'smartlead',
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    verify(req) {
      const delivery = verifyEndpointToken(opts.token, req);
      if (opts.signingSecret) {
        const header = first(req.headers['x-smartlead-signature']) ?? '';
        const given = Buffer.from(header.replace(/^sha256=/, ''), 'hex');
        const expected = createHmac('sha256', opts.signingSecret).update(req.rawBody).digest();
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          throw new WebhookVerificationError('bad_signature', 'X-Smartlead-Signature does not match');
        }
      }
      return { ...delivery, deliveryId: first(req.headers['x-request-id']) ?? null };
    },
    async normalise(rawBody, delivery, receivedAt) {
      const p = parseWith(SmartleadPayloadSchema, parseJsonBody(rawBody));
      // Own keys only: an event_type such as "constructor" must not find Object's members.
      const type = Object.hasOwn(TYPES, p.event_type) ? TYPES[p.event_type] : undefined;
      if (!type) return [];
      const email = p.sl_lead_email ?? (type === 'unsubscribe' ? (p.lead_email ?? p.to_email) : p.to_email);
      const sentId = p.sent_message?.message_id ?? (type === 'reply' ? undefined : p.message_id) ?? undefined;
      if (!email && !sentId) {
        throw missingField(
          'to_email',
          'names no lead: to_email, sl_lead_email or sent_message.message_id is required',
        );
      }
      const occurredAt =
        p.event_timestamp ?? p.time_replied ?? p.time_sent ?? p.created_at ?? receivedAt.toISOString();
      const classified = classify(type, p, receivedAt);
      return [
        CanonicalEventSchema.parse({
          source: 'smartlead',
          externalId: externalId(p, delivery.deliveryId),
          type,
          occurredAt: Number.isNaN(Date.parse(occurredAt)) ? receivedAt : occurredAt,
          ...(email ? { email } : {}),
          ...(sentId ? { messageId: sentId } : {}),
          channel: 'email',
          auth: delivery.auth,
          inReply: true,
          ...(type === 'bounce' ? { bounce: { hard: true, status: '', reason: 'provider_reported' } } : {}),
          ...(classified ?? {}),
          data: { step: p.sequence_number ?? null, campaignId: p.campaign_id ?? null },
        }),
      ];
    },
  };
}

/** The text decides what a "reply" is; a bounce notice's text says hard or soft. */
function classify(type: CanonicalEvent['type'], p: SmartleadPayload, receivedAt: Date) {
  if (type === 'reply') {
    const html = p.reply_message?.html ?? p.reply_body;
    const text = p.reply_message?.text ?? p.preview_text ?? (html ? htmlToText(html) : undefined);
    return classifyReplyEvent({ subject: p.subject ?? undefined, text: text ?? undefined }, receivedAt);
  }
  if (type === 'bounce') {
    const html = p.bounce_message?.html;
    const text = p.bounce_message?.text ?? (html ? htmlToText(html) : undefined);
    const c = classifyReplyEvent(
      { subject: 'Undelivered Mail Returned to Sender', text: text ?? undefined },
      receivedAt,
    );
    // Only a reading that found a bounce may say soft; anything else stays as Smartlead reported it.
    return c?.type === 'bounce' ? c : null;
  }
  return null;
}

/** Smartlead gives no event id: the stats row, the event kind and the message make one. */
function externalId(p: SmartleadPayload, requestId: string | null): string {
  if (requestId) return `req:${requestId}`;
  const message = p.reply_message?.message_id ?? p.bounce_message?.message_id ?? p.event_timestamp ?? '';
  return [p.event_type, p.stats_id ?? '', p.sl_lead_email ?? p.to_email ?? p.lead_email ?? '', message]
    .join(':')
    .slice(0, 500);
}
