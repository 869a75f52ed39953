import { SandboxEventPayloadSchema, sandboxCanonicalEvent } from '../sandbox/sandbox-webhook.js';
import { verifyStandardWebhook, WebhookVerificationError } from './standard-webhooks.js';
import { parseJsonBody, parseWith, type WebhookProvider } from './webhook-provider.js';

/**
 * `POST /webhooks/sandbox`: the sandbox signs with Standard Webhooks; the body is
 * normalised as its pull stream's events are (`sandboxCanonicalEvent`).
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
      return [sandboxCanonicalEvent(payload, receivedAt)];
    },
  };
}
