import { HttpEventStream, type PulledEventReader } from '../webhooks/http-pull.js';
import {
  isSandboxLinkedInBody,
  SandboxEventPayloadSchema,
  sandboxCanonicalEvent,
  sandboxLinkedInEvent,
} from './sandbox-webhook.js';

/** A sandbox event from its stream: the webhook body, normalised as the webhook is. */
export const sandboxPulledEvent: PulledEventReader = (id, body) => {
  if (isSandboxLinkedInBody(body)) {
    const li = sandboxLinkedInEvent(body);
    if ('error' in li) return { error: li.error.issues.map((i) => i.message).join('; ') };
    if (li.event.externalId !== id)
      return { error: `the event's id ${li.event.externalId} is not its stream id` };
    return { event: li.event };
  }
  const parsed = SandboxEventPayloadSchema.safeParse(body);
  if (!parsed.success) return { error: parsed.error.issues.map((i) => i.message).join('; ') };
  // The webhook records the body's id; a stream id that differs would record it twice.
  if (parsed.data.id !== id) return { error: `the event's id ${parsed.data.id} is not its stream id` };
  return { event: sandboxCanonicalEvent(parsed.data, new Date()) };
};

/**
 * The sandbox's event stream (`GET /events?after=SEQ&limit=N`, Bearer: the webhook
 * secret), read like the generic HTTP provider's; its cursor is stored as `sandbox`.
 */
export function sandboxEventStream(opts: {
  baseUrl: string;
  webhookSecret: string;
  timeoutMs?: number;
}): HttpEventStream {
  return new HttpEventStream({
    name: 'sandbox',
    baseUrl: opts.baseUrl,
    apiKey: opts.webhookSecret,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    read: sandboxPulledEvent,
  });
}
