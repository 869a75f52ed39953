import { afterNodeRan, type SequenceGraph } from '@touchbase/core';
import type { SendContext } from '@touchbase/db';
import type { SendResult } from '@touchbase/providers';
import type { LogCalls } from '@touchbase/telemetry';
import type { SenderContext } from './send-touch.types.js';
import { nextDue } from './touch-timing.js';

/** The touch being recorded: its key parts and the copy's variant. */
type Sent = {
  enrollmentId: string;
  step: number;
  attempt: number;
  variant: number;
  /** False for a LinkedIn action or a manual task: its ids start no e-mail thread. */
  thread?: boolean;
};

/**
 * Records the provider's accept: the touch is `sent`, the enrollment moves to the
 * node of its first timeout, due after that wait, and the next touch's job is scheduled (when the
 * record advanced it: a soft bounce that came first keeps it where it is).
 */
export async function recordSend(
  sc: SenderContext,
  ctx: SendContext,
  graph: SequenceGraph,
  touch: Sent,
  result: SendResult,
  providerName: string,
  log: LogCalls,
): Promise<void> {
  await advance(sc, ctx, graph, touch, result, () => {
    sc.metrics.touchesSent.inc({ provider: providerName });
    if (ctx.nextTouchAt)
      sc.metrics.sendLag.observe(Math.max(0, sc.clock().getTime() - ctx.nextTouchAt.getTime()) / 1000);
    // Debug, not info: a line per touch is the sender's busiest log; touches_sent counts them.
    log.debug(
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
  graph: SequenceGraph,
  touch: Sent,
  providerName: string,
  log: LogCalls,
): Promise<void> {
  await advance(sc, ctx, graph, touch, { messageId: '', conversationId: '', status: 'unknown' }, () => {
    log.warn({ provider: providerName }, 'Touch outcome unknown; not resent');
    sc.metrics.touchesFailed.inc({ provider: providerName, kind: 'unknown' });
  });
}

/**
 * The in-doubt decision every channel makes once its provider cannot confirm an
 * earlier attempt's send: a provider that does not deduplicate by key gets the touch
 * recorded `unknown`, never resent; one that does returns null (a resend with the same
 * key acts at most once).
 */
export async function unknownUnlessIdempotent(
  sc: SenderContext,
  ctx: SendContext,
  graph: SequenceGraph,
  touch: Sent,
  provider: { name: string; idempotent: boolean },
  log: LogCalls,
): Promise<'unknown' | null> {
  if (provider.idempotent) return null;
  await recordUnknown(sc, ctx, graph, touch, provider.name, log);
  return 'unknown';
}

/**
 * Records the touch's outcome with the enrollment's move to the next step, reports
 * it, then schedules the next touch's job when the record advanced the enrollment.
 */
async function advance(
  sc: SenderContext,
  ctx: SendContext,
  graph: SequenceGraph,
  touch: Sent,
  outcome: SendResult & { status?: 'unknown' },
  report: () => void,
): Promise<void> {
  const { enrollmentId, step, attempt } = touch;
  // The next job is the node's first timeout (a chain's: the next step after its wait);
  // an event edge (accepted, opened, clicked) may take the enrollment elsewhere sooner.
  const next = afterNodeRan(graph, step);
  const due = nextDue(ctx, next.wait, sc.clock(), sc.timeScale, sc.jitterMs, sc.doNotContact);
  const dueAt = due.at;
  const advanced = await sc.batches.recordSent({
    enrollmentId,
    step,
    attempt,
    nextStep: next.to,
    ...(touch.thread === false ? { thread: false } : {}),
    messageId: outcome.messageId,
    conversationId: outcome.conversationId,
    nextTouchAt: due.at,
    nextTouchUnfittedAt: due.unfittedAt,
    ...(outcome.status ? { status: outcome.status } : {}),
  });
  report();
  if (advanced !== null) await sc.batches.schedule({ enrollmentId, step: next.to, attempt: advanced, dueAt });
}
