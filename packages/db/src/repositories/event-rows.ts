import { type CanonicalEvent, normalisedEmail, redactedEvent } from '@touchbase/core';

/** The recorded columns of an event row, in the order every insert names them; addresses are hashed (core's `redactedEvent`). */
export function eventRowValues(id: string, event: CanonicalEvent): unknown[] {
  return [
    id,
    event.source,
    event.externalId,
    event.type,
    JSON.stringify(redactedEvent(event)),
    event.classification ?? null,
    event.why ? JSON.stringify(event.why) : null,
  ];
}

/**
 * The parameters every batched statement over events naming our enrollment starts
 * with, one array per column: the event row's seven ($1–$7, each row's values
 * computed once), the enrollment id ($8) and the address the event gives ($9).
 */
export function namedEventColumns(items: { id: string; event: CanonicalEvent }[]): unknown[][] {
  const rows = items.map((i) => eventRowValues(i.id, i.event));
  return [
    ...[0, 1, 2, 3, 4, 5, 6].map((n) => rows.map((r) => r[n])),
    items.map((i) => i.event.enrollmentId),
    items.map((i) => (i.event.email ? normalisedEmail(i.event.email) : null)),
  ];
}
