import type {
  BouncedTouch,
  CanonicalEvent,
  ColleagueDecision,
  ColleagueEnrollments,
  EnrollmentStatus,
  EventEffect,
  FittedDue,
  OwnEnrollment,
  PastEnrollment,
  ReactivationPlan,
  ReplyBatchCondition,
  SendingWindow,
  SequenceGraph,
  SequencePoliciesText,
  SuppressionKeys,
  SuppressionKind,
} from '@touchbase/core';
import type { ApplyOutcome, ApplyResult, EnrollmentStep, ResumedEnrollment } from './apply-event.types.js';

/** An effect-free event the shared statement recorded (or found recorded), or left to the general path: its enrollment waits after a node. */
export type InformationalRecord = { prospectId: string; inserted: boolean } | { waiting: true };

/** The prospect an event is about, and the enrollment it names when it is ours. */
export type EventTarget = { prospectId: string; email: string; enrollmentId: string | null };

/** A stopping effect, as the batched stop executes it. */
export type StopEffect = Extract<EventEffect, { kind: 'stop' }>;

/** The soft-bounced touch an event names, in its enrollment. */
export type BouncedTouchRow = BouncedTouch & { enrollmentId: string };

/** An enrollment locked for a resend, with what its next due time is computed from. */
export type ResendContextRow = {
  status: EnrollmentStatus;
  currentStep: number;
  currentAttempt: number;
  /** The node that ran last; null for pre-graph chains (read as current_step - 1). */
  waitingNode: number | null;
  prospectTimeZone: string | null;
  /** The prospect's attributes: its country (`country`) picks the do-not-contact hours. */
  prospectAttributes: Record<string, unknown> | null;
  mailboxTimeZone: string;
  sendingWindow: SendingWindow | null;
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  holidays: string[] | null;
};

/** An enrollment waiting after a node of its graph, locked, with what deciding and timing an edge needs. */
export type WaitingEnrollmentRow = {
  id: string;
  /** `active`, or `paused` when paused ones were asked for (a reply may lift some pauses: core's `repliedEdgeOpenTo`). */
  status: EnrollmentStatus;
  stopReason: string | null;
  currentStep: number;
  currentAttempt: number;
  /** The node that ran last, whose event edges are open (null once an event took one, until the next node runs). */
  waitingNode: number;
  graph: SequenceGraph;
  prospectTimeZone: string | null;
  /** The prospect's attributes: its country (`country`) picks the do-not-contact hours. */
  prospectAttributes: Record<string, unknown> | null;
  mailboxTimeZone: string;
  sendingWindow: SendingWindow | null;
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  holidays: string[] | null;
  /** The stored policies of its sequence (whether a reply of a class takes a `replied` edge depends on them). */
  sequencePolicies: unknown;
};

/** A row of the audit log, written in the transaction of the change it describes. */
export type AuditEntry = {
  actor: string;
  action: string;
  entityType: string;
  entityId: string;
  data: object;
};

/**
 * The persistence primitives an event is applied with, inside one transaction
 * (implemented by @touchbase/db over one connection). Each persists; none decides.
 */
