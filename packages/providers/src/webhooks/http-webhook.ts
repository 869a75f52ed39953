import {
  type CanonicalEvent,
  CanonicalEventSchema,
  classifyReplyEvent,
  EventTypeSchema,
} from '@touchbase/core';
import { z } from 'zod';
import { standardWebhookVerifier } from './standard-webhooks.js';
import { parseJsonBody, parseWith, type WebhookProvider } from './webhook-provider.js';

/**
 * The generic HTTP provider's event, the same in a webhook body and in its pull
 * stream: canonical event names, the prospect named by our enrollment id, our
 * message id, an address or a LinkedIn URL; a reply's text is classified here.
 */
export const HttpProviderEventSchema = z
  .object({
    type: EventTypeSchema,
    occurred_at: z.iso.datetime({ offset: true }),
    email: z.string().min(3).max(320).optional(),
    message_id: z.string().min(1).max(500).optional(),
    enrollment_id: z.uuid().optional(),
    linkedin_url: z.string().min(8).max(500).optional(),
    crm_id: z.string().max(100).optional(),
    channel: z.enum(['email', 'linkedin', 'phone', 'other']).optional(),
    subject: z.string().max(1000).optional(),
    text: z.string().max(100_000).optional(),
    in_reply: z.boolean().optional(),
    bounce: z
      .object({
        hard: z.boolean(),
        status: z.string().max(20).optional(),
        reason: z.string().max(2000).optional(),
      })
      .optional(),
    return_date: z.iso.date().optional(),
    new_email: z.string().min(3).max(320).optional(),
    /** Why an action failed (`linkedin.invitation_failed`): a `LinkedInFailureReason`. */
    reason: z.string().max(100).optional(),
  })
  .refine((e) => e.email || e.message_id || e.enrollment_id || e.linkedin_url || e.crm_id, {
    message: 'names no prospect: give email, message_id, enrollment_id, linkedin_url or crm_id',
    path: ['email'],
  });
export type HttpProviderEvent = z.infer<typeof HttpProviderEventSchema>;

/** The canonical event of one HTTP-provider event; `id` is its webhook-id, the same in the pull stream. */
export function normaliseHttpEvent(
  id: string,
  e: HttpProviderEvent,
  auth: 'signature' | 'token' | undefined,
  source = 'http',
): CanonicalEvent {
  const classified =
    e.type === 'reply'
      ? classifyReplyEvent({ subject: e.subject, text: e.text }, new Date(e.occurred_at))
      : null;
  return CanonicalEventSchema.parse({
    source,
    externalId: id,
    type: e.type,
    occurredAt: e.occurred_at,
    ...(e.email ? { email: e.email } : {}),
    ...(e.message_id ? { messageId: e.message_id } : {}),
    ...(e.enrollment_id ? { enrollmentId: e.enrollment_id } : {}),
    ...(e.linkedin_url ? { linkedinUrl: e.linkedin_url } : {}),
    ...(e.crm_id ? { crmId: e.crm_id } : {}),
    channel: e.channel ?? (e.linkedin_url && !e.email ? 'linkedin' : 'email'),
    ...(auth ? { auth } : {}),
    ...(e.in_reply !== undefined ? { inReply: e.in_reply } : {}),
    ...(e.bounce ? { bounce: e.bounce } : {}),
    ...(e.return_date ? { returnDate: e.return_date } : {}),
    ...(e.new_email ? { newEmail: e.new_email } : {}),
    ...(classified ?? {}),
    data: e.reason ? { reason: e.reason } : {},
  });
}

/**
 * `POST /webhooks/http`: a provider that signs with Standard Webhooks
 * (https://www.standardwebhooks.com: webhook-id, webhook-timestamp,
 * webhook-signature = v1,base64 HMAC-SHA256 of `id.timestamp.body`). The
 * webhook-id is the event's id: a retry carries the same one and is recorded once.
 */
export function httpWebhookProvider(opts: {
  secret: string | undefined;
  toleranceMs?: number;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'http',
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    verify: standardWebhookVerifier({
      secret: opts.secret,
      secretName: 'HTTP_PROVIDER_WEBHOOK_SECRET',
      toleranceMs: opts.toleranceMs,
    }),
    async normalise(rawBody, delivery) {
      const event = parseWith(HttpProviderEventSchema, parseJsonBody(rawBody));
      return [normaliseHttpEvent(delivery.deliveryId ?? '', event, 'signature')];
    },
  };
}
