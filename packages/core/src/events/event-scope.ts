import { normalisedEmail } from '../contact/email-address.js';
import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import { LIVE_STATUSES } from '../enrollment/enrollment-status.js';
import { reactivationTriggerOf } from '../people/reactivation.js';
import type { CanonicalEvent, EventType } from './canonical-event.js';
import type { EventEffect } from './event-effect.js';

/**
 * Scope: an event is about one person, and it acts on every sequence of that
 * prospect, not only the enrollment it names (a reply to sequence A ends sequence B
 * too). These say which of the prospect's enrollments each effect touches.
 */

/** A stop ends every live enrollment of the prospect, in every sequence. */
export const STOPPED_STATUSES: readonly EnrollmentStatus[] = LIVE_STATUSES;

/** The `stop_reason` of an out-of-office pause (and the reason an expired pause is resumed for). */
export const OUT_OF_OFFICE_REASON = 'out_of_office';

/** A pause takes the active enrollments, and re-dates those an earlier out-of-office paused. */
export function isPausedByOutOfOffice(enrollment: {
  status: EnrollmentStatus;
  stopReason: string | null;
}): boolean {
  return (
    enrollment.status === 'active' ||
    (enrollment.status === 'paused' && enrollment.stopReason === OUT_OF_OFFICE_REASON)
  );
}

/** An address change resumes the enrollments the old address's bounce ended (the old address stays suppressed). */
export const RESUMED_BY_ADDRESS_CHANGE: EnrollmentStatus = 'bounced';

/** Event types a person writes: when nobody we know wrote them, a person should look. */
export const PERSON_WRITTEN_TYPES: readonly EventType[] = ['reply', 'out_of_office', 'unsubscribe'];

/** A message nobody we know wrote, for the triage list: its kind and the address (or profile) it came from. */
export type TriageOf = { kind: 'unknown_sender' | 'cold_inbound'; from: string };

/**
 * Triage eligibility: a person-written event from someone we cannot resolve goes
 * to the triage list when it says who wrote it; anything else changes nothing.
 */
export function triageOf(event: CanonicalEvent): TriageOf | null {
  if (!PERSON_WRITTEN_TYPES.includes(event.type) || (!event.email && !event.linkedinUrl)) return null;
  return {
    kind: event.inReply === false ? 'cold_inbound' : 'unknown_sender',
    from: event.email ? normalisedEmail(event.email) : (event.linkedinUrl ?? '').trim().toLowerCase(),
  };
}

/** Whether a stop is written to the audit log as it is applied: unsubscribes are absolute and audited, whichever way they came. */
export function auditsStop(event: CanonicalEvent): boolean {
  return event.type === 'unsubscribe';
}

/**
 * Which execution applies an event. The decision is the same on every path; the
 * batched ones do it in one shared statement for speed:
 * - `informational`: no effect; recorded already applied (batched when it names our enrollment);
 * - `batched_stop`: a stop naming our enrollment, with no audit and no CRM to tell;
 * - `batched_reply`: a reply naming our enrollment with reply actions or company-level
 *   stop on: batched as a stop when the policies the statement finds leave nothing
 *   else to do (`replyBatchConditionOf`: a decline, by the defaults), else general;
 * - `general`: everything else, in a transaction of its own.
 */
export function eventPathOf(
  event: CanonicalEvent,
  effect: EventEffect,
  opts: { notifyCrm: boolean; companyStops?: boolean; replyActions?: boolean },
): 'informational' | 'batched_stop' | 'batched_reply' | 'general' {
  // A CRM change that may reactivate the person, or cancel their reactivations, is looked at in a transaction.
  if (reactivationTriggerOf(event) || event.type === 'crm.deal_won') return 'general';
  if (effect.kind === 'none') return 'informational';
  if (
    effect.kind === 'stop' &&
    event.enrollmentId &&
    !auditsStop(event) &&
    !(effect.invalidateEmail && opts.notifyCrm)
  ) {
    return (opts.companyStops || opts.replyActions) && event.type === 'reply'
      ? 'batched_reply'
      : 'batched_stop';
  }
  return 'general';
}

/** The recorded outcome of an event without effect. */
export function noEffectOutcome(reason: string): 'refused_unsigned' | 'no_effect' {
  return reason === 'refused_unsigned' ? 'refused_unsigned' : 'no_effect';
}

/**
 * An address change: the prospect moves to the normalised new address, unless it is
 * the address it already has (then nothing changes).
 */
export function addressChangeOf(current: string, newEmail: string): string | null {
  const next = normalisedEmail(newEmail);
  return next === current ? null : next;
}
