import { touchKey } from '@touchbase/core';
import type { EnrollmentRepository, ReactivationRepository } from '@touchbase/db';
import type { ReactivationQueue, ScheduledTouch, TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';

export type ReconcileDeps = {
  enrollments: EnrollmentRepository;
  touchQueue: TouchQueue;
  logger: Logger;
  metrics: Metrics;
  clock: () => Date;
  pageSize?: number;
  /** A touch claimed this long ago and still in doubt is looked at (default 30 s). */
  strandedAfterMs?: number;
  /** Ends out-of-office pauses whose time has come (ingest's `EventRepository`); their touches are scheduled here. */
  pauses?: {
    resumeExpiredPauses(
      now: Date,
    ): Promise<{ id: string; currentStep: number; currentAttempt?: number; nextTouchAt: Date }[]>;
  };
  /** Pending reactivations (the rows) and their delayed jobs: a job Redis lost is re-created. */
  reactivations?: {
    repo: Pick<ReactivationRepository, 'pendingPage'>;
    queue: Pick<ReactivationQueue, 'existing' | 'schedule'>;
  };
};

/**
 * No lost touch (docs/architecture.md#no-lost-touch): every active enrollment has a pending job (or a touch in progress,
 * whose job is active and so exists too). Walks the active enrollments from
 * PostgreSQL, the truth, and re-creates the jobs Redis lost. Re-adding is safe:
 * ids are deterministic, and the sender's claim stops any second send.
 */
export async function reconcile(
  deps: ReconcileDeps,
): Promise<{ checked: number; repaired: number; stranded: number; reactivations: number }> {
  const pageSize = deps.pageSize ?? 5_000;
  let after: string | null = null;
  let checked = 0;
  let repaired = 0;
  if (deps.pauses) {
    const resumed = await deps.pauses.resumeExpiredPauses(deps.clock());
    if (resumed.length > 0) {
      const due = resumed.map((r) => ({
        enrollmentId: r.id,
        step: r.currentStep,
        attempt: r.currentAttempt ?? 1,
        dueAt: r.nextTouchAt,
      }));
      await deps.touchQueue.schedule(due, deps.clock().getTime());
      deps.logger.info({ resumed: resumed.length }, 'Out-of-office pauses ended');
    }
  }
  for (;;) {
    const page = await deps.enrollments.activePage(after, pageSize);
    if (page.length === 0) break;
    checked += page.length;
    // A soft-bounced touch waiting to be resent has its own job id (its attempt).
    const ids = page.map((e) => touchKey(e.id, e.currentStep, e.currentAttempt));
    const present = await deps.touchQueue.existing(ids);
    const missing: ScheduledTouch[] = page
      .filter((e) => !present.has(touchKey(e.id, e.currentStep, e.currentAttempt)))
      .map((e) => ({
        enrollmentId: e.id,
        step: e.currentStep,
        attempt: e.currentAttempt,
        dueAt: e.nextTouchAt ?? deps.clock(),
      }));
    if (missing.length > 0) {
      await deps.touchQueue.schedule(missing, deps.clock().getTime());
      repaired += missing.length;
    }
    after = page[page.length - 1]!.id;
    if (page.length < pageSize) break;
  }
  const stranded = await rescheduleStranded(deps, pageSize);
  if (repaired + stranded > 0) {
    deps.metrics.reconcileRepairs.inc(repaired + stranded);
    deps.logger.warn({ checked, repaired, stranded }, 'Reconciler re-created missing touch jobs');
  }
  const reactivations = await rescheduleReactivations(deps, pageSize);
  if (reactivations > 0) {
    deps.metrics.reconcileRepairs.inc(reactivations);
    deps.logger.warn({ reactivations }, 'Reconciler re-created missing reactivation jobs');
  }
  return { checked, repaired, stranded, reactivations };
}

/**
 * Every pending reactivation has its delayed job: one Redis lost (a restart without
 * persistence, a flush) is re-created from its row, due at the row's time (at once
 * when that has passed). Adding one that exists is a no-op (the job id is the row's).
 */
async function rescheduleReactivations(deps: ReconcileDeps, pageSize: number): Promise<number> {
  if (!deps.reactivations) return 0;
  let after: string | null = null;
  let repaired = 0;
  for (;;) {
    const page = await deps.reactivations.repo.pendingPage(after, pageSize);
    if (page.length === 0) break;
    const present = await deps.reactivations.queue.existing(page.map((r) => r.id));
    const missing = page.filter((r) => !present.has(r.id));
    if (missing.length > 0) {
      await deps.reactivations.queue.schedule(missing, deps.clock().getTime());
      repaired += missing.length;
    }
    after = page[page.length - 1]!.id;
    if (page.length < pageSize) break;
  }
  return repaired;
}

/**
 * A touch in doubt whose enrollment has moved on needs its job to be settled
 * (the sender asks the provider and records sent, cancelled or unknown; it never
 * resends). Its job can be gone: a reply's cancel removed it while it waited to
 * retry a record the database refused, or its retries ran out. Those get their
 * job back, due now.
 */
async function rescheduleStranded(deps: ReconcileDeps, limit: number): Promise<number> {
  const now = deps.clock();
  const claimedBefore = new Date(now.getTime() - (deps.strandedAfterMs ?? 30_000));
  const touches = await deps.enrollments.strandedInDoubt(claimedBefore, limit);
  if (touches.length === 0) return 0;
  const keys = touches.map((t) => touchKey(t.enrollmentId, t.step, t.attempt));
  const present = await deps.touchQueue.existing(keys);
  const lost = touches.filter((_, i) => !present.has(keys[i]!));
  if (lost.length > 0) {
    await deps.touchQueue.schedule(
      lost.map((t) => ({ enrollmentId: t.enrollmentId, step: t.step, attempt: t.attempt, dueAt: now })),
      now.getTime(),
    );
  }
  return lost.length;
}
