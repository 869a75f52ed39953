import { randomUUID } from 'node:crypto';
import type { SandboxDelivery, SandboxEventPayload, SandboxOutcome } from './sandbox.types.js';

/** The webhook body (and stream event) that answers delivery `d` with `outcome`. */
export function sandboxEventPayload(
  d: SandboxDelivery,
  outcome: SandboxOutcome,
  text?: string,
): SandboxEventPayload {
  const base = {
    id: `evt_${randomUUID()}`,
    occurred_at: new Date().toISOString(),
    message_id: d.messageId,
    conversation_id: d.conversationId,
    email: d.to,
    enrollment_id: d.enrollmentId,
    step: d.step,
  };
  if (outcome === 'bounce') {
    return {
      ...base,
      type: 'bounce',
      bounce: { hard: true, status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    };
  }
  if (outcome === 'soft_bounce') {
    return {
      ...base,
      type: 'bounce',
      bounce: { hard: false, status: '4.2.2', diagnostic: '452 4.2.2 Mailbox full' },
    };
  }
  if (outcome === 'out_of_office') {
    const back = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    return {
      ...base,
      type: 'out_of_office',
      text: `I am out of the office until ${back}.`,
      return_date: back,
    };
  }
  return { ...base, type: 'reply', text: text ?? 'Thanks, but no thanks.' };
}
