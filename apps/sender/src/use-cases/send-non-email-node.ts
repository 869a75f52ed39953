import {
  afterNodeFailed,
  type LinkedInAction,
  linkedInActionOf,
  missingVariableReason,
  nodeAt,
  renderNodeText,
  type SequenceNode,
  timingSourceFor,
  touchKey,
  waitsForSendingSlot,
} from '@touchbase/core';
import {
  type LinkedInAccountRow,
  linkedInCapsOf,
  type SendContext,
  type SequenceVersionRow,
} from '@touchbase/db';
import {
  LinkedInActionError,
  type LinkedInSender,
  LinkedInThrottle,
  linkedInBucketOf,
} from '@touchbase/providers';
import { retriesOf } from '@touchbase/queues';
import type { LogCalls } from '@touchbase/telemetry';
import { takeEarlyEdges } from '@touchbase/use-cases';
import { DelayedError, type Job } from 'bullmq';
import { holdForContactPolicy } from './contact-hold.js';
import { holdTouch, waitForWindow } from './hold-touch.js';
import { recordSend, recordUnknown, unknownUnlessIdempotent } from './record-send.js';
import type { SenderContext, SendOutcome, TouchToSend } from './send-touch.types.js';
import { takeTokenAndClaim } from './take-token-and-claim.js';
import { variablesOf } from './template-variables.js';
import { nextDue } from './touch-timing.js';

/**
 * Runs a node that is not an e-mail: a LinkedIn action through the
 * {@link LinkedInSender} port (from the enrollment's LinkedIn account, chosen from
 * the sequence's pool at its first LinkedIn node, within that account's caps per
 * action through the Throttle port), or a manual task (recorded for a person to
 * do; the walk goes on along its timeouts). The same fence as an e-mail: the claim
 * (enrollment still active at this node and attempt, address not suppressed)
 * before the call, the idempotency key `{enrollmentId}-{node}[-{attempt}]`.
 *
 * A LinkedIn action that fails for good because of the prospect (profile not
 * found, not connectable, already invited) takes the node's `failed` edge, or
 * skips along its timeouts to the next node of another channel (core's
 * `afterFailure`); the reason stays on the touch row, which "why isn't it
 * sending" shows. A refusal that blames our account pauses the account and holds
 * the touch.
 */
