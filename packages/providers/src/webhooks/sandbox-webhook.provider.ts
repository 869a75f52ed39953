import { SandboxEventPayloadSchema, sandboxCanonicalEvent } from '../sandbox/sandbox-webhook.js';
import { standardWebhookVerifier } from './standard-webhooks.js';
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
    verify: standardWebhookVerifier({
      secret: opts.secret,
      secretName: 'SANDBOX_WEBHOOK_SECRET',
      toleranceMs: opts.toleranceMs,
    }),
    async normalise(rawBody, _delivery, receivedAt) {
      const payload = parseWith(SandboxEventPayloadSchema, parseJsonBody(rawBody));
      return [sandboxCanonicalEvent(payload, receivedAt)];
    },
  };
}
