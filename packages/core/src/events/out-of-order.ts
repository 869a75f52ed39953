import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import { LIVE_STATUSES } from '../enrollment/enrollment-status.js';

/**
 * Ends set by an event, which an earlier event arriving late may restate. A manual
 * cancel also ends as `cancelled`, but it has no event time, so it is never restated.
 */
export const EVENT_END_STATUSES: readonly EnrollmentStatus[] = [
  'replied',
  'bounced',
  'unsubscribed',
  'cancelled',
];

/** The end of an enrollment that ran out of steps: an event that happened before it ended restates it. */
export const EXHAUSTED_STATUS: EnrollmentStatus = 'exhausted';

/** An enrollment as a stop finds it once locked. */
export type StopCandidate = {
  status: EnrollmentStatus;
  /** When the event that ended it happened (null: not ended by an event). */
  stoppedByEventAt: Date | null;
  /** Its last change (for an exhausted one: when it ran out of steps). */
  updatedAt: Date;
};

/** A stopping event: the end it sets and when it happened (null: no event time, a manual stop). */
export type StopOrder = { status: EnrollmentStatus; at: Date | null };

/**
 * The out-of-order rule: providers deliver late, so the earliest stopping event
 * decides. A live enrollment is stopped; an end set by a later event, or an
 * exhaustion after the event happened, is restated (terminal to terminal: nothing
 * is sent again); anything else is kept.
 *
 * The batched stop runs this rule in SQL (`stopProspectsSql` in @touchbase/db, built
 * from {@link EVENT_END_STATUSES} and {@link EXHAUSTED_STATUS}); the equivalence test
 * of the event paths holds the two together.
 */
export function stopActionOf(enrollment: StopCandidate, stop: StopOrder): 'stop' | 'restate' | 'keep' {
  if (LIVE_STATUSES.includes(enrollment.status)) return 'stop';
  if (stop.at === null) return 'keep';
  const endedLaterByEvent =
    EVENT_END_STATUSES.includes(enrollment.status) &&
    enrollment.status !== stop.status &&
    enrollment.stoppedByEventAt !== null &&
    enrollment.stoppedByEventAt > stop.at;
  const exhaustedAfter = enrollment.status === EXHAUSTED_STATUS && enrollment.updatedAt > stop.at;
  return endedLaterByEvent || exhaustedAfter ? 'restate' : 'keep';
}
