import type { SequenceStep } from '@touchbase/core';
import type { SendContext } from '@touchbase/db';
import type { SendResult } from '@touchbase/providers';
import type { LogCalls } from '@touchbase/telemetry';
import type { SenderContext } from './send-touch.types.js';
import { nextDue } from './touch-timing.js';

/** The touch being recorded: its key parts and the copy's variant. */
type Sent = { enrollmentId: string; step: number; attempt: number; variant: number };

/**
 * Records the provider's accept: the touch is `sent`, the enrollment moves to the
 * next step due after its wait, and the next touch's job is scheduled (when the
 * record advanced it: a soft bounce that came first keeps it where it is).
 */
export async function recordSend(
  sc: SenderContext,
  ctx: SendContext,
  steps: SequenceStep[],
  touch: Sent,
  result: SendResult,
  providerName: string,
  log: LogCalls,
): Promise<void> {
  await advance(sc, ctx, steps, touch, result, () => {
    sc.metrics.touchesSent.inc({ provider: providerName });
    if (ctx.nextTouchAt)
      sc.metrics.sendLag.observe(Math.max(0, sc.clock().getTime() - ctx.nextTouchAt.getTime()) / 1000);
    log.info(
      { messageId: result.messageId, variant: touch.variant, mailboxId: ctx.mailbox.id },
      'Touch sent',
    );
  });
}

/**
 * A touch in doubt the provider cannot resolve, with a provider that does not
 * deduplicate by key: it is recorded `unknown` and the sequence goes on. When in
 * doubt, do not resend.
 */
export async function recordUnknown(
  sc: SenderContext,
  ctx: SendContext,
  steps: SequenceStep[],
  touch: Sent,
  providerName: string,
  log: LogCalls,
): Promise<void> {
  await advance(sc, ctx, steps, touch, { messageId: '', conversationId: '', status: 'unknown' }, () => {
    log.warn({ provider: providerName }, 'Touch outcome unknown; not resent');
    sc.metrics.touchesFailed.inc({ provider: providerName, kind: 'unknown' });
  });
}

/**
 * Records the touch's outcome with the enrollment's move to the next step, reports
 * it, then schedules the next touch's job when the record advanced the enrollment.
 */
async function advance(
  sc: SenderContext,
  ctx: SendContext,
  steps: SequenceStep[],
  touch: Sent,
  outcome: SendResult & { status?: 'unknown' },
  report: () => void,
): Promise<void> {
  const { enrollmentId, step, attempt } = touch;
  const due = nextDue(ctx, steps, step, sc.clock(), sc.timeScale, sc.jitterMs);
  const advanced = await sc.batches.recordSent({
    enrollmentId,
    step,
    attempt,
    messageId: outcome.messageId,
    conversationId: outcome.conversationId,
    nextTouchAt: due.at,
    nextTouchUnfittedAt: due.unfittedAt,
    ...(outcome.status ? { status: outcome.status } : {}),
  });
  report();
  if (advanced) await sc.batches.schedule({ enrollmentId, step: step + 1, dueAt: due.at });
}
