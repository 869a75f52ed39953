import { type EnrollmentStatus, LIVE_STATUSES } from '../enrollment/enrollment-status.js';

/** The `stop_reason` of an enrollment cancelled because its person was merged into one already in the sequence. */
export const MERGED_REASON = 'merged';

/** An enrollment as the merge compares them. */
export type MergeEnrollment = { id: string; sequenceId: string; status: EnrollmentStatus; createdAt: Date };

/**
 * What a merge does with the enrollments of the prospect merged away (`from`):
 * - `move`: it follows to the prospect kept (no enrollment there in its sequence);
 * - `cancel`: both are in the same sequence and the other one is kept; this one is
 *   cancelled (`merged`) when live and stays behind, with its touches, on the record
 *   of the merged-away prospect (a person is in a sequence once);
 * - `replace`: both are in the same sequence and this one is kept: it follows, and
 *   the kept prospect's own enrollment there (`replaced`) is the one cancelled and left behind.
 */
export type MergeDecision =
  | { enrollmentId: string; action: 'move' }
  | { enrollmentId: string; action: 'cancel'; keptEnrollmentId: string }
  | { enrollmentId: string; action: 'replace'; replacedEnrollmentId: string };

const isLive = (e: MergeEnrollment) => LIVE_STATUSES.includes(e.status);

/**
 * Which of two enrollments of one person in one sequence is kept: a live one over
 * an ended one (the person is being contacted there now); between two live ones,
 * or two ended ones, the one started first (the conversation the person has seen
 * first). A tie keeps the prospect kept's own. One person is never contacted
 * twice in one sequence.
 */
export function keptOf(own: MergeEnrollment, other: MergeEnrollment): MergeEnrollment {
  if (isLive(own) !== isLive(other)) return isLive(own) ? own : other;
  return other.createdAt.getTime() < own.createdAt.getTime() ? other : own;
}

/**
 * The merge plan of `from`'s enrollments into a prospect holding `into`: every
 * enrollment of `from` moves unless the kept prospect is in the same sequence,
 * then {@link keptOf} decides which of the two goes on.
 */
export function mergeEnrollmentsPlan(
  into: readonly MergeEnrollment[],
  from: readonly MergeEnrollment[],
): MergeDecision[] {
  const bySequence = new Map(into.map((e) => [e.sequenceId, e]));
  return from.map((e) => {
    const own = bySequence.get(e.sequenceId);
    if (!own) return { enrollmentId: e.id, action: 'move' };
    return keptOf(own, e) === own
      ? { enrollmentId: e.id, action: 'cancel', keptEnrollmentId: own.id }
      : { enrollmentId: e.id, action: 'replace', replacedEnrollmentId: own.id };
  });
}

/** A live enrollment the merged person keeps, with whether its sequence is exclusive (contact policy). */
export type MergeSurvivor = { id: string; sequenceId: string; createdAt: Date; exclusive: boolean };

/**
 * Exclusivity after a merge: the person now holds the live enrollments of both
 * prospects, in different sequences. Where an exclusive sequence is among them
 * (core's `exclusivityConflict`: either side exclusive), the one started first goes
 * on and each other one that conflicts with it ends (`merged`), as a second
 * enrollment would have been refused had the person been known as one.
 * @returns the enrollments to cancel, each with the one kept.
 */
export function exclusiveMergeEnds(
  survivors: readonly MergeSurvivor[],
): { enrollmentId: string; keptEnrollmentId: string }[] {
  if (survivors.length < 2) return [];
  const [kept, ...rest] = [...survivors].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
  return rest
    .filter((e) => kept!.exclusive || e.exclusive)
    .map((e) => ({ enrollmentId: e.id, keptEnrollmentId: kept!.id }));
}

/** Whether an enrollment left behind by a merge is still live and must be cancelled (`merged`). */
export function mustCancelOnMerge(e: Pick<MergeEnrollment, 'status'>): boolean {
  return LIVE_STATUSES.includes(e.status);
}

/**
 * Whether a suppression of one of a person's addresses keeps the whole person from
 * being contacted once their prospects are merged: an unsubscribe, a complaint, an
 * erasure or an operator's entry is the person's (or about the person); a bounce is
 * about one dead address only, and their other address may be fine.
 */
export function suppressionFollowsPerson(reason: string): boolean {
  return !reason.startsWith('bounce');
}