export async function sendNonEmailNode(
  sc: SenderContext,
  ctx: SendContext,
  version: SequenceVersionRow,
  node: SequenceNode,
  touch: TouchToSend,
  job: Job,
  log: LogCalls,
): Promise<SendOutcome> {
  const { enrollmentId, step, attempt } = touch;
  const key = touchKey(enrollmentId, step, attempt);
  const member = `${key}.${retriesOf(job)}.${job.stalledCounter ?? 0}`;
  const vars = variablesOf(ctx);
  const text = renderNodeText(version.graph, step, vars);
  if (!text.ok) {
    await sc.repos.touches.pause(enrollmentId, step, missingVariableReason(text.missing));
    log.warn({ missing: text.missing, node: node.id }, 'Enrollment paused for a missing template variable');
    sc.metrics.touchesSkipped.inc({ reason: 'missing_variable' });
    return 'paused_missing_variable';
  }
  const sent = { enrollmentId, step, attempt, variant: 0, thread: false };

  // A manual task waits for no sending slot (core's rule, which "why isn't it sending"
  // follows too): no window, contact policy or cap; the claim is its only fence.
  if (!waitsForSendingSlot(node.action)) {
    const claim = await sc.batches.claim({
      versionId: ctx.sequenceVersionId,
      enrollmentId,
      step,
      attempt,
      idempotencyKey: key,
      email: ctx.prospect.email,
      variant: 0,
    });
    if (claim.kind !== 'claimed' && claim.kind !== 'in_doubt') return claim.kind;
    // Nothing is sent: the task is on the timeline for a person, and the walk goes on.
    log.info({ node: node.id, title: 'title' in node ? node.title : undefined }, 'Manual task due');
    await recordSend(
      sc,
      ctx,
      version.graph,
      sent,
      { messageId: `task-${key}`, conversationId: '' },
      'manual',
      log,
    );
    return 'sent';
  }

  const action = linkedInActionOf(node.action);
  const target = await sc.repos.linkedinAccounts.targetOf(enrollmentId);
  if (!action || !target) return 'gone';
  const account = target.account ?? (await pickAccount(sc, ctx, action));
  if (!account) return holdTouch(sc, job, 'pool_unavailable');
  if (account.status !== 'active') return holdTouch(sc, job, 'held');
  const sender = sc.linkedIn?.senders.get(account.provider);
  if (!sender) {
    log.warn(
      { provider: account.provider, linkedinAccountId: account.id },
      'No LinkedIn sender for the account; touch held',
    );
    return holdTouch(sc, job, 'held');
  }
  if (!target.profileUrl) return failNode(sc, ctx, version, touch, null, 'no_linkedin_profile', log);

  // The action goes out in the account's window and zone (core's timingSourceFor), not the
  // mailbox's: the window waited for here, and the slot a refused token comes back at.
  const timed = timingSourceFor(ctx, node.action, account);
  await waitForWindow(sc, timed, job, log);
  // Contact policies are about the person, whatever the channel: a graph's first
  // touch may be a LinkedIn invitation (cooldown, new people a day).
  await holdForContactPolicy(sc, ctx, attempt, key, job, log);
  const bucket = linkedInBucketOf({ id: account.id, caps: linkedInCapsOf(account) }, action);
  // An earlier attempt may have acted, and no LinkedIn provider can say whether it did:
  // one that takes no key never acts twice (recorded unknown), at the claim or, when the
  // token is refused, at once (that attempt's grant paid for it); one that does resends.
  const inDoubt = () => unknownUnlessIdempotent(sc, ctx, version.graph, sent, sender, log);
  const claim = await takeTokenAndClaim(
    sc,
    timed,
    { ...touch, key, member, variant: 0 },
    bucket,
    job,
    null,
    inDoubt,
  );
  if (claim.kind !== 'claimed' && claim.kind !== 'in_doubt') return claim.kind;
  if (claim.kind === 'in_doubt' && (await inDoubt())) return 'unknown';
  const req = { accountId: account.providerAccountId, profileUrl: target.profileUrl, idempotencyKey: key };
  try {
    const result =
      node.action === 'linkedin_connect'
        ? await sender.sendInvitation({ ...req, note: text.text })
        : node.action === 'linkedin_message'
          ? await sender.sendMessage({ ...req, text: text.text ?? '' })
          : await sender.visitProfile(req);
    await recordSend(
      sc,
      ctx,
      version.graph,
      sent,
      { messageId: result.providerMessageId, conversationId: '' },
      sender.name,
      log,
    );
    if (node.action === 'linkedin_connect') await takeEdgesArrivedEarly(sc, ctx, touch, log);
    return claim.kind === 'in_doubt' ? 'resent_in_doubt' : 'sent';
  } catch (err) {
    if (!(err instanceof LinkedInActionError)) throw err;
    sc.metrics.touchesFailed.inc({ provider: sender.name, kind: err.reason });
    const release = claim.kind === 'claimed' && err.notSent;
    if (err.blamesAccount) {
      if (release) await sc.repos.touches.release(enrollmentId, step, attempt);
      if (await sc.repos.linkedinAccounts.pause(account.id, `${err.reason}: ${err.message}`))
        log.error(
          { linkedinAccountId: account.id, reason: err.reason },
          'LinkedIn account paused: the provider blamed it',
        );
      return holdTouch(sc, job, 'account_paused');
    }
    if (err.permanent) return failNode(sc, ctx, version, touch, sender.name, err.reason, log);
    if (release) await sc.repos.touches.release(enrollmentId, step, attempt);
    if (err.reason === 'rate_limited') {
      log.info({ retryAfterMs: err.retryAfterMs }, 'LinkedIn provider rate limited; touch waits');
      await job.moveToDelayed(Date.now() + (err.retryAfterMs ?? 60_000), job.token);
      throw new DelayedError();
    }
    if (!err.notSent && !sender.idempotent) {
      // It may have acted and cannot deduplicate: when in doubt, do not act again.
      await recordUnknown(sc, ctx, version.graph, sent, sender.name, log);
      return 'unknown';
    }
    log.warn(
      { reason: err.reason, err: err.message },
      'LinkedIn action failed; will retry with the same key',
    );
    throw err;
  }
}

