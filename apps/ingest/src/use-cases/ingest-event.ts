import type { CanonicalEvent } from '@touchbase/core';
import type { ApplyResult, EventRepository } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import type { DealContactsLookup } from './expand-deal-events.js';

export type IngestDeps = {
  events: EventRepository;
  touchQueue: TouchQueue;
  logger: Logger;
  metrics: Metrics;
  clock?: () => Date;
  /** TIME_SCALE: out-of-office pauses are compressed like every wait (sandbox only). */
  timeScale?: number;
  /** Whether hard bounces queue a CRM update (a CRM is configured). */
  notifyCrm?: boolean;
  /** Called after a commit that queued a CRM update, to deliver it now rather than at the next sweep. */
  onCrmQueued?: () => void;
  /** How long to wait, before acknowledging a stop, for touches already being handed to the provider. */
  fenceWaitMs?: number;
  /** Back-off before the first resend of a soft-bounced touch, in real ms before TIME_SCALE (default one day). */
  softBounceRetryMs?: number;
  /** Who is on a CRM deal (HubSpot, when a token is configured): deal webhooks name only the deal. */
  dealContacts?: DealContactsLookup;
};

/**
 * Records an event once and applies it (one transaction), then does what can only
 * follow the commit: removes the pending jobs of every enrollment it stopped or
 * paused, schedules those it resumed and the resends of soft-bounced touches, and
 * lets the CRM notifier run.
 *
 * The job removal is best effort: a job that survives is fenced by the sender's
 * claim. Touches a sender had claimed before the stop committed are waited for
 * (bounded), so that once the webhook is acknowledged, nothing more of that
 * prospect reaches the provider.
 */
export async function ingestEvent(deps: IngestDeps, event: CanonicalEvent): Promise<ApplyResult> {
  const result = await deps.events.recordAndApply(event, {
    now: deps.clock?.() ?? new Date(),
    timeScale: deps.timeScale ?? 1,
    notifyCrm: deps.notifyCrm ?? false,
    ...(deps.softBounceRetryMs !== undefined ? { softBounceRetryMs: deps.softBounceRetryMs } : {}),
  });
  deps.metrics.eventsReceived.inc({ source: event.source, type: event.type, outcome: result.outcome });
  if (result.stopped.length > 0) {
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
  if (result.resumed.length > 0) {
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
  if (result.retried.length > 0) await scheduleResends(deps, result);
  if (result.inFlight.length > 0) await waitForInFlight(deps, result);
  if (result.crmQueued) deps.onCrmQueued?.();
  deps.logger.info(
    {
      eventId: result.eventId,
      source: event.source,
      type: event.type,
      outcome: result.outcome,
      stopped: result.stopped.length,
      resumed: result.resumed.length,
      resent: result.retried.length,
    },
    'Event ingested',
  );
  return result;
}

/**
 * A soft-bounced touch goes out again: the job of the step its enrollment had moved
 * on to is removed (one that survives is fenced: the enrollment is no longer at
 * that step) and the resend's own job, `{enrollmentId}-{step}-{attempt}`, is added.
 */
async function scheduleResends(deps: IngestDeps, result: ApplyResult): Promise<void> {
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

async function waitForInFlight(deps: IngestDeps, result: ApplyResult): Promise<void> {
  const deadline = Date.now() + (deps.fenceWaitMs ?? 5_000);
  let pending = result.inFlight.length;
  while (pending > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
    pending = await deps.events.touchesInFlight(result.inFlight);
  }
  if (pending > 0) {
    deps.logger.warn(
      { eventId: result.eventId, pending },
      'Touches still being handed over at the acknowledgment',
    );
  }
}
