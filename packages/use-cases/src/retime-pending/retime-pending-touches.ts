import {
  type DoNotContactTable,
  type MailboxWindowColumns,
  type PendingDue,
  recipientWindowOf,
  refitDue,
  resolveTimeZone,
  type SendingWindow,
} from '@touchbase/core';
import type { Logger } from '@touchbase/telemetry';

/** Whose pending touches are re-timed: a mailbox's (window, holidays, caps) or a sequence's (window). */
export type RetimeScope = { mailboxId: string } | { sequenceId: string };

/** A pending touch as the store reads it: its due time, what it was fitted from, and its timing now. */
export type PendingTouch = PendingDue & {
  enrollmentId: string;
  step: number;
  attempt: number;
  prospectTimezone: string | null;
  /** The prospect's attributes: its `country` picks the do-not-contact rule. */
  prospectAttributes?: Record<string, unknown> | null;
  mailboxTimezone: string;
  mailbox: MailboxWindowColumns;
  sequenceWindow: SendingWindow | null;
};

/** One due time to move, applied only while the touch is still as read (`from`). */
export type DueMove = { enrollmentId: string; step: number; attempt: number; from: Date; to: Date };

/** One touch's job and the time it is due. */
export type DueJob = { enrollmentId: string; step: number; attempt: number; dueAt: Date };

export type RetimeDeps = {
  /** The store (@touchbase/db's `PendingTouchRepository`): active enrollments of the scope, not in flight. */
  pending: {
    page(scope: RetimeScope, after: string | null, limit: number): Promise<PendingTouch[]>;
    move(moves: DueMove[]): Promise<DueMove[]>;
  };
  /** The touch queue (@touchbase/queues' `TouchQueue`): moves delayed jobs to their due time. */
  jobs: { retime(touches: DueJob[]): Promise<DueJob[]> };
  timeScale: number;
  /** COMPLIANCE_DO_NOT_CONTACT: the re-fit keeps the recipient country's hours, as every placement does. */
  doNotContact?: DoNotContactTable;
  /** The sender's jitter: a due time already a jittered placement of its new slot is kept. */
  jitterMs?: number;
  logger: Logger;
  pageSize?: number;
};

/** What a re-timing did. */
export type RetimeResult = {
  /** Pending touches looked at (active, not in flight). */
  checked: number;
  /** Of those, the touches whose due time or job moved. */
  retimed: number;
  /** Touches whose due time (`next_touch_at`) moved: forward or back. */
  dueMoved: number;
  /** Touches whose delayed job was moved to its due time. */
  jobsMoved: number;
  /** Touches left as they are: their due time was set by a hold, a pause or a resume, not by fitting. */
  notRefittable: number;
};

/**
 * Re-times the pending touches of a mailbox or a sequence after a change of its
 * window, holidays or caps, now rather than at their next attempt: each due time is
 * re-fitted from its raw time into the new window (core's `refitDue`), so a wider
 * window brings touches forward and a narrower one pushes them back, and each
 * touch's delayed job is moved to its due time.
 *
 * Order and safety: PostgreSQL first (a compare-and-set per touch: a touch the
 * sender claimed or advanced meanwhile is left alone), then Redis (`changeDelay`,
 * atomic: the job never disappears, so the reconciler has nothing to repair). The
 * job step compares every touch's job with its due time, moved or not, so a run
 * that died between the two steps is completed by running it again; a second run
 * moves nothing. A touch in flight (claimed: a touch row for its step and attempt)
 * is never read. Under new caps the due times stay, but a job a throttle wait held
 * past its due time comes back to it, and the sender takes a token under the new caps.
 */
export async function retimePendingTouches(deps: RetimeDeps, scope: RetimeScope): Promise<RetimeResult> {
  const pageSize = deps.pageSize ?? 1_000;
  const result: RetimeResult = { checked: 0, retimed: 0, dueMoved: 0, jobsMoved: 0, notRefittable: 0 };
  let after: string | null = null;
  for (;;) {
    const page = await deps.pending.page(scope, after, pageSize);
    if (page.length === 0) break;
    result.checked += page.length;
    const moves: DueMove[] = [];
    const jobs: DueJob[] = [];
    for (const touch of page) {
      const to = refitDue(touch, {
        timeZone: resolveTimeZone(touch.prospectTimezone, touch.mailboxTimezone),
        window: recipientWindowOf(
          touch.sequenceWindow,
          touch.mailbox,
          deps.doNotContact,
          touch.prospectAttributes,
        ),
        timeScale: deps.timeScale,
        ...(deps.jitterMs ? { jitterMs: deps.jitterMs } : {}),
      });
      if (!to) {
        result.notRefittable++;
        continue;
      }
      const { enrollmentId, step, attempt } = touch;
      if (to.getTime() !== touch.nextTouchAt.getTime())
        moves.push({ enrollmentId, step, attempt, from: touch.nextTouchAt, to });
      jobs.push({ enrollmentId, step, attempt, dueAt: to });
    }
    const applied = await deps.pending.move(moves);
    const lost = new Set(moves.map((m) => m.enrollmentId));
    for (const m of applied) lost.delete(m.enrollmentId);
    // A touch whose compare-and-set failed changed meanwhile (claimed, advanced): its job is the sender's.
    const movedJobs = await deps.jobs.retime(jobs.filter((j) => !lost.has(j.enrollmentId)));
    const retimed = new Set([...applied, ...movedJobs].map((t) => t.enrollmentId));
    result.dueMoved += applied.length;
    result.jobsMoved += movedJobs.length;
    result.retimed += retimed.size;
    after = page[page.length - 1]!.enrollmentId;
    if (page.length < pageSize) break;
  }
  deps.logger.info({ scope, ...result }, 'Pending touches re-timed');
  return result;
}
