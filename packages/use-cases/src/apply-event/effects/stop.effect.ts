import { auditsStop, type CanonicalEvent } from '@touchbase/core';
import type { EventTarget, EventTransaction, StopEffect } from '../apply-event.ports.js';
import type { EnrollmentStep } from '../apply-event.types.js';

/**
 * A stop (reply, hard bounce, unsubscribe, complaint, CRM deal): every live
 * enrollment of the prospect ends (the earliest stopping event decides); the
 * address is suppressed, marked dead and the CRM told, as the effect says; an
 * unsubscribe is audited in the same transaction.
 */
export async function stop(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
  target: EventTarget,
  effect: StopEffect,
  notifyCrm: boolean,
  /** Enrollments left out: a reply moved them along their `replied` edge. */
  keep: string[] = [],
): Promise<{ stopped: EnrollmentStep[]; crmQueued: boolean }> {
  const stopped = await tx.stopProspect(
    target.prospectId,
    effect.status,
    effect.reason,
    event.occurredAt,
    keep,
  );
  let crmQueued = false;
  if (effect.suppress) await tx.suppress('email', target.email, effect.reason);
  if (effect.invalidateEmail) {
    await tx.invalidateEmail(target.prospectId);
    if (notifyCrm) {
      crmQueued = await tx.queueCrmNotification({
        eventId,
        prospectId: target.prospectId,
        email: target.email,
        kind: 'hard_bounce',
      });
    }
  }
  if (auditsStop(event)) {
    await tx.audit({
      actor: `ingest:${event.source}`,
      action: 'prospect.unsubscribed',
      entityType: 'prospect',
      entityId: target.prospectId,
      data: {
        eventId,
        enrollmentId: target.enrollmentId,
        enrollmentsEnded: stopped.map((s) => s.id),
        suppressed: effect.suppress,
      },
    });
  }
  return { stopped, crmQueued };
}
