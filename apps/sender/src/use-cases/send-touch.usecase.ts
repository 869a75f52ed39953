import {
  isStepList,
  missingVariableReason,
  nodeAt,
  renderEmailNode,
  renderTouch,
  type SequenceGraph,
  touchKey,
} from '@touchbase/core';
import type { SendContext } from '@touchbase/db';
import type { ProviderAdapter, SendRequest, SendResult } from '@touchbase/providers';
import { retriesOf } from '@touchbase/queues';
import { deferredChild, type LogCalls } from '@touchbase/telemetry';
import { type Job, UnrecoverableError } from 'bullmq';
import { callProvider, failTouch, lookUpInDoubt } from './call-provider.js';
import { holdForContactPolicy } from './contact-hold.js';
import { holdTouch, waitForWindow } from './hold-touch.js';
import { pickPoolMailbox } from './pick-pool-mailbox.js';
import { askProvider, providerViewStops, stopsTheTouch } from './prospect-recheck.js';
import { recordSend, recordUnknown, unknownUnlessIdempotent } from './record-send.js';
import { sendNonEmailNode } from './send-non-email-node.js';
import type { SenderContext, SendOutcome, TouchToSend } from './send-touch.types.js';
import { settleStranded } from './settle-stranded.js';
import { stopOnProviderView } from './stop-on-provider-view.js';
import { type AskInDoubt, askToken, forgoToken, takeTokenAndClaim } from './take-token-and-claim.js';
import { variablesOf } from './template-variables.js';

/**
 * Sends one touch: re-checks the enrollment, picks the pool's mailbox for a first
 * touch, renders the copy, takes a token from the mailbox's bucket (or waits for
 * one as a delayed job), claims the touch in PostgreSQL (the reply fence), calls
 * the provider with the idempotency key `{enrollmentId}-{step}` (with `-{attempt}`
 * for a resend after a soft bounce), records the send and schedules the next step.
 *
 * Before the token is taken it looks at the sending window (a touch due outside
 * it waits for it); while the token is asked it asks the provider, where the
 * adapter can say, whether it saw a reply, bounce or unsubscribe: then the touch is
 * not sent (a refused token's place in line is given up), the answer is recorded as
 * an event and applied like a webhook (`applyEvent`).
 */
