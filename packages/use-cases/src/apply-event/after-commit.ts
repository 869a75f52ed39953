import type { ApplyEventDeps } from './apply-event.deps.js';
import type { ApplyResult } from './apply-event.types.js';

/**
 * Removes the pending jobs of every enrollment the event stopped or paused. Best
 * effort: a job that survives is fenced by the sender's claim.
 */
export async function removePendingJobs(deps: ApplyEventDeps, result: ApplyResult): Promise<void> {
  if (result.stopped.length === 0) return;
  try {
    await deps.touchQueue.cancel(
      result.stopped.map((s) => ({ enrollmentId: s.id, step: s.currentStep, attempt: s.currentAttempt })),
    );
  } catch (err) {
    deps.logger.warn(
      { eventId: result.eventId, err: (err as Error).message },
      'Pending job removal failed; the fence holds',
    );
  }
}

/** Gives the enrollments the event made active again the job of their next touch. */
export async function scheduleResumed(deps: ApplyEventDeps, result: ApplyResult): Promise<void> {
  if (result.resumed.length === 0) return;
  try {
    await deps.touchQueue.schedule(
      result.resumed.map((r) => ({
        enrollmentId: r.id,
        step: r.currentStep,
        attempt: r.currentAttempt,
        dueAt: r.nextTouchAt,
      })),
    );
  } catch (err) {
    // The enrollments are active in PostgreSQL; the reconciler gives them their jobs.
    deps.logger.warn(
      { eventId: result.eventId, err: (err as Error).message },
      'Resumed touch scheduling failed',
    );
  }
}

/**
 * A soft-bounced touch goes out again: the job of the step its enrollment had moved
 * on to is removed (one that survives is fenced: the enrollment is no longer at
 * that step) and the resend's own job is added: its touch key
 * `{enrollmentId}-{step}-{attempt}`, packed into a job id by `touchJobId` of
 * @touchbase/queues.
 */
export async function scheduleResends(deps: ApplyEventDeps, result: ApplyResult): Promise<void> {
  if (result.retried.length === 0) return;
  try {
    await deps.touchQueue.cancel(
      result.retried.flatMap((r) =>
        r.replaces ? [{ enrollmentId: r.id, step: r.replaces.step, attempt: r.replaces.attempt }] : [],
      ),
    );
    await deps.touchQueue.schedule(
      result.retried.map((r) => ({
        enrollmentId: r.id,
        step: r.step,
        attempt: r.attempt,
        dueAt: r.nextTouchAt,
      })),
    );
  } catch (err) {
    // The enrollment is at the resend in PostgreSQL; the reconciler gives it its job.
    deps.logger.warn({ eventId: result.eventId, err: (err as Error).message }, 'Resend scheduling failed');
  }
}

/**
 * Waits (bounded) for the touches a sender had claimed before the stop committed,
 * so that once the event is acknowledged nothing more of that prospect reaches the
 * provider.
 */
export async function waitForInFlight(deps: ApplyEventDeps, result: ApplyResult): Promise<void> {
  if (result.inFlight.length === 0) return;
  const deadline = Date.now() + (deps.fenceWaitMs ?? 5_000);
  let pending = result.inFlight.length;
  while (pending > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
    pending = await deps.events.touchesInFlight(result.inFlight);
  }
  if (pending > 0) {
    // The bound ran out: a touch claimed before the stop may still reach the provider
    // after the acknowledgment. Name the touches that were in flight, for the audit.
    deps.logger.warn(
      {
        eventId: result.eventId,
        pending,
        touches: result.inFlight.slice(0, 20).map((t) => `${t.enrollmentId}-${t.step}`),
      },
      'Touches still being handed over at the acknowledgment',
    );
  }
}

/**
 * Enrollments an event moved along an edge: the timeout's pending job is removed
 * (one that survives is fenced by the claim: the enrollment is no longer at that
 * node) and the new node's job added. A failure here loses nothing: the reconciler
 * gives the enrollment the job PostgreSQL says it needs.
 */
export async function moveEdgeJobs(deps: ApplyEventDeps, result: ApplyResult): Promise<void> {
  if (result.moved.length === 0) return;
  try {
    await deps.touchQueue.cancel(result.moved.map((m) => ({ enrollmentId: m.id, ...m.from })));
    await deps.touchQueue.schedule(
      result.moved.map((m) => ({
        enrollmentId: m.id,
        step: m.to.step,
        attempt: m.to.attempt,
        dueAt: m.to.dueAt,
      })),
    );
  } catch (err) {
    deps.logger.warn(
      { eventId: result.eventId, err: (err as Error).message },
      'Edge job move failed; the reconciler repairs it',
    );
  }
}

/**
 * Hands the alerts the event recorded (a positive reply's notification) to the alert
 * queue. Best effort: the alert row is committed, and domain-health's sweep enqueues
 * any alert whose delivery was never started.
 */
export async function enqueueAlerts(deps: ApplyEventDeps, result: ApplyResult): Promise<void> {
  if (result.alertIds.length === 0 || !deps.alertQueue) return;
  try {
    await deps.alertQueue.enqueue(result.alertIds);
  } catch (err) {
    deps.logger.warn(
      { eventId: result.eventId, alertIds: result.alertIds, err: (err as Error).message },
      'Alert enqueue failed; left to the sweep',
    );
  }
}

/**
 * Adds the delayed jobs of the reactivations the event recorded and removes those
 * of the ones it cancelled. Best effort: the rows are the truth, the reconciler adds
 * a missing job, and a job whose row is no longer pending does nothing.
 */
export async function syncReactivationJobs(deps: ApplyEventDeps, result: ApplyResult): Promise<void> {
  if (!deps.reactivationQueue) return;
  if (result.reactivations.length === 0 && result.reactivationsSkipped.length === 0) return;
  try {
    await deps.reactivationQueue.schedule(result.reactivations, (deps.clock?.() ?? new Date()).getTime());
    await deps.reactivationQueue.cancel(result.reactivationsSkipped);
  } catch (err) {
    deps.logger.warn(
      { eventId: result.eventId, err: (err as Error).message },
      'Reactivation job sync failed; left to the reconciler',
    );
  }
}
