import { type CanonicalEvent, CanonicalEventSchema, classifyReplyEvent } from '@touchbase/core';
import { z } from 'zod';

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
