import {
  type CanonicalEvent,
  type EventEffect,
  edgeTriggerOf,
  noEffectOutcome,
  softBounceEffect,
} from '@touchbase/core';
import type { EventTransaction } from './apply-event.ports.js';
import { type ApplyOptions, type ApplyResult, duplicateResult, freshResult } from './apply-event.types.js';
import { changeAddress } from './effects/change-address.effect.js';
import { stopColleagues } from './effects/company-stop.effect.js';
import { erase } from './effects/erase.effect.js';
import { pause } from './effects/pause.effect.js';
import { cancelReactivations, planReactivation } from './effects/reactivation.effect.js';
import { takeRepliedEdges } from './effects/replied-edge.effect.js';
import { actOnReply, pauseAsSequencesSay } from './effects/reply-actions.effect.js';
import { resendAfterSoftBounce } from './effects/resend.effect.js';
import { stop } from './effects/stop.effect.js';
import { takeEdges } from './effects/take-edge.effect.js';
import { unresolved } from './effects/unresolved.effect.js';

/**
 * The general path, in one transaction: record the event, resolve whom it is about,
 * decide its effect (a soft bounce's depends on the streak so far), persist it,
 * and mark the event applied with its outcome.
 */
export async function applyInTransaction(
  tx: EventTransaction,
  id: string,
  event: CanonicalEvent,
  decided: EventEffect,
  opts: ApplyOptions,
): Promise<ApplyResult> {
  // A reply acted on as its sequences say reads the person's live enrollments first:
  // read with the insert, one round trip for both.
  const repliedTo = decided.kind === 'stop' && event.type === 'reply' && (opts.replyActions ?? false);
  const recorded = await tx.insertEventAndResolve(id, event, { withLive: repliedTo });
  if (!recorded.inserted) return duplicateResult(id);
  const result = freshResult(id, null, 'no_effect');

  const target = recorded.target;
  if (!target) {
    const r = await unresolved(tx, id, event);
    result.outcome = r.outcome;
    result.triaged = r.triaged;
    await tx.finishEvent(id, result.outcome, null, null);
    return result;
  }
  result.prospectId = target.prospectId;

  const effect =
    decided.kind === 'soft_bounce'
      ? softBounceEffect(event, (await tx.softBouncesInARow(target.prospectId)) + 1)
      : decided;
  const now = opts.now ?? new Date();
  const timeScale = opts.timeScale ?? 1;
  // How the touches this event places are timed (an edge's next node, a resend).
  const settings = { timeScale, doNotContact: opts.doNotContact };
  switch (effect.kind) {
    case 'stop': {
      const notifyCrm = opts.notifyCrm ?? false;
      const replyActions = opts.replyActions ?? false;
      // A person's reply first moves the enrollments waiting on a `replied` edge along
      // it; they are left out of the stop. Its other effects apply as they would.
      result.moved = await takeRepliedEdges(tx, id, event, target, { now, settings, replyActions });
      const tookEdge = result.moved.map((m) => m.id);
      const r =
        event.type === 'reply' && replyActions
          ? await actOnReply(
              tx,
              id,
              event,
              target,
              effect,
              { now, timeScale, notifyCrm, tookEdge },
              recorded.live,
            )
          : { ...(await stop(tx, id, event, target, effect, notifyCrm, tookEdge)), alertIds: [] };
      // Colleagues only when company-level stop is on (INGEST_COMPANY_STOP): off, a reply
      // stops only the person, and no reply reads their company's enrollments.
      const colleagues = opts.companyStops ? await stopColleagues(tx, id, event, target, now, timeScale) : [];
      result.stopped = [...r.stopped, ...colleagues];
      result.crmQueued = r.crmQueued;
      result.alertIds = r.alertIds;
      result.outcome = result.moved.length > 0 ? 'edge_taken' : 'applied';
      break;
    }
    case 'pause':
      result.stopped = opts.replyActions
        ? await pauseAsSequencesSay(tx, event, target, now, timeScale)
        : await pause(tx, target, effect.returnDate, now, timeScale);
      result.outcome = 'paused';
      break;
    case 'soft_bounce': {
      // Fewer than three in a row: the address may recover; the count lives in the log,
      // and the touch that bounced is sent again later, when it is still the current one.
      const retry = await resendAfterSoftBounce(tx, event, target, now, settings, opts.softBounceRetryMs);
      if (retry) result.retried.push(retry);
      result.outcome = 'soft_bounce';
      break;
    }
    case 'email_changed': {
      const r = await changeAddress(tx, target, effect.newEmail);
      result.outcome = r.outcome;
      result.resumed = r.resumed;
      break;
    }
    case 'erase':
      result.stopped = await erase(tx, id, event, target);
      result.outcome = 'erased';
      break;
    case 'none': {
      result.outcome = noEffectOutcome(effect.reason);
      // No effect of its own, but it may fire an edge of the prospect's graph sequences.
      const trigger = edgeTriggerOf(event.type);
      if (trigger && result.outcome === 'no_effect') {
        result.moved = await takeEdges(tx, id, event, target, trigger, now, settings);
        if (result.moved.length > 0) result.outcome = 'edge_taken';
      }
      break;
    }
  }

  const erased = effect.kind === 'erase';
  if (!erased) {
    // Reactivation: a won deal cancels the person's pending ones; a lost deal (or a
    // lifecycle stage set back) schedules one, after the stop above ended the sequence.
    if (event.type === 'crm.deal_won')
      result.reactivationsSkipped = await cancelReactivations(tx, id, event, target);
    const planned = await planReactivation(tx, id, event, target, now, timeScale);
    if (planned) {
      result.reactivations.push(planned);
      if (result.outcome === 'no_effect') result.outcome = 'applied';
    }
  }
  // An erased person leaves no link from the log to them. The touches being sent of
  // the enrollments it stopped are read with the finish, after the stop (its own statement).
  const inFlight = await tx.finishEvent(
    id,
    result.outcome,
    erased ? null : target.prospectId,
    erased ? null : target.enrollmentId,
    result.stopped.length > 0 && !erased ? result.stopped : undefined,
  );
  if (result.stopped.length > 0 && !erased) result.inFlight = inFlight;
  return result;
}
