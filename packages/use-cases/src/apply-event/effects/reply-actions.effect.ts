import {
  type CanonicalEvent,
  CRM_REPLY_KIND_PREFIX,
  type OwnEnrollment,
  replyClassOf,
  replyDecisionOf,
} from '@touchbase/core';
import type { EventTarget, EventTransaction, StopEffect } from '../apply-event.ports.js';
import type { EnrollmentStep } from '../apply-event.types.js';

/** The alert kind of a reply whose sequence asks to be told. */
export const REPLY_ALERT_KIND = 'reply.received';

/**
 * A reply, as each of the person's sequences says (core's `replyDecisionOf`): the
 * live enrollments end, but those whose sequence goes on after this class and those
 * the reply moved along their `replied` edge (`tookEdge`); the
 * answered sequence's action set then marks the CRM contact (outbox), records a
 * notification (an alert with the reply's first lines, delivered after the commit),
 * hands a named referral to triage and sets a cooldown, all in this transaction.
 */
export async function actOnReply(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
  target: EventTarget,
  effect: StopEffect,
  opts: { now: Date; timeScale: number; notifyCrm: boolean; tookEdge?: string[] },
  /** The person's live enrollments when the transaction read them already (`liveEnrollments`). */
  read?: OwnEnrollment[],
): Promise<{ stopped: EnrollmentStep[]; crmQueued: boolean; alertIds: string[] }> {
  const live = read ?? (await tx.liveEnrollments(target.prospectId));
  const decision = replyDecisionOf(event, live, opts.now, { timeScale: opts.timeScale });
  const tookEdge = opts.tookEdge ?? [];
  const stopped = await tx.stopProspect(target.prospectId, effect.status, effect.reason, event.occurredAt, [
    ...decision.keep,
    ...tookEdge,
  ]);
  const replyClass = replyClassOf(event);
  let crmQueued = false;
  if (decision.markCrm && opts.notifyCrm) {
    crmQueued = await tx.queueCrmNotification({
      eventId,
      prospectId: target.prospectId,
      email: target.email,
      kind: `${CRM_REPLY_KIND_PREFIX}${replyClass}`,
    });
  }
  const alertIds: string[] = [];
  if (decision.notify) {
    const answered = event.enrollmentId ?? live[0]?.id ?? null;
    alertIds.push(
      await tx.raiseAlert({
        kind: REPLY_ALERT_KIND,
        message: `A prospect replied (${replyClass})`,
        data: {
          eventId,
          prospectId: target.prospectId,
          enrollmentId: answered,
          replyClass,
          channel: event.channel,
          // Addresses and numbers were masked when the excerpt was made.
          excerpt: event.excerpt ?? null,
        },
      }),
    );
  }
  if (decision.referral) {
    await tx.recordTriage({
      eventId,
      source: event.source,
      kind: 'referral',
      email: decision.referral,
      classification: event.classification ?? null,
      why: [`${replyClass} reply names another person to write to`, ...(event.why ?? [])].slice(0, 50),
    });
  }
  if (decision.contactAfter) await tx.setContactAfter(target.prospectId, decision.contactAfter);
  if (decision.keep.length > 0 || tookEdge.length > 0 || decision.contactAfter) {
    await tx.audit({
      actor: `ingest:${event.source}`,
      action: 'reply.acted',
      entityType: 'prospect',
      entityId: target.prospectId,
      data: {
        eventId,
        replyClass,
        continued: decision.keep,
        tookRepliedEdge: tookEdge,
        contactAfter: decision.contactAfter?.toISOString() ?? null,
      },
    });
  }
  return { stopped, crmQueued, alertIds };
}

/**
 * An out-of-office: the prospect's enrollments pause until the return date (plus a
 * business day), but those whose sequence ignores out-of-office replies.
 */
export async function pauseAsSequencesSay(
  tx: EventTransaction,
  event: CanonicalEvent,
  target: EventTarget,
  now: Date,
  timeScale: number,
): Promise<EnrollmentStep[]> {
  const live = await tx.liveEnrollments(target.prospectId);
  const decision = replyDecisionOf(event, live, now, { timeScale });
  if (!decision.pauseUntil) return [];
  return tx.pauseProspect(target.prospectId, decision.pauseUntil, decision.keep);
}
