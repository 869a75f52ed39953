import type { CanonicalEvent } from '@touchbase/core';
import type { EventRepository } from '@touchbase/db';
import type { Metrics } from '@touchbase/telemetry';
import { type ApplyEventDeps, type ApplyResult, applyEvent } from '@touchbase/use-cases';
import type { DealContactsLookup } from './expand-deal-events.js';

/** What ingest needs: applying events (`ApplyEventDeps`), the provider cursors, and who is on a CRM deal. */
export type IngestDeps = ApplyEventDeps & {
  /** The event store, also the provider cursors pull recovery reads. */
  events: EventRepository;
  metrics: Metrics;
  /** Who is on a CRM deal (HubSpot, when a token is configured): deal webhooks name only the deal. */
  dealContacts?: DealContactsLookup;
};

/**
 * Records an event once and applies it, then does what can only follow the commit
 * (job removal, resumes, resends, the wait for touches in flight, the CRM kick):
 * `applyEvent` of @touchbase/use-cases, shared with the sender's pre-send re-check.
 * Counted in `touchbase_ingest_events_total` by source, type and outcome.
 */
export async function ingestEvent(deps: IngestDeps, event: CanonicalEvent): Promise<ApplyResult> {
  const result = await applyEvent(deps, event);
  deps.metrics.eventsReceived.inc({ source: event.source, type: event.type, outcome: result.outcome });
  return result;
}
