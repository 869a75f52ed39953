import { classifyReplyEvent } from '@touchbase/core';
import { normaliseSandboxEvent, SandboxEventPayloadSchema } from '../sandbox/sandbox-webhook.js';
import { verifyStandardWebhook, WebhookVerificationError } from './standard-webhooks.js';
import { parseJsonBody, parseWith, type WebhookProvider } from './webhook-provider.js';

/**
 * `POST /webhooks/sandbox`: the sandbox signs with Standard Webhooks. A reply's
 * text goes through the classifier like any provider's, so the sandbox's "Thanks,
 * but no thanks." is recorded as `not_interested`, with the rules that said so.
 */
export function sandboxWebhookProvider(opts: {
  secret: string;
  toleranceMs?: number;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'sandbox',
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    verify(req) {
      if (!opts.secret)
        throw new WebhookVerificationError('not_configured', 'SANDBOX_WEBHOOK_SECRET is not set');
      const id = verifyStandardWebhook(opts.secret, req.headers, req.rawBody, {
        toleranceSec: Math.round((opts.toleranceMs ?? 300_000) / 1000),
        nowMs: req.nowMs,
      });
      return { auth: 'signature', deliveryId: id };
    },
    async normalise(rawBody, _delivery, receivedAt) {
      const payload = parseWith(SandboxEventPayloadSchema, parseJsonBody(rawBody));
      const event = normaliseSandboxEvent(payload);
      if (payload.type !== 'reply') return [{ ...event, inReply: true }];
      const classified = classifyReplyEvent({ text: payload.text }, receivedAt);
      return [{ ...event, inReply: true, ...(classified ?? {}) }];
    },
  };
}
