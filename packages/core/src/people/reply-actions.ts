import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import type { CanonicalEvent } from '../events/canonical-event.js';
import { isPausedByOutOfOffice, OUT_OF_OFFICE_REASON } from '../events/event-scope.js';
import { outOfOfficeResumeAt } from '../events/out-of-office.js';
import { scaleDuration } from '../time/time-scale.js';
import { COMPANY_REPLY_REASON, replyClassOf } from './company-stop.js';
import type { ReplyActionSet, ReplyActionsPolicy } from './reply-actions.schemas.js';
import { sequencePoliciesOf } from './sequence-policies.js';

const DAY_MS = 86_400_000;

/** A live enrollment of the person who replied, and the stored policies of its sequence. */
export type OwnEnrollment = {
  id: string;
  status: EnrollmentStatus;
  stopReason: string | null;
  sequencePolicies: unknown;
};

/** What a reply (or an out-of-office) does to the person and their enrollments. */
export type ReplyDecision = {
  /** Enrollments that go on (their sequence chose to continue after this class, or ignores an out-of-office). */
  keep: string[];
  /** Enrollments paused by an out-of-office, until when (the others in `keep`). */
  pauseUntil: Date | null;
  markCrm: boolean;
  notify: boolean;
  /** The referral to put into triage, when the reply names one and the sequence asks for it. */
  referral: string | null;
  /** Until when nobody contacts the person again (a cooldown after "not interested"). */
  contactAfter: Date | null;
};

/** The action set of a reply class in a sequence's policy. */
export function actionSetOf(policy: ReplyActionsPolicy, replyClass: string): ReplyActionSet {
  switch (replyClass) {
    case 'interested':
    case 'meeting_request':
    case 'not_interested':
    case 'wrong_person':
      return policy[replyClass];
    default:
      return policy.other;
  }
}

/** Whether a sequence's enrollment goes on after a reply of this class. */
export function continuesAfterReply(policy: ReplyActionsPolicy, replyClass: string): boolean {
  if (replyClass === 'unsubscribe' || replyClass === 'complaint') return false;
  return !policy.stopOnReply && policy.continueOn.includes(replyClass);
}

/**
 * Classes a `reply` event may carry that are not a person answering: a provider that
 * labels its own messages (or our classifier, before the event's type was set from
 * it) may call an auto-reply, a bounce notice or an opt-out a reply. They keep their
 * own actions (pause, suppress, end) and never take a `replied` edge.
 */
export const NOT_A_PERSONS_ANSWER: readonly string[] = [
  'unsubscribe',
  'complaint',
  'bounce',
  'out_of_office',
  'auto_reply',
];

/**
 * Whether a reply takes the `replied` edge of an enrollment of a sequence with these
 * policies (the edge itself, out of the node the enrollment waits after, is the
 * graph's: `edgeTakenBy`). Yes for a person's answer (interested, meeting_request,
 * not_interested, wrong_person, neutral, a provider's own class, or unclassified: a
 * reply no classifier read) that the sequence would otherwise end on: instead of
 * ending, the enrollment goes along the edge. No for an unsubscribe, a complaint, a
 * bounce or an auto-reply, whatever a provider called them (their own event types
 * never get here), and no for a class the sequence goes on after (`continueOn`): it
 * stays on its track. With `replyActions` off every reply ends every sequence, so
 * every person's answer takes the edge.
 */
export function takesRepliedEdge(
  event: CanonicalEvent,
  sequencePolicies: unknown,
  opts: { replyActions: boolean },
): boolean {
  if (event.type !== 'reply') return false;
  const replyClass = replyClassOf(event);
  if (NOT_A_PERSONS_ANSWER.includes(replyClass)) return false;
  if (!opts.replyActions) return true;
  return !continuesAfterReply(sequencePoliciesOf(sequencePolicies).replyActions, replyClass);
}

/**
 * Pauses a person's own reply lifts to take a `replied` edge: the automatic ones that
 * stand in for the person's answer, an out-of-office (they were away; now they answer)
 * and a colleague's reply (company-level stop; now this person answers for
 * themselves). An operator's pause (`manual_pause`, `manual_pause_until`) is
 * deliberate and a reply never silently undoes it; a pause for a missing template
 * variable waits for an operator too. Those enrollments end on the reply, as before.
 */
export const PAUSES_A_REPLY_LIFTS: readonly string[] = [OUT_OF_OFFICE_REASON, COMPANY_REPLY_REASON];