export interface EventTransaction {
  /** Inserts the event row (not yet applied). @returns false when (source, external id) was recorded before. */
  insertEvent(id: string, event: CanonicalEvent): Promise<boolean>;
  /**
   * `insertEvent`, then, when inserted, `resolveTarget`: for an event naming our
   * enrollment, the insert and the enrollment's read are one statement. With
   * `withLive`, that statement also reads what `liveEnrollments` answers for the
   * person it names (`live`, absent when the target was found another way).
   */
  insertEventAndResolve(
    id: string,
    event: CanonicalEvent,
    opts?: { withLive?: boolean },
  ): Promise<{ inserted: false } | { inserted: true; target: EventTarget | null; live?: OwnEnrollment[] }>;
  /**
   * Marks the event applied with its outcome and whom it was about. With `inFlightOf`
   * (the enrollments it stopped), reads in the same statement their touches a sender
   * has claimed and not yet recorded (`touchesBeingSent`), one round trip for both.
   */
  finishEvent(
    id: string,
    outcome: ApplyOutcome,
    prospectId: string | null,
    enrollmentId: string | null,
    inFlightOf?: { id: string }[],
  ): Promise<{ enrollmentId: string; step: number }[]>;
  resolveTarget(event: CanonicalEvent): Promise<EventTarget | null>;
  /** Soft bounces of the prospect since the last event that breaks the streak (core's `SOFT_BOUNCE_STREAK_BREAKERS`). */
  softBouncesInARow(prospectId: string): Promise<number>;
  /**
   * Ends the prospect's live enrollments, restating ends set later (core's `stopActionOf`);
   * those in `keep` go on (their sequence chose to, core's `replyDecisionOf`).
   */
  stopProspect(
    prospectId: string,
    status: EnrollmentStatus,
    reason: string,
    at?: Date,
    keep?: string[],
  ): Promise<EnrollmentStep[]>;
  /** Pauses the enrollments core's `isPausedByOutOfOffice` takes, until `until`, but those in `keep`. */
  pauseProspect(prospectId: string, until: Date, keep?: string[]): Promise<EnrollmentStep[]>;
  /** The prospect's live enrollments with their status and their sequence's stored policies (reply actions). */
  liveEnrollments(prospectId: string): Promise<OwnEnrollment[]>;
  /** Nobody enrolls the person before `until` (a cooldown); a later date already set stays. */
  setContactAfter(prospectId: string, until: Date): Promise<void>;
  /** Every enrollment of the prospect (any status), with its sequence's stored policies. */
  pastEnrollments(prospectId: string): Promise<PastEnrollment[]>;
  /** Records a reactivation (once per original enrollment and event). @returns whether it was recorded. */
  scheduleReactivation(
    r: ReactivationPlan & { id: string; prospectId: string; eventId: string },
  ): Promise<boolean>;
  /** Settles the prospect's pending reactivations as skipped for `outcome`. @returns their ids. */
  skipReactivations(prospectId: string, outcome: string): Promise<string[]>;
  /** Records an alert (delivered after the commit on every alert channel). @returns its id. */
  raiseAlert(alert: { kind: string; message: string; data: object }): Promise<string>;
  /** The live enrollments of the prospect's colleagues (same company domain), by sequence with its policies. */
  liveColleagueEnrollments(
    prospectId: string,
    sequenceIds: readonly string[],
  ): Promise<ColleagueEnrollments[]>;
  /** Every sequence's stored policies as JSON text, for core to pick those whose company stop acts on a reply. */
  sequencePolicies(): Promise<SequencePoliciesText[]>;
  /** Ends or pauses colleagues' enrollments as core's `companyStopOf` decided. @returns those changed. */
  applyCompanyStop(decisions: ColleagueDecision[], reason: string): Promise<EnrollmentStep[]>;
  suppress(kind: SuppressionKind, value: string, reason: string): Promise<void>;
  unsuppress(kind: SuppressionKind, value: string): Promise<void>;
  /** Whether any of these suppression keys is on the list. */
  anySuppressed(keys: SuppressionKeys): Promise<boolean>;
  invalidateEmail(prospectId: string): Promise<void>;
  /** Queues a CRM notification in the outbox. @returns whether one was queued. */
  queueCrmNotification(n: {
    eventId: string;
    prospectId: string;
    email: string;
    /** `hard_bounce`, or `reply:<class>` (a positive reply marks the contact). */
    kind: string;
  }): Promise<boolean>;
  audit(entry: AuditEntry): Promise<void>;
  recordTriage(item: {
    eventId: string;
    source: string;
    /** `referral`: a wrong-person reply named who to write to instead. */
    kind: 'unknown_sender' | 'cold_inbound' | 'referral';
    email: string | null;
    classification: string | null;
    why: string[];
  }): Promise<void>;
  /** Whether another prospect than `prospectId` has this address (its own or an identity). */
  emailTaken(email: string, prospectId: string): Promise<boolean>;
  /** Moves the prospect to a new (valid) address, its live enrollments to new threads. */
  changeEmail(prospectId: string, email: string): Promise<void>;
  /** Makes active again the prospect's enrollments in `status`, due now, in new threads. */
  resumeEnded(prospectId: string, status: EnrollmentStatus): Promise<ResumedEnrollment[]>;
  /** The touch a soft bounce names: by our message id, else the last handed over in the enrollment the event names. */
  bouncedTouch(event: CanonicalEvent, target: EventTarget): Promise<BouncedTouchRow | null>;
  /** Locks the enrollment (the sender's claim locks the same row) and reads what a resend needs. */
  lockForResend(enrollmentId: string): Promise<ResendContextRow | null>;
  /** Whether a touch after (step, attempt) was claimed, read after the lock. */
  laterTouchExists(enrollmentId: string, step: number, attempt: number): Promise<boolean>;
  /** Sends the enrollment back to resend `step`, due `nextTouchAt` (fitted from `nextTouchUnfittedAt`, kept for a re-fit). */
  moveToResend(
    enrollmentId: string,
    step: number,
    attempt: number,
    nextTouchAt: Date,
    nextTouchUnfittedAt?: Date | null,
  ): Promise<void>;
  /** Every address of the person (kind `email` identities), the one touches go to first. */
  personAddresses(prospectId: string): Promise<string[]>;
  /** Deletes the person's rows and what names them (identities, enrollments, touches, triage, outbox, quotes), for each of `addresses`. */
  eraseProspect(target: EventTarget, addresses: string[]): Promise<void>;
  /** Locks every enrollment of the prospect in id order, as a stop does, before some of them are moved and the rest stopped. */
  lockEnrollmentsOf(prospectId: string): Promise<void>;
  /** The prospect's active enrollments waiting after a node (or the one named), with `withPaused` the paused ones too, locked in id order. */
  lockWaiting(
    prospectId: string,
    enrollmentId: string | null,
    withPaused?: boolean,
  ): Promise<WaitingEnrollmentRow[]>;
  /** The prospect's active enrollments whose current touch is being sent (claimed, not yet recorded), locked in id order; `waitingNode` as stored (null at a first node). */
  lockInFlight(
    prospectId: string,
  ): Promise<(Omit<WaitingEnrollmentRow, 'waitingNode'> & { waitingNode: number | null })[]>;
  /** Whether (step, attempt) was claimed (its timeout edge taken), read after the lock. */
  nodeStarted(enrollmentId: string, step: number, attempt: number): Promise<boolean>;
  /** LinkedIn events of the prospect recorded since that touch was claimed (they came while it was being sent). */
  edgeEventsSince(
    prospectId: string,
    touch: { enrollmentId: string; step: number; attempt: number },
  ): Promise<{ id: string; source: string; type: string }[]>;
  /** The node number of a touch, or null. */
  touchStep(touchId: string): Promise<number | null>;
  /** Moves a locked enrollment to node `to`, due at `due.at` (fitted from `due.unfittedAt`, kept for a re-fit); the attempt now pending there. */
  moveAlongEdge(enrollmentId: string, to: number, due: FittedDue): Promise<number>;
}

