import { touchKey } from '@touchbase/core';
import type { SendContext } from '@touchbase/db';
import type { SendRequest, TouchStatusAtProvider } from '@touchbase/providers';
import type { LogCalls } from '@touchbase/telemetry';
import type { SenderContext } from './send-touch.types.js';

/**
 * A job that finds its enrollment ended may find its own touch still `sending`: a
 * sender died between the provider's accept and the record, and the answer that
 * ended the enrollment came meanwhile. The touch is settled, never resent: `sent`
 * when the provider has it, `cancelled` when it certainly does not, else `unknown`.
 */
export async function settleStranded(
  sc: SenderContext,
  ctx: SendContext,
  step: number,
  attempt: number,
  log: LogCalls,
): Promise<void> {
  const { touches } = sc.repos;
  if ((await touches.statusOf(ctx.enrollmentId, step, attempt)) !== 'sending') return;
  const key = touchKey(ctx.enrollmentId, step, attempt);
  let found: TouchStatusAtProvider = { state: 'unknown' };
  try {
    const provider = sc.providers.get(ctx.mailbox.provider);
    if (provider.status) found = await provider.status(key, lookupRequest(ctx, key, step));
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'Touch in doubt lookup failed; marked unknown');
  }
  if (found.state === 'sent') {
    await touches.settleInDoubt(ctx.enrollmentId, step, attempt, {
      status: 'sent',
      messageId: found.result.messageId,
    });
  } else if (found.state === 'not_found') {
    await touches.cancel(ctx.enrollmentId, step, 'not_sent: the enrollment ended first', attempt);
  } else {
    await touches.settleInDoubt(ctx.enrollmentId, step, attempt, { status: 'unknown' });
  }
  log.info(
    {
      resolution: found.state,
      ...(found.state === 'unknown' && found.reason ? { reason: found.reason } : {}),
    },
    'Touch in doubt settled after its enrollment ended',
  );
}

/** The touch as a provider's status lookup needs it (recipient, thread, campaign ids), without its copy. */
function lookupRequest(ctx: SendContext, key: string, step: number): SendRequest {
  return {
    idempotencyKey: key,
    from: ctx.mailbox.address,
    to: ctx.prospect.email,
    subject: '',
    body: '',
    conversationId: ctx.conversationId,
    inReplyTo: ctx.firstMessageId,
    metadata: { enrollmentId: ctx.enrollmentId, step, prospectId: ctx.prospect.id },
    mailboxConfig: ctx.mailbox.providerConfig,
  };
}
