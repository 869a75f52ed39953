import type { DoNotContactTable } from '@touchbase/core';

/** An enrollment whose pending job should be removed (stopped or paused) or created (resumed). */
export type EnrollmentStep = { id: string; currentStep: number; currentAttempt: number };

/** An enrollment made active again, due at `nextTouchAt`. */
export type ResumedEnrollment = EnrollmentStep & { nextTouchAt: Date };

/**
 * A soft-bounced touch sent back to be resent: the enrollment is again at `step`,
 * now at `attempt`, due at `nextTouchAt`. `replaces` is the job of the step it had
 * moved on to (only because the bounced touch was recorded as sent), to remove.
 */
export type SoftBounceRetry = {
  id: string;
  step: number;
  attempt: number;
  nextTouchAt: Date;
  replaces: { step: number; attempt: number } | null;
};

/**
 * An enrollment an event moved along an edge of its graph: the timeout's touch it
 * was waiting for (its job to remove) and the node's touch it now waits for (its job to add).
 */
export type EdgeMove = {
  id: string;
  from: { step: number; attempt: number };
  to: { step: number; attempt: number; dueAt: Date };
};

/** What an event's outcome is recorded as (`event.outcome`). */
export type ApplyOutcome =
  | 'applied'
  | 'paused'
  | 'edge_taken'
  | 'soft_bounce'
  | 'email_changed'
  | 'erased'
  | 'unknown_prospect'
  | 'no_effect'
  | 'refused_unsigned'
  | 'conflict'
  | 'new_address_suppressed'
  | 'duplicate';

/** What recording and applying an event did: the after-commit steps read it. */
export type ApplyResult = {
  duplicate: boolean;
  eventId: string | null;
  prospectId: string | null;
  outcome: ApplyOutcome;
  /** Whether it went to the triage list (a person's message from someone we do not know). */
  triaged: boolean;
  /** Enrollments stopped or paused, with the step whose pending job should now be removed. */
  stopped: EnrollmentStep[];
  /** Enrollments made active again (an address change), whose next touch needs a job. */
  resumed: ResumedEnrollment[];
  /** Soft-bounced touches to resend: each needs its job, and the job it replaces removed. */
  retried: SoftBounceRetry[];
  /**
   * Touches of the stopped enrollments that a sender had already claimed when the
   * stop committed: they may still be on their way to the provider.
   */
  inFlight: { enrollmentId: string; step: number }[];
  /** Whether a CRM notification was queued in the outbox. */
  crmQueued: boolean;
  /** Enrollments moved along an edge of their graph by this event (accepted, opened, clicked). */
  moved: EdgeMove[];
  /** Alerts recorded (a positive reply's notification), to enqueue for delivery after the commit. */
  alertIds: string[];
  /** Reactivations recorded (a lost deal), whose delayed jobs are to be added after the commit. */
  reactivations: { id: string; dueAt: Date }[];
  /** Reactivations a won deal cancelled, whose delayed jobs are to be removed. */
  reactivationsSkipped: string[];
};

/**
 * How to apply events: the clock, TIME_SCALE for pauses and resends, whether a CRM
 * is told of hard bounces, whether replies reach colleagues, and the back-off before the first resend of a
 * soft-bounced touch (real ms before TIME_SCALE; doubled before the second resend).
 */
export type ApplyOptions = {
  now?: Date;
  timeScale?: number;
  /** COMPLIANCE_DO_NOT_CONTACT: the recipient country's hours, kept by the touches an event places (an edge's next node, a resend). */
  doNotContact?: DoNotContactTable | undefined;
  notifyCrm?: boolean;
  softBounceRetryMs?: number;
  /**
   * Whether replies may act on the person's colleagues (company-level stop): such
   * replies take the general path, and only then are colleagues read at all. Off
   * unless the deps say so (INGEST_COMPANY_STOP).
   */
  companyStops?: boolean;
  /**
   * Whether replies take the general path, where each sequence's reply actions are
   * read (go on, CRM mark, notification, referral, cooldown). Off: a reply naming our
   * enrollment takes the batched stop and ends every sequence, with no side effect.
   */
  replyActions?: boolean;
};

/** The result of recording an event before any effect has been applied. */
export function freshResult(eventId: string, prospectId: string | null, outcome: ApplyOutcome): ApplyResult {
  return {
    duplicate: false,
    eventId,
    prospectId,
    outcome,
    stopped: [],
    resumed: [],
    retried: [],
    inFlight: [],
    crmQueued: false,
    moved: [],
    triaged: false,
    alertIds: [],
    reactivations: [],
    reactivationsSkipped: [],
  };
}

/** The result of an event recorded before (same source and external id): nothing changed. */
export function duplicateResult(id: string): ApplyResult {
  return { ...freshResult(id, null, 'duplicate'), duplicate: true, eventId: null };
}

/** What an edge that acknowledges an event (a webhook, a one-click unsubscribe) reports of it. */
export type EventReceipt = Pick<ApplyResult, 'eventId' | 'duplicate' | 'outcome' | 'triaged'>;
