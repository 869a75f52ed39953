import { type CanonicalEvent, CanonicalEventSchema, classifyReplyEvent } from '@touchbase/core';
import { z } from 'zod';
import { HttpProviderEventSchema, normaliseHttpEvent } from '../webhooks/http-webhook.js';

/** The sandbox's webhook body, validated before anything is recorded. */
export const SandboxEventPayloadSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(['reply', 'bounce', 'out_of_office']),
  occurred_at: z.iso.datetime({ offset: true }),
  message_id: z.string().min(1).max(500),
  conversation_id: z.string().max(500).optional(),
  email: z.string().min(3).max(320),
  enrollment_id: z.uuid().optional().or(z.literal('')),
  step: z.number().int().optional(),
  text: z.string().max(100_000).optional(),
  bounce: z
    .object({ hard: z.boolean(), status: z.string().max(20), diagnostic: z.string().max(2000).optional() })
    .optional(),
  return_date: z.iso.date().optional(),
});

/** Normalises a verified sandbox webhook to the canonical event. */
export function normaliseSandboxEvent(payload: z.infer<typeof SandboxEventPayloadSchema>): CanonicalEvent {
  return CanonicalEventSchema.parse({
    source: 'sandbox',
    externalId: payload.id,
    type: payload.type,
    occurredAt: payload.occurred_at,
    email: payload.email,
    messageId: payload.message_id,
    ...(payload.enrollment_id ? { enrollmentId: payload.enrollment_id } : {}),
    channel: 'email',
    ...(payload.bounce
      ? {
          bounce: {
            hard: payload.bounce.hard,
            status: payload.bounce.status,
            reason: payload.bounce.diagnostic,
          },
        }
      : {}),
    ...(payload.return_date ? { returnDate: payload.return_date } : {}),
    data: { step: payload.step },
  });
}

/**
 * The canonical event of a sandbox event, the same whether it came by webhook or
 * from the pull stream: every sandbox answer answers one of our touches, and a
 * reply's text goes through the classifier like any provider's, so the sandbox's
 * "Thanks, but no thanks." is recorded as `not_interested`, with the rules that said so.
 */
export function sandboxCanonicalEvent(
  payload: z.infer<typeof SandboxEventPayloadSchema>,
  receivedAt: Date,
): CanonicalEvent {
  const event = normaliseSandboxEvent(payload);
  if (payload.type !== 'reply') return { ...event, inReply: true };
  const classified = classifyReplyEvent({ text: payload.text }, receivedAt);
  return { ...event, inReply: true, ...(classified ?? {}) };
}

/** The envelope of a sandbox LinkedIn event: its id, and the channel that tells it from an e-mail answer. */
const SandboxLinkedInEnvelopeSchema = z.object({
  id: z.string().min(1).max(200),
  channel: z.literal('linkedin'),
});

/** Whether a sandbox body is a LinkedIn event (the generic HTTP LinkedIn contract's shape). */
export function isSandboxLinkedInBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { channel?: unknown }).channel === 'linkedin';
}

/**
 * The canonical event of a sandbox LinkedIn body (acceptance, reply, failed
 * invitation), normalised as the generic HTTP provider's events are, with the
 * sandbox as source; `error` names what is wrong with a body that is not one.
 */
export function sandboxLinkedInEvent(body: unknown): { event: CanonicalEvent } | { error: z.ZodError } {
  const envelope = SandboxLinkedInEnvelopeSchema.safeParse(body);
  if (!envelope.success) return { error: envelope.error };
  const e = HttpProviderEventSchema.safeParse(body);
  if (!e.success) return { error: e.error };
  return { event: normaliseHttpEvent(envelope.data.id, e.data, undefined, 'sandbox') };
}
