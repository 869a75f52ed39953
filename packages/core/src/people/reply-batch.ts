import type { CanonicalEvent } from '../events/canonical-event.js';
import { companyStopActsOn, replyClassOf } from './company-stop.js';
import { actionSetOf, continuesAfterReply } from './reply-actions.js';
import { type SequencePolicies, sequencePoliciesOf } from './sequence-policies.js';

/**
 * When a reply naming our enrollment may be applied by the batched stop (one
 * statement shared with the replies arriving meanwhile) instead of a transaction of
 * its own: when, under the policies the statement finds, the general path would only
 * end the person's live enrollments. The statement checks it against the stored
 * policies as it runs (a policy changed a moment ago is seen), and leaves the reply
 * to the general path otherwise.
 */
export type ReplyBatchCondition = {
  /**
   * Policy texts (`sequence.policies::text`) under which this reply ends the person's
   * enrollment and does nothing else: no going on, no CRM mark, no notification, no
   * referral, no cooldown. Every live enrollment of the person must be in a sequence
   * with one of them. Null: reply actions off, every reply only ends.
   */
  ownEnds: string[] | null;
  /** With no live enrollment the defaults decide the side effects: whether they leave none. */
  endsWithoutLive: boolean;
  /**
   * Policy texts whose company-level stop leaves colleagues alone on this reply: no
   * colleague (same company domain) may be live in a sequence with another one.
   * Null: company-level stop off.
   */
  colleaguesLeft: string[] | null;
};

/**
 * Whether a reply, for a person live in a sequence with these policies (or, for the
 * side effects, answering it), only ends that enrollment: what `replyDecisionOf`
 * decides then keeps nothing going and asks for nothing besides the stop.
 */
export function replyOnlyEnds(
  event: CanonicalEvent,
  policies: SequencePolicies,
  opts: { notifyCrm: boolean },
): boolean {
  const replyClass = replyClassOf(event);
  const actions = policies.replyActions;
  if (continuesAfterReply(actions, replyClass)) return false;
  const set = actionSetOf(actions, replyClass);
  if (set.markCrm && opts.notifyCrm) return false;
  if (set.notify || set.cooldownMonths !== null) return false;
  return !(set.triageReferral && event.referral);
}

// Parsed policies by their JSON text: every reply asks about every distinct text, and
// a deployment has few. Bounded: past the bound the cache starts over.
const policiesByText = new Map<string, SequencePolicies>();
function policiesOfText(text: string): SequencePolicies {
  let policies = policiesByText.get(text);
  if (policies === undefined) {
    policies = sequencePoliciesOf(JSON.parse(text));
    if (policiesByText.size >= 1_000) policiesByText.clear();
    policiesByText.set(text, policies);
  }
  return policies;
}

/**
 * The condition under which a reply may take the batched stop (`ReplyBatchCondition`),
 * from the distinct policy texts of the sequences known to the caller (a text it does
 * not know is in neither list, so a reply that meets it takes the general path).
 */
export function replyBatchConditionOf(
  event: CanonicalEvent,
  policyTexts: readonly string[],
  opts: { replyActions: boolean; companyStops: boolean; notifyCrm: boolean },
): ReplyBatchCondition {
  const ends = (text: string) => replyOnlyEnds(event, policiesOfText(text), opts);
  return {
    ownEnds: opts.replyActions ? policyTexts.filter(ends) : null,
    endsWithoutLive: !opts.replyActions || replyOnlyEnds(event, policiesOfText('{}'), opts),
    colleaguesLeft: opts.companyStops
      ? policyTexts.filter((text) => !companyStopActsOn(event, policiesOfText(text).companyStop))
      : null,
  };
}
