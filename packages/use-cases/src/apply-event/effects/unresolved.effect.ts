import { type CanonicalEvent, triageOf } from '@touchbase/core';
import type { EventTransaction } from '../apply-event.ports.js';
import { eraseUnknown } from './erase.effect.js';

/**
 * Nobody we know: an erasure still suppresses the hash, a person's message goes to
 * triage (core's `triageOf`), anything else changes nothing.
 */
export async function unresolved(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
): Promise<{ outcome: 'erased' | 'unknown_prospect'; triaged: boolean }> {
  if (event.type === 'erasure_request' && event.email) {
    await eraseUnknown(tx, eventId, event.email, event);
    return { outcome: 'erased', triaged: false };
  }
  const triage = triageOf(event);
  if (!triage) return { outcome: 'unknown_prospect', triaged: false };
  await tx.recordTriage({
    eventId,
    source: event.source,
    kind: triage.kind,
    email: triage.from,
    classification: event.classification ?? null,
    why: event.why ?? [],
  });
  return { outcome: 'unknown_prospect', triaged: true };
}