export async function sendTouch(sc: SenderContext, touch: TouchToSend, job: Job): Promise<SendOutcome> {
  const { repos, metrics } = sc;
  const { enrollmentId, step, attempt } = touch;
  const log = deferredChild(sc.logger, { enrollmentId, step, attempt, jobId: job.id });
  let ctx = await sc.batches.load(enrollmentId);
  if (!ctx) return 'gone';
  // A job of another attempt is stale: a soft bounce moved the enrollment on to a resend.
  if (ctx.status !== 'active' || ctx.currentStep !== step || ctx.currentAttempt !== attempt) {
    await settleStranded(sc, ctx, step, attempt, log);
    metrics.touchesSkipped.inc({ reason: 'fenced' });
    return 'fenced';
  }
  const version = await repos.sequences.version(ctx.sequenceVersionId);
  const { graph } = version;
  const node = nodeAt(graph, step);
  // An end node (a chain's is steps + 1): the walk is over without an answer.
  if (!node || node.action === 'end') {
    if (await repos.touches.exhaust(enrollmentId, step)) log.info({ node: node?.id }, 'Enrollment exhausted');
    return 'exhausted';
  }
  if (node.action !== 'email') return sendNonEmailNode(sc, ctx, version, node, touch, job, log);
  const chain = isStepList(version);
  const key = touchKey(enrollmentId, step, attempt);
  // One throttle member per attempt: a retry after a 5xx counts as another
  // possible send; a job back from a throttle wait or a 429 keeps its place and slot.
  const member = `${key}.${retriesOf(job)}.${job.stalledCounter ?? 0}`;
  let tokenTaken = false;
  // The first e-mail of a pool sequence picks its mailbox (a chain's step 1; a graph's
  // first e-mail node the walk reaches, whatever LinkedIn did before).
  if (ctx.mailboxPoolId && !ctx.conversationId && (!chain || step === 1)) {
    const at = chain ? undefined : { step, emailNodes: emailNodesOf(graph) };
    const picked = await pickPoolMailbox(sc, ctx, ctx.mailboxPoolId, member, at);
    if (!picked) return holdTouch(sc, job, 'pool_unavailable');
    ctx = picked.ctx;
    tokenTaken = picked.granted;
  }
  if ((ctx.domain.status === 'paused' && ctx.domain.holdTouches) || ctx.mailbox.status === 'paused') {
    // Held, not lost: the job comes back later; resuming the domain reschedules it sooner.
    return holdTouch(sc, job, 'held');
  }
  await waitForWindow(sc, ctx, job, log);
  // Contact policies (cooldown, new people a day, recipient-domain cap): last before
  // the copy, inside the window, so a slot of a day cap is taken by a touch about to go.
  await holdForContactPolicy(sc, ctx, attempt, key, job, log);

  const seed = `${ctx.prospect.id}-${ctx.sequenceId}`;
  const content = chain
    ? renderTouch(version.steps, step, variablesOf(ctx), seed)
    : renderEmailNode(graph, step, variablesOf(ctx), seed, ctx.firstMessageId !== null);
  if (!content.ok) {
    const reason = missingVariableReason(content.missing);
    await repos.touches.pause(enrollmentId, step, reason);
    log.warn({ missing: content.missing }, 'Enrollment paused for a missing template variable');
    metrics.touchesSkipped.inc({ reason: 'missing_variable' });
    return 'paused_missing_variable';
  }

  const request = sendRequestOf(sc, ctx, key, step, content);
  const provider = sc.providers.get(ctx.mailbox.provider);

  const bucket = tokenTaken ? null : { id: ctx.mailbox.id, limits: ctx.mailbox };
  const recheck = sc.recheck !== false && provider.prospectStatus !== undefined;
  // The token is asked while the provider is asked about the prospect: the touch waits
  // for the slower of the two, not for both in turn. A touch the answer stops gives it up.
  const asked = recheck && sc.throttle && bucket ? askToken(sc.throttle, bucket, member) : null;
  if (recheck) {
    const forgo = async () => {
      if (asked && bucket && sc.throttle) await forgoToken(sc.throttle, bucket, member, asked, log);
    };
    let stopped: SendOutcome | null;
    try {
      stopped = await recheckStop(sc, provider, ctx, request, attempt, log);
    } catch (err) {
      await forgo();
      throw err;
    }
    if (stopped !== null) {
      await forgo();
      return stopped;
    }
  }

  const sent = { enrollmentId, step, attempt, variant: content.variant };
  // What the in-doubt claim below would decide, taken without a token: a send the
  // provider confirms is recorded; a provider that does not deduplicate gets the touch
  // recorded unknown; `not_sent` only where a resend is what the claim would do.
  const askInDoubt: AskInDoubt = async () => {
    const found = await lookUpInDoubt(provider, request, log);
    if (found.state === 'sent') {
      await recordSend(sc, ctx, graph, sent, found.result, provider.name, log);
      return 'sent';
    }
    if (await unknownUnlessIdempotent(sc, ctx, graph, sent, provider, log)) return 'unknown';
    return found.state === 'not_found' ? 'not_sent' : null;
  };
  const claim = await takeTokenAndClaim(
    sc,
    ctx,
    { ...touch, key, member, variant: content.variant },
    bucket,
    job,
    asked,
    askInDoubt,
  );
  if (claim.kind !== 'claimed' && claim.kind !== 'in_doubt') return claim.kind;

  if (sc.timeScale > 1 && provider.name !== 'sandbox') {
    await repos.touches.release(enrollmentId, step, attempt);
    throw new UnrecoverableError('TIME_SCALE above 1 is for the sandbox provider only');
  }
  let result: SendResult;
  if (claim.kind === 'in_doubt') {
    // An earlier attempt handed this touch over and died before recording the
    // answer. Resend only when the provider guarantees the key deduplicates;
    // otherwise ask it, and when it cannot say, do not resend.
    const found = await lookUpInDoubt(provider, request, log);
    if (found.state === 'sent') {
      result = found.result;
    } else if (provider.idempotent) {
      const call = await callProvider(sc, provider, ctx, request, claim, job, log, attempt);
      if (!call.ok) return failTouch(sc, ctx, step, call.reason, attempt);
      result = call.result;
    } else {
      await recordUnknown(sc, ctx, graph, sent, provider.name, log);
      return 'unknown';
    }
  } else {
    const call = await callProvider(sc, provider, ctx, request, claim, job, log, attempt);
    if (!call.ok) return failTouch(sc, ctx, step, call.reason, attempt);
    result = call.result;
  }

  await recordSend(sc, ctx, graph, sent, result, provider.name, log);
  return claim.kind === 'in_doubt' ? 'resent_in_doubt' : 'sent';
}

/**
 * Asks the provider what it saw of the prospect: the outcome that stops the touch (the
 * answer recorded and applied like a webhook), or null when the touch goes on.
 */
async function recheckStop(
  sc: SenderContext,
  provider: ProviderAdapter,
  ctx: SendContext,
  request: SendRequest,
  attempt: number,
  log: LogCalls,
): Promise<SendOutcome | null> {
  const seen = await askProvider(provider, request, sc.recheckTimeoutMs ?? 2_000, log);
  if (!stopsTheTouch(seen) || !(await providerViewStops(sc, ctx.sequenceId, ctx.prospect.id, seen)))
    return null;
  const outcome = await stopOnProviderView(sc, provider, seen, request, attempt, log);
  if (outcome !== null) await settleStranded(sc, ctx, request.metadata.step, attempt, log);
  return outcome;
}

function sendRequestOf(
  sc: SenderContext,
  ctx: SendContext,
  key: string,
  step: number,
  content: { subject: string; body: string },
): SendRequest {
  return {
    idempotencyKey: key,
    from: ctx.mailbox.address,
    to: ctx.prospect.email,
    subject: content.subject,
    body: content.body,
    conversationId: ctx.conversationId,
    inReplyTo: ctx.firstMessageId,
    metadata: { enrollmentId: ctx.enrollmentId, step, prospectId: ctx.prospect.id },
    prospect: {
      firstName: ctx.prospect.firstName,
      lastName: ctx.prospect.lastName,
      company: ctx.prospect.company,
    },
    mailboxConfig: ctx.mailbox.providerConfig,
    unsubscribeUrl: sc.unsubscribeUrl?.(ctx.enrollmentId) ?? null,
  };
}

function emailNodesOf(graph: SequenceGraph): number[] {
  return graph.nodes.flatMap((n, i) => (n.action === 'email' ? [i + 1] : []));
}
