import { addressHash, type CanonicalEvent } from '@touchbase/core';
import type { EventTarget, EventTransaction } from '../apply-event.ports.js';
import type { EnrollmentStep } from '../apply-event.types.js';

/** The `stop_reason` of enrollments ended by an erasure. */
const ERASURE = 'erasure_request';

/**
 * An erasure request: every sequence ends, the person's rows go (identities,
 * enrollments and touches with them, records left behind by merges too), only the
 * sha-256 of each of their addresses stays in the
 * suppression list, and the audit log says it happened, in the same transaction.
 * The event log kept no address (core's `redactedEvent`).
 */
export async function erase(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
  target: EventTarget,
): Promise<EnrollmentStep[]> {
  const stopped = await tx.stopProspect(target.prospectId, 'cancelled', ERASURE);
  // Every address the person is known by (a merged person has several): each one's
  // hash keeps them out, none stays in clear.
  const addresses = [...new Set([target.email, ...(await tx.personAddresses(target.prospectId))])];
  for (const address of addresses) {
    await tx.suppress('hash', addressHash(address), ERASURE);
    await tx.unsuppress('email', address);
  }
  await tx.eraseProspect(target, addresses);
  await tx.audit(erasureAudit(eventId, event, target.prospectId, stopped.length));
  return stopped;
}

/**
 * An erasure of someone we do not know: unknown today, perhaps imported tomorrow,
 * so the hash keeps the person out; audited.
 */
export async function eraseUnknown(
  tx: EventTransaction,
  eventId: string,
  email: string,
  event: CanonicalEvent,
) {
  await tx.suppress('hash', addressHash(email), ERASURE);
  await tx.audit(erasureAudit(eventId, event, null, 0));
}

function erasureAudit(eventId: string, event: CanonicalEvent, prospectId: string | null, ended: number) {
  return {
    actor: `ingest:${event.source}`,
    action: 'prospect.erased',
    entityType: 'prospect',
    entityId: prospectId ?? `sha256:${addressHash(event.email ?? '')}`,
    data: { eventId, enrollmentsEnded: ended, known: prospectId !== null },
  };
}
