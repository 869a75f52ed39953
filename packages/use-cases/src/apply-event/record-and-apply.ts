import { randomUUID } from 'node:crypto';
import {
  type CanonicalEvent,
  edgeTriggerOf,
  effectOf,
  eventPathOf,
  noEffectOutcome,
  replyBatchConditionOf,
} from '@touchbase/core';
import type { EventStore } from './apply-event.ports.js';
import { type ApplyOptions, type ApplyResult, duplicateResult, freshResult } from './apply-event.types.js';
import { applyInTransaction } from './apply-in-transaction.js';

/**
 * Records an event once and applies it, in one commit: core decides what the event
 * does (`effectOf`) and which execution applies it (`eventPathOf`); the store
 * persists. A redelivery finds the event recorded and changes nothing; a crash
 * leaves either both or neither.
 *
 * The batched executions (a stop naming our enrollment, a reply that only stops, an effect-free event) carry
 * out the same decision as the general transaction, in one statement shared with
 * the events arriving meanwhile; when they cannot (the enrollment is not found, or
 * the address differs) the general path decides.
 */
export async function recordAndApplyEvent(
  store: EventStore,
  event: CanonicalEvent,
  opts: ApplyOptions = {},
): Promise<ApplyResult> {
  const effect = effectOf(event);
  const path = eventPathOf(event, effect, {
    notifyCrm: opts.notifyCrm ?? false,
    companyStops: opts.companyStops ?? false,
    replyActions: opts.replyActions ?? false,
  });
  if (path === 'informational' && effect.kind === 'none') {
    // An event that can fire a graph edge (accepted, opened, clicked) takes the general
    // transaction, where the edge is taken in the commit that records it, unless it
    // names our enrollment and that one waits after no node: then there is no edge to
    // take and the shared statement records it, as it does every effect-free event.
    if (!edgeTriggerOf(event.type)) return recordInformational(store, event, noEffectOutcome(effect.reason));
    if (event.enrollmentId && noEffectOutcome(effect.reason) === 'no_effect') {
      const id = randomUUID();
      const r = await store.recordInformationalNamingEnrollment({
        id,
        event,
        outcome: 'no_effect',
        edge: true,
      });
      if (r && !('waiting' in r))
        return r.inserted ? freshResult(id, r.prospectId, 'no_effect') : duplicateResult(id);
    }
  }
  if (path === 'batched_stop' && effect.kind === 'stop') {
    const done = await store.applyStopNamingEnrollment({ id: randomUUID(), event, effect });
    if (done) return done;
  }
  if (path === 'batched_reply' && effect.kind === 'stop') {
    // A reply the policies say only ends the person (a decline, by the defaults) is a
    // stop like any other: batched. The statement checks the condition against the
    // stored policies; one that asks for more (a notification, a colleague's pause,
    // going on) is left to the general path.
    const reply = replyBatchConditionOf(event, await store.sequencePolicyTexts(), {
      replyActions: opts.replyActions ?? false,
      companyStops: opts.companyStops ?? false,
      notifyCrm: opts.notifyCrm ?? false,
    });
    const done = await store.applyStopNamingEnrollment({ id: randomUUID(), event, effect, reply });
    if (done) return done;
  }
  return store.transaction((tx) => applyInTransaction(tx, randomUUID(), event, effect, opts));
}

/**
 * An event that changes nothing (opened, delivered, clicked, ...: most of a
 * provider's webhooks): the prospect is resolved and the event inserted already
 * applied, without a transaction of its own. Nobody we know: no effect either
 * (person-written types never take this path, so no triage).
 */
async function recordInformational(
  store: EventStore,
  event: CanonicalEvent,
  outcome: 'no_effect' | 'refused_unsigned',
): Promise<ApplyResult> {
  const id = randomUUID();
  if (event.enrollmentId) {
    // The usual case, named by our enrollment id. Found but not inserted: recorded before.
    const r = await store.recordInformationalNamingEnrollment({ id, event, outcome });
    if (r && !('waiting' in r))
      return r.inserted ? freshResult(id, r.prospectId, outcome) : duplicateResult(id);
  }
  const target = await store.resolveTarget(event);
  const recorded = target ? outcome : 'unknown_prospect';
  const inserted = await store.recordApplied(id, event, recorded, target);
  return inserted ? freshResult(id, target?.prospectId ?? null, recorded) : duplicateResult(id);
}
