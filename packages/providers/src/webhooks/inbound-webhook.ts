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
      if (!looksLikeRfc822(rawBody)) {
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

/**
 * Whether a body is an RFC 822 message: it opens with a header field (after an
 * optional mbox `From ` line) and its header block carries at least one of the
 * fields every real message has. Real mail software writes odd header lines
 * (8-bit bytes, a space before the colon), so those are not judged one by one; a
 * JSON document or random bytes still fail, get 400 and are never recorded.
 */
export function looksLikeRfc822(raw: string): boolean {
  const text = raw.startsWith('From ') ? raw.slice(raw.indexOf('\n') + 1) : raw;
  const end = text.search(/\r?\n\r?\n/);
  const head = (end === -1 ? text : text.slice(0, end)).slice(0, 64 * 1024);
  if (!/^[\x21-\x39\x3b-\x7e]+:/.test(head)) return false;
  return /^(from|date|message-id|received|return-path|subject|delivered-to):/im.test(head);
}