/**
 * Where events are recorded and applied (@touchbase/db's `EventRepository`): a
 * transaction of primitives for the general path, and the two batched statements
 * that execute the same decisions for the hot paths.
 */
export interface EventStore {
  transaction<T>(fn: (tx: EventTransaction) => Promise<T>): Promise<T>;
  /**
   * A stop naming our enrollment, recorded and applied in one statement shared with
   * others arriving meanwhile. @returns null when the enrollment is not found, the
   * address differs, a reply's person is live in a graph with a `replied` edge, or a
   * reply does not meet its `reply` condition as the statement finds the policies
   * (the general path decides then).
   */
  applyStopNamingEnrollment(item: {
    id: string;
    event: CanonicalEvent;
    effect: StopEffect;
    /** A reply with reply actions or company-level stop on: the policies under which it only ends the person. */
    reply?: ReplyBatchCondition;
  }): Promise<ApplyResult | null>;
  /**
   * The distinct policy texts of the sequences (`sequence.policies::text`), as recently
   * read (they may lag a change by a moment: the batched stop checks the stored ones).
   */
  sequencePolicyTexts(): Promise<readonly string[]>;
  /**
   * An effect-free event naming our enrollment, recorded already applied in one shared
   * statement. @returns its prospect and whether it was inserted, or null when not found.
   * With `edge` (the event can fire a graph edge), nothing is recorded when the
   * enrollment is active and waiting after a node: `{ waiting: true }`, for the general path.
   */
  recordInformationalNamingEnrollment(item: {
    id: string;
    event: CanonicalEvent;
    outcome: ApplyOutcome;
    edge?: boolean;
  }): Promise<InformationalRecord | null>;
  /** Resolves the target outside a transaction (nothing is locked). */
  resolveTarget(event: CanonicalEvent): Promise<EventTarget | null>;
  /** Inserts an event already applied. @returns false when it was recorded before. */
  recordApplied(
    id: string,
    event: CanonicalEvent,
    outcome: ApplyOutcome,
    target: EventTarget | null,
  ): Promise<boolean>;
  /** How many of these touches are still being handed to the provider (claimed, not yet recorded). */
  touchesInFlight(keys: { enrollmentId: string; step: number }[]): Promise<number>;
}
