import { CanonicalEventSchema, classifyReplyEvent } from '@touchbase/core';
import { z } from 'zod';
import { verifyEndpointToken } from './endpoint-token.js';
import { parseJsonBody, parseWith, type WebhookProvider } from './webhook-provider.js';

/**
 * A LinkedIn automation tool's event (HeyReach, Expandi, Dripify and the like all
 * post a message or connection event naming the lead's profile URL). touchbase
 * takes one plain shape; a tool's own is mapped to it by its webhook settings.
 */
export const LinkedinEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(['message_received', 'reply', 'connection_accepted', 'invite_accepted']),
  occurred_at: z.iso.datetime({ offset: true }),
  profile_url: z.string().min(8).max(500),
  email: z.string().min(3).max(320).optional(),
  text: z.string().max(50_000).optional(),
  conversation_id: z.string().max(500).optional(),
});

/**
 * `POST /webhooks/linkedin/{token}`. LinkedIn tools do not sign, so the endpoint
 * carries a secret token. A message from the lead is a reply on the LinkedIn
 * channel: it ends every sequence of the prospect (found by the profile URL in
 * prospect_identity), like an email reply.
 */
export function linkedinWebhookProvider(opts: {
  token: string | undefined;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'linkedin',
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    verify: (req) => verifyEndpointToken(opts.token, req),
    async normalise(rawBody, delivery, receivedAt) {
      const e = parseWith(LinkedinEventSchema, parseJsonBody(rawBody));
      const isMessage = e.type === 'message_received' || e.type === 'reply';
      const classified = isMessage ? classifyReplyEvent({ text: e.text }, receivedAt) : null;
      return [
        CanonicalEventSchema.parse({
          source: 'linkedin',
          externalId: e.id,
          type: isMessage ? 'reply' : 'linkedin.connection_accepted',
          occurredAt: e.occurred_at,
          linkedinUrl: e.profile_url,
          ...(e.email ? { email: e.email } : {}),
          channel: 'linkedin',
          auth: delivery.auth,
          inReply: Boolean(e.conversation_id) || isMessage,
          ...(classified ?? {}),
          data: {},
        }),
      ];
    },
  };
}
