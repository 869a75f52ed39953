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

/**
 * The same columns as {@link namedEventColumns} for one event, as an object for a
 * batch sent as one JSON parameter (`json_to_recordset`): payload and why as JSON
 * values, not as text.
 */
export function namedEventRecord(
  id: string,
  event: CanonicalEvent,
): {
  id: string;
  source: string;
  external_id: string;
  type: string;
  payload: CanonicalEvent;
  classification: string | null;
  why: unknown;
  enrollment_id: string | undefined;
  email: string | null;
} {
  return {
    id,
    source: event.source,
    external_id: event.externalId,
    type: event.type,
    payload: redactedEvent(event),
    classification: event.classification ?? null,
    why: event.why ?? null,
    enrollment_id: event.enrollmentId,
    email: event.email ? normalisedEmail(event.email) : null,
  };
}
