import { MANUAL_PAUSE_UNTIL_REASON } from '../enrollment/operator-pause.js';
import type { CanonicalEvent } from '../events/canonical-event.js';
import { OUT_OF_OFFICE_REASON } from '../events/event-scope.js';
import { scaleDuration } from '../time/time-scale.js';
import { type CompanyStopAction, type CompanyStopPolicy, sequencePoliciesOf } from './sequence-policies.js';

const DAY_MS = 86_400_000;

/** The `stop_reason` of a colleague's enrollment ended or paused because someone of their company replied. */
export const COMPANY_REPLY_REASON = 'company_reply';

/**
 * Colleagues' live enrollments in one sequence, with that sequence's stored policies:
 * the policy is read once per sequence, however many colleagues a company has.
 */
export type ColleagueEnrollments = { sequencePolicies: unknown; enrollmentIds: readonly string[] };

/** What a company-level stop does to one colleague's enrollment. */
export type ColleagueDecision =
  | { enrollmentId: string; action: 'end' }
  | { enrollmentId: string; action: 'pause'; until: Date };

/** The reply class a company policy matches on: the classifier's, or `unclassified`. */
export function replyClassOf(event: CanonicalEvent): string {
  return event.classification ?? 'unclassified';
}

/**
 * Company-level stop: a reply from one person of a company acts on their colleagues'
 * live enrollments, each as its own sequence's policy says (`end`, `pause` for N days,
 * or `continue`), and only for the reply classes that policy lists. Only replies
 * count: an unsubscribe or a complaint is one person's choice and ends only them.
 * Colleagues whose sequence says `continue` are left out of the result, which is in
 * enrollment id order.
 */
export function companyStopOf(
  event: CanonicalEvent,
  colleagues: readonly ColleagueEnrollments[],
  now: Date,
  timeScale = 1,
): ColleagueDecision[] {
  if (event.type !== 'reply') return [];
  const replyClass = replyClassOf(event);
  const decisions: ColleagueDecision[] = [];
  for (const c of colleagues) {
    const policy = sequencePoliciesOf(c.sequencePolicies).companyStop;
    const action = actionOn(policy, replyClass);
    if (action === 'end') {
      for (const enrollmentId of c.enrollmentIds) decisions.push({ enrollmentId, action: 'end' });
    }
    if (action === 'pause') {
      const wait = policy.pauseDays * DAY_MS;
      const scaled = timeScale > 1 ? scaleDuration(wait, timeScale) : wait;
      const until = new Date(now.getTime() + scaled);
      for (const enrollmentId of c.enrollmentIds) decisions.push({ enrollmentId, action: 'pause', until });
    }
  }
  return decisions.sort((a, b) =>
    a.enrollmentId < b.enrollmentId ? -1 : a.enrollmentId > b.enrollmentId ? 1 : 0,
  );
}

/** What a sequence's company policy does to colleagues on a reply of this class (`continue` when it does not list it). */
function actionOn(policy: CompanyStopPolicy, replyClass: string): CompanyStopAction {
  const matches = policy.onClasses === 'any' || policy.onClasses.includes(replyClass);
  return matches ? policy.action : 'continue';
}

/** Whether a sequence's company policy acts (ends or pauses colleagues) on this event. */
export function companyStopActsOn(event: CanonicalEvent, policy: CompanyStopPolicy): boolean {
  return event.type === 'reply' && actionOn(policy, replyClassOf(event)) !== 'continue';
}

/** A sequence's stored policies as JSON text (`sequence.policies::text`). */
export type SequencePoliciesText = { id: string; policies: string };

// Parsed company-stop policies by their JSON text: every reply asks about every
// sequence, and a policy only changes when its text does. Bounded: a deployment has
// few distinct texts; past the bound the cache starts over.
const policyByText = new Map<string, CompanyStopPolicy>();
function companyStopPolicyOf(text: string): CompanyStopPolicy {
  let policy = policyByText.get(text);
  if (policy === undefined) {
    policy = sequencePoliciesOf(JSON.parse(text)).companyStop;
    if (policyByText.size >= 1_000) policyByText.clear();
    policyByText.set(text, policy);
  }
  return policy;
}

/**
 * The sequences whose company-level stop acts (ends or pauses) on this event: the
 * only ones whose colleagues a reply needs to read. Most replies (a decline, by the
 * defaults) name none, and then no colleague is read at all, however large the
 * company.
 */
export function sequencesActingOn(
  event: CanonicalEvent,
  sequences: readonly SequencePoliciesText[],
): string[] {
  if (event.type !== 'reply') return [];
  return sequences.flatMap((s) => (companyStopActsOn(event, companyStopPolicyOf(s.policies)) ? [s.id] : []));
}

/** Whether an event may act on the person's colleagues, so it has to take the general path where they are found. */
export function mayReachColleagues(event: CanonicalEvent): boolean {
  return event.type === 'reply';
}

/**
 * Pauses that end by themselves at `next_touch_at` (the reconciler resumes them): an
 * out-of-office, a colleague's reply, an operator's pause until a date.
 */
export const TIMED_PAUSE_REASONS: readonly string[] = [
  OUT_OF_OFFICE_REASON,
  COMPANY_REPLY_REASON,
  MANUAL_PAUSE_UNTIL_REASON,
];
