import type { EnrollmentStatus } from '@touchbase/core';

export type EnrollmentRow = {
  id: string;
  prospectId: string;
  sequenceId: string;
  sequenceVersionId: string;
  mailboxId: string;
  status: EnrollmentStatus;
  currentStep: number;
  /** Attempt of the current step's touch (2 or 3 while a soft-bounced touch waits to be resent). */
  currentAttempt: number;
  nextTouchAt: Date | null;
  conversationId: string | null;
  firstMessageId: string | null;
  stopReason: string | null;
  /** The enrollment a reactivation started this one from, or null. */
  reactivatedFromId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type EnrollResult = {
  enrolled: { id: string; prospectId: string }[];
  /** Created `queued` because the sending domain is paused; they start when it is resumed. */
  held: { id: string; prospectId: string }[];
  refused: EnrollRefusal[];
};

/** A prospect not enrolled, and why; `in_other_sequence` names the sequence that holds them (exclusivity). */
export type EnrollRefusal =
  | { prospectId: string; reason: 'suppressed' | 'already_enrolled' | 'not_found' | 'cooling_off' }
  | { prospectId: string; reason: 'in_other_sequence'; sequenceId: string };

/** The columns of an `enrollment` row as an EnrollmentRow's fields. */
export const ENROLLMENT_COLUMNS = `id, prospect_id AS "prospectId", sequence_id AS "sequenceId", sequence_version_id AS "sequenceVersionId",
  mailbox_id AS "mailboxId", status, current_step AS "currentStep", current_attempt AS "currentAttempt",
  next_touch_at AS "nextTouchAt", conversation_id AS "conversationId", first_message_id AS "firstMessageId", stop_reason AS "stopReason",
  reactivated_from_id AS "reactivatedFromId", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** `stop_reason` of an enrollment held (`queued`) until its sending domain is resumed. */
export const HELD_FOR_DOMAIN_PAUSE = 'held:domain_paused';
