import type { CanonicalEvent } from '@touchbase/core';
import type { ApplyResult, EventRepository } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';

export type IngestDeps = { events: EventRepository; touchQueue: TouchQueue; logger: Logger; metrics: Metrics };

/**
 * Records an event once and applies it (one transaction), then removes the pending
 * jobs of every enrollment it stopped. The removal is after the commit and best
 * effort: a job that survives is fenced by the sender's claim, so the webhook can
 * be acknowledged as soon as the commit is done.
 */
export async function ingestEvent(deps: IngestDeps, event: CanonicalEvent): Promise<ApplyResult> {
  const result = await deps.events.recordAndApply(event);
  deps.metrics.eventsReceived.inc({ source: event.source, type: event.type, outcome: result.outcome });
  if (result.stopped.length > 0) {
    try {
      await deps.touchQueue.cancel(result.stopped.map((s) => ({ enrollmentId: s.id, step: s.currentStep })));
    } catch (err) {
      deps.logger.warn({ eventId: result.eventId, err: (err as Error).message }, 'Pending job removal failed; the fence holds');
    }
  }
  deps.logger.info(
    { eventId: result.eventId, source: event.source, type: event.type, outcome: result.outcome, stopped: result.stopped.length },
    'Event ingested',
  );
  return result;
}