/**
 * An acceptance (or a late failure) may have come back before this invitation's
 * record committed: it takes its edge now (`takeEarlyEdges`). A failure here is
 * logged; the enrollment then goes on along its timeout.
 */
async function takeEdgesArrivedEarly(
  sc: SenderContext,
  ctx: SendContext,
  touch: TouchToSend,
  log: LogCalls,
): Promise<void> {
  try {
    await takeEarlyEdges(
      {
        events: sc.repos.events,
        touchQueue: sc.touchQueue,
        logger: sc.logger,
        clock: sc.clock,
        timeScale: sc.timeScale,
        doNotContact: sc.doNotContact,
      },
      ctx.prospect.id,
      touch,
    );
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'Early LinkedIn events not applied; the timeout edge stays');
  }
}

/** The pool's active LinkedIn account with the most room today for this action, kept by the enrollment from now on. */
async function pickAccount(
  sc: SenderContext,
  ctx: SendContext,
  action: LinkedInAction,
): Promise<LinkedInAccountRow | null> {
  if (!ctx.mailboxPoolId) return null;
  const accounts = await sc.repos.linkedinAccounts.activeInPool(ctx.mailboxPoolId);
  if (accounts.length === 0) return null;
  const used = sc.throttle
    ? await new LinkedInThrottle(sc.throttle).usedToday(
        accounts.map((a) => a.id),
        action,
      )
    : new Map<string, number>();
  const ranked = [...accounts].sort(
    (a, b) => (used.get(a.id) ?? 0) - (used.get(b.id) ?? 0) + (Math.random() - 0.5) * 0.5,
  );
  const kept = await sc.repos.linkedinAccounts.assignToEnrollment(ctx.enrollmentId, ranked[0]!.id);
  return accounts.find((a) => a.id === kept) ?? (kept ? await sc.repos.linkedinAccounts.get(kept) : null);
}

/**
 * The node's action failed for good because of the prospect: the touch is `failed`
 * with the reason, and the enrollment takes the failure edge or skips to another
 * channel, due at once (moved into the window).
 */
async function failNode(
  sc: SenderContext,
  ctx: SendContext,
  version: SequenceVersionRow,
  touch: TouchToSend,
  provider: string | null,
  reason: string,
  log: LogCalls,
): Promise<SendOutcome> {
  const { enrollmentId, step, attempt } = touch;
  const next = afterNodeFailed(version.graph, step);
  const dueAt = nextDue(ctx, next.wait, sc.clock(), sc.timeScale, sc.jitterMs, sc.doNotContact).at;
  if (!provider) {
    // Nothing was claimed yet (no profile to act on): leave the failed touch as the reason's record.
    const claim = await sc.batches.claim({
      versionId: ctx.sequenceVersionId,
      enrollmentId,
      step,
      attempt,
      idempotencyKey: touchKey(enrollmentId, step, attempt),
      email: ctx.prospect.email,
      variant: 0,
    });
    if (claim.kind !== 'claimed') return claim.kind === 'in_doubt' ? 'fenced' : claim.kind;
  }
  const moved = await sc.repos.touches.failNode({
    enrollmentId,
    step,
    attempt,
    reason: `linkedin_${reason}`,
    nextStep: next.to,
    nextTouchAt: dueAt,
  });
  log.warn(
    {
      node: nodeAt(version.graph, step)?.id,
      reason,
      to: nodeAt(version.graph, next.to)?.id,
      skipped: next.skipped,
    },
    'LinkedIn action failed for good; enrollment takes the failure edge',
  );
  if (moved !== null) await sc.batches.schedule({ enrollmentId, step: next.to, attempt: moved, dueAt });
  return 'failed';
}
