import {
  type CanonicalEvent,
  COMPANY_REPLY_REASON,
  companyStopOf,
  replyClassOf,
  sequencesActingOn,
} from '@touchbase/core';
import type { EventTarget, EventTransaction } from '../apply-event.ports.js';
import type { EnrollmentStep } from '../apply-event.types.js';

/**
 * Company-level stop, after the person's own stop and in its transaction: their
 * colleagues' live enrollments end, pause or go on, as each one's sequence policy
 * says for this reply (core's `companyStopOf`); audited with the reply that caused it.
 */
export async function stopColleagues(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
  target: EventTarget,
  now: Date,
  timeScale: number,
): Promise<EnrollmentStep[]> {
  if (event.type !== 'reply') return [];
  // First the sequences whose policy acts on this reply's class (few rows, parsed
  // once per policy text); only their colleagues are read.
  const acting = sequencesActingOn(event, await tx.sequencePolicies());
  if (acting.length === 0) return [];
  const colleagues = await tx.liveColleagueEnrollments(target.prospectId, acting);
  const decisions = companyStopOf(event, colleagues, now, timeScale);
  if (decisions.length === 0) return [];
  const changed = await tx.applyCompanyStop(decisions, COMPANY_REPLY_REASON);
  if (changed.length === 0) return [];
  const ids = new Set(changed.map((c) => c.id));
  await tx.audit({
    actor: `ingest:${event.source}`,
    action: 'company.stopped',
    entityType: 'prospect',
    entityId: target.prospectId,
    data: {
      eventId,
      replyClass: replyClassOf(event),
      ended: decisions
        .filter((d) => d.action === 'end' && ids.has(d.enrollmentId))
        .map((d) => d.enrollmentId),
      paused: decisions.flatMap((d) =>
        d.action === 'pause' && ids.has(d.enrollmentId) ? [{ id: d.enrollmentId, until: d.until }] : [],
      ),
    },
  });
  return changed;
}
