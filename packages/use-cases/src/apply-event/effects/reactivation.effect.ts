import { randomUUID } from 'node:crypto';
import { type CanonicalEvent, REACTIVATION_WON, reactivationPlanOf } from '@touchbase/core';
import type { EventTarget, EventTransaction } from '../apply-event.ports.js';

/**
 * A CRM change that may reactivate the person (core's `reactivationPlanOf`): the
 * reactivation is recorded, due after the cooling-off, and audited on the original
 * enrollment, so its timeline shows the chain. The delayed job follows the commit.
 */
export async function planReactivation(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
  target: EventTarget,
  now: Date,
  timeScale: number,
): Promise<{ id: string; dueAt: Date } | null> {
  if (event.type !== 'crm.deal_lost' && event.type !== 'crm.lifecycle_stage') return null;
  const plan = reactivationPlanOf(event, await tx.pastEnrollments(target.prospectId), now, timeScale);
  if (!plan) return null;
  const id = randomUUID();
  if (!(await tx.scheduleReactivation({ ...plan, id, prospectId: target.prospectId, eventId }))) return null;
  await tx.audit({
    actor: `ingest:${event.source}`,
    action: 'reactivation.scheduled',
    entityType: 'enrollment',
    entityId: plan.fromEnrollmentId,
    data: {
      reactivationId: id,
      eventId,
      trigger: plan.trigger,
      sequenceId: plan.sequenceId,
      dueAt: plan.dueAt.toISOString(),
    },
  });
  return { id, dueAt: plan.dueAt };
}

/** A won deal: the person's pending reactivations will not happen; audited on the person. */
export async function cancelReactivations(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
  target: EventTarget,
): Promise<string[]> {
  const skipped = await tx.skipReactivations(target.prospectId, REACTIVATION_WON);
  if (skipped.length > 0) {
    await tx.audit({
      actor: `ingest:${event.source}`,
      action: 'reactivation.cancelled',
      entityType: 'prospect',
      entityId: target.prospectId,
      data: { eventId, reason: REACTIVATION_WON, reactivations: skipped },
    });
  }
  return skipped;
}
