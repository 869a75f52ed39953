import { createHash } from 'node:crypto';
import {
  type CanonicalEvent,
  CanonicalEventSchema,
  classifyRawMessage,
  fieldsOfMessage,
  readInboundMessage,
} from '@touchbase/core';
import { verifyEndpointToken } from './endpoint-token.js';
import { WebhookPayloadError, type WebhookProvider } from './webhook-provider.js';

/**
 * `POST /webhooks/inbound/{token}`: a raw RFC 822 message, as inbound-parse
 * services and mail forwarders deliver it (the whole message as the body). The
 * classifier (mailparser underneath) says what it is: a reply, an auto-reply, an
 * unsubscribe, a bounce (RFC 3464) or a complaint (ARF). A bounce names the
 * prospect by the original recipient and our message's id; anything else by its
 * sender and the message it answers. Forwarders cannot sign: a token guards it.
 */
export function inboundWebhookProvider(opts: {
  token: string | undefined;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'inbound',
    bodyLimit: opts.bodyLimit ?? 10 * 1024 * 1024,
    verify: (req) => verifyEndpointToken(opts.token, req),
    async normalise(rawBody, delivery, receivedAt) {
      if (!/^[\x21-\x39\x3b-\x7e]+:/m.test(rawBody.slice(0, 2000))) {
        throw new WebhookPayloadError('malformed_message', 'the body is not an RFC 822 message', [
          { field: '(body)', message: 'no header fields' },
        ]);
      }
      const [envelope, classification] = await Promise.all([
        readInboundMessage(rawBody),
        classifyRawMessage(rawBody),
      ]);
      const fields = fieldsOfMessage(classification);
      const aboutOriginal =
        fields.type === 'bounce' || fields.type === 'complaint' || fields.type === 'delivered';
      const email = aboutOriginal ? (envelope.originalRecipient ?? undefined) : (envelope.from ?? undefined);
      const messageId = aboutOriginal ? envelope.originalMessageId : (envelope.inReplyTo[0] ?? null);
      const inReply = envelope.inReplyTo.length > 0 || /^\s*(re|aw|sv|antw|rv|r)\s*:/i.test(envelope.subject);
      const event: CanonicalEvent = CanonicalEventSchema.parse({
        source: 'inbound',
        externalId: envelope.messageId ?? `sha256:${createHash('sha256').update(rawBody).digest('hex')}`,
        occurredAt: envelope.date && !Number.isNaN(envelope.date.getTime()) ? envelope.date : receivedAt,
        ...(email ? { email } : {}),
        ...(messageId ? { messageId } : {}),
        channel: 'email',
        auth: delivery.auth,
        inReply,
        ...fields,
        data: { status: classification.status || null, hard: classification.hard },
      });
      return [event];
    },
  };
}
