import {
  isSandboxLinkedInBody,
  SandboxEventPayloadSchema,
  sandboxCanonicalEvent,
  sandboxLinkedInEvent,
} from '../sandbox/sandbox-webhook.js';
import { standardWebhookVerifier } from './standard-webhooks.js';
import { parseJsonBody, parseWith, WebhookPayloadError, type WebhookProvider } from './webhook-provider.js';

/**
 * `POST /webhooks/sandbox`: the sandbox signs with Standard Webhooks; the body is
 * normalised as its pull stream's events are (`sandboxCanonicalEvent`, or
 * `sandboxLinkedInEvent` for its LinkedIn members' acceptances and replies).
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
      const body = parseJsonBody(rawBody);
      if (isSandboxLinkedInBody(body)) {
        const li = sandboxLinkedInEvent(body);
        if ('error' in li) throw WebhookPayloadError.fromZod(li.error);
        return [li.event];
      }
      const payload = parseWith(SandboxEventPayloadSchema, body);
      return [sandboxCanonicalEvent(payload, receivedAt)];
    },
  };
}