/**
 * Whether an enrollment in this state may take a `replied` edge at all (whether the
 * reply's class takes it is `takesRepliedEdge`): an active one, or one paused by a
 * pause a reply lifts (`PAUSES_A_REPLY_LIFTS`), which then goes on along the edge,
 * active again. Every other paused one ends on the reply as any reply ends it.
 */
export function repliedEdgeOpenTo(enrollment: {
  status: EnrollmentStatus;
  stopReason: string | null;
}): boolean {
  if (enrollment.status === 'active') return true;
  return (
    enrollment.status === 'paused' &&
    enrollment.stopReason !== null &&
    PAUSES_A_REPLY_LIFTS.includes(enrollment.stopReason)
  );
}

/**
 * The decision on a reply or an out-of-office, from the policies of the sequences
 * the person is live in. Each enrollment ends (or pauses) or goes on as its own
 * sequence says. The side effects (CRM, notification, referral, cooldown) follow
 * the sequence that was answered: the enrollment the event names when it is among
 * the live ones, else the first live one, else the defaults.
 */
export function replyDecisionOf(
  event: CanonicalEvent,
  enrollments: readonly OwnEnrollment[],
  now: Date,
  opts: { timeScale?: number; referral?: string | null } = {},
): ReplyDecision {
  const timeScale = opts.timeScale ?? 1;
  const decision: ReplyDecision = {
    keep: [],
    pauseUntil: null,
    markCrm: false,
    notify: false,
    referral: null,
    contactAfter: null,
  };
  if (event.type === 'out_of_office') {
    for (const e of enrollments) {
      const policy = sequencePoliciesOf(e.sequencePolicies).replyActions;
      if (policy.outOfOffice === 'ignore' && isPausedByOutOfOffice(e)) decision.keep.push(e.id);
    }
    decision.pauseUntil = outOfOfficeResumeAt(now, event.returnDate ?? null, { timeScale });
    return decision;
  }
  if (event.type !== 'reply') return decision;
  const replyClass = replyClassOf(event);
  for (const e of enrollments) {
    if (continuesAfterReply(sequencePoliciesOf(e.sequencePolicies).replyActions, replyClass)) {
      decision.keep.push(e.id);
    }
  }
  const answered = enrollments.find((e) => e.id === event.enrollmentId) ?? enrollments[0];
  const actions = actionSetOf(sequencePoliciesOf(answered?.sequencePolicies).replyActions, replyClass);
  decision.markCrm = actions.markCrm;
  decision.notify = actions.notify;
  const referral = opts.referral ?? event.referral ?? null;
  decision.referral = actions.triageReferral && referral ? referral : null;
  if (actions.cooldownMonths !== null) {
    const wait = actions.cooldownMonths * 30 * DAY_MS;
    decision.contactAfter = new Date(now.getTime() + (timeScale > 1 ? scaleDuration(wait, timeScale) : wait));
  }
  return decision;
}

/** The CRM outbox kind of a positive reply (the contact is marked with the reply's class). */
export const CRM_REPLY_KIND_PREFIX = 'reply:';

/** Lines and characters of a reply kept for a notification. */
const EXCERPT_LINES = 3;
const EXCERPT_CHARS = 300;

/**
 * The first lines of a reply for a notification (quotes stripped before), with
 * e-mail addresses and long digit runs (phone numbers) masked: the notification
 * leaves our system, the person's contact details need not.
 */
export function replyExcerptOf(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .slice(0, EXCERPT_LINES);
  const joined = lines.join('\n');
  const cut = joined.length > EXCERPT_CHARS ? `${joined.slice(0, EXCERPT_CHARS - 1)}…` : joined;
  return cut
    .replace(/[^\s<>()"',;:]+@[^\s<>()"',;:]+\.[A-Za-z]{2,}/g, '[address]')
    .replace(/\+?\d[\d ().-]{6,}\d/g, '[number]');
}

/** Whether a person's cooldown (`prospect.contact_after`) still forbids enrolling them. */
export function inCooldown(contactAfter: Date | null, now: Date): boolean {
  return contactAfter !== null && contactAfter.getTime() > now.getTime();
}

/**
 * Whether a provider's "this person replied" (the pre-send re-check) stops a touch:
 * yes, unless we already recorded a reply from the person and either it took a
 * `replied` edge (the touch is that edge's track: `tookRepliedEdge`) or the sequence
 * goes on after its class. Then the provider only reports the reply we acted on.
 */
export function providerReplyStops(
  policies: unknown,
  recordedReplyClass: string | null,
  tookRepliedEdge = false,
): boolean {
  if (recordedReplyClass === null) return true;
  if (tookRepliedEdge) return false;
  return !continuesAfterReply(sequencePoliciesOf(policies).replyActions, recordedReplyClass);
}
