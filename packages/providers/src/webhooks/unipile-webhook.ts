import {
  type CanonicalEvent,
  CanonicalEventSchema,
  classifyReplyEvent,
  normaliseLinkedInProfileUrl,
} from '@touchbase/core';
import { z } from 'zod';
import { verifyEndpointToken } from './endpoint-token.js';
import { parseJsonBody, parseWith, type WebhookProvider } from './webhook-provider.js';

/**
 * The two Unipile webhooks touchbase uses (https://developer.unipile.com/docs/webhooks-2):
 * the users webhook's `new_relation` (an invitation was accepted: the member is a
 * new 1st-degree relation; Unipile finds these by polling LinkedIn, so one can
 * arrive hours after the acceptance), and the messaging webhook's
 * `message_received` (every new message of a chat, ours included). Other events
 * (reactions, reads, account status) are not used.
 */
const NewRelationSchema = z.looseObject({
  event: z.literal('new_relation'),
  account_id: z.string().min(1).max(200),
  user_provider_id: z.string().min(1).max(200),
  user_public_identifier: z.string().max(200).nullish(),
  user_profile_url: z.string().max(500).nullish(),
  user_full_name: z.string().max(500).nullish(),
});

const MessageReceivedSchema = z.looseObject({
  event: z.literal('message_received'),
  account_id: z.string().min(1).max(200),
  account_type: z.string().max(50).nullish(),
  account_info: z.looseObject({ user_id: z.string().max(200).nullish() }).nullish(),
  chat_id: z.string().min(1).max(200),
  message_id: z.string().min(1).max(200),
  message: z.string().max(100_000).nullish(),
  timestamp: z.string().max(50).nullish(),
  sender: z.looseObject({
    attendee_provider_id: z.string().max(200).nullish(),
    attendee_profile_url: z.string().max(500).nullish(),
    attendee_name: z.string().max(500).nullish(),
  }),
});

const UnipileEventSchema = z.looseObject({ event: z.string().min(1).max(100) });

/**
 * `POST /webhooks/unipile` (or `/webhooks/unipile/{token}`). Unipile does not sign
 * its webhooks; they are created with a custom header (`x-touchbase-token`, set in
 * the webhook's `headers` when it is created) or point at the token path, so its
 * events, like every token endpoint's, may stop or pause, never start a send.
 *
 * - `new_relation` → `linkedin.connection_accepted`, recorded once per (account,
 *   member): its external id is `new_relation-{account_id}-{user_provider_id}`,
 *   since Unipile gives the event no id of its own and may deliver it again.
 * - `message_received` from the other side → `reply` on the LinkedIn channel, the
 *   text classified; our own messages (sender = the account's user) are skipped.
 */
export function unipileWebhookProvider(opts: {
  token: string | undefined;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'unipile',
    bodyLimit: opts.bodyLimit ?? 512 * 1024,
    verify: (req) => verifyEndpointToken(opts.token, req),
    async normalise(rawBody, delivery, receivedAt) {
      const json = parseJsonBody(rawBody);
      const { event } = parseWith(UnipileEventSchema, json);
      if (event === 'new_relation') {
        const e = parseWith(NewRelationSchema, json);
        const url =
          (e.user_profile_url && normaliseLinkedInProfileUrl(e.user_profile_url)) ??
          (e.user_public_identifier &&
            normaliseLinkedInProfileUrl(`https://www.linkedin.com/in/${e.user_public_identifier}`));
        return [
          CanonicalEventSchema.parse({
            source: 'unipile',
            externalId: `new_relation-${e.account_id}-${e.user_provider_id}`,
            type: 'linkedin.connection_accepted',
            // Unipile dates it no more precisely than its arrival.
            occurredAt: receivedAt,
            ...(url ? { linkedinUrl: url } : {}),
            channel: 'linkedin',
            auth: delivery.auth,
            data: { accountId: e.account_id, providerId: e.user_provider_id },
          }),
        ];
      }
      if (event === 'message_received') {
        const e = parseWith(MessageReceivedSchema, json);
        const senderId = e.sender.attendee_provider_id;
        if (!senderId || senderId === e.account_info?.user_id) return [];
        const url = e.sender.attendee_profile_url
          ? normaliseLinkedInProfileUrl(e.sender.attendee_profile_url)
          : null;
        const at = e.timestamp && !Number.isNaN(Date.parse(e.timestamp)) ? e.timestamp : receivedAt;
        const classified = classifyReplyEvent({ text: e.message ?? undefined }, receivedAt);
        const reply: CanonicalEvent = CanonicalEventSchema.parse({
          source: 'unipile',
          externalId: e.message_id,
          type: 'reply',
          occurredAt: at,
          ...(url ? { linkedinUrl: url } : {}),
          channel: 'linkedin',
          auth: delivery.auth,
          inReply: true,
          ...(classified ?? {}),
          data: { accountId: e.account_id, chatId: e.chat_id, providerId: senderId },
        });
        return [reply];
      }
      return [];
    },
  };
}
