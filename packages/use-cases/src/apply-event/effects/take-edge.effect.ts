import { type CanonicalEvent, type EdgeTrigger, edgeTakenBy, nextNodeDue, nodeAt } from '@touchbase/core';
import type { EventTarget, EventTransaction, WaitingEnrollmentRow } from '../apply-event.ports.js';
import type { EdgeMove } from '../apply-event.types.js';
import { type EventTimingSettings, lockedTimingOf } from './locked-timing.js';

/**
 * An event that fires an edge trigger (connection accepted, opened, clicked, a late
 * invitation failure, a person's reply) moves each of the prospect's enrollments waiting after a node
 * with an edge of that trigger, at once, in the event's transaction: the
 * enrollment is locked (serialising with the sender's claim, as a reply's stop
 * does), then, if the pending timeout's touch has not been claimed meanwhile (its
 * edge was taken first: this event is too late for it), it moves to the edge's
 * node, due after the edge's wait. The after-commit step removes the timeout's job
 * and adds the new node's. An audit row on the enrollment names the edge, the
 * trigger and the event, for its timeline. Only a reply sees paused enrollments, and
 * only those `accepts` lets through (core's `repliedEdgeOpenTo`) move, active again.
 */
export async function takeEdges(
  tx: EventTransaction,
  eventId: string,
  event: Pick<CanonicalEvent, 'source' | 'data'>,
  target: Pick<EventTarget, 'prospectId' | 'enrollmentId'>,
  trigger: EdgeTrigger,
  now: Date,
  settings: EventTimingSettings,
  /** Whether this enrollment's sequence lets the event take the edge (a reply's class: `takesRepliedEdge`). */
  accepts: (e: WaitingEnrollmentRow) => boolean = () => true,
): Promise<EdgeMove[]> {
  // Only a reply may lift a pause (which ones: `accepts`, core's `repliedEdgeOpenTo`); other triggers see active enrollments.
  const waiting = await tx.lockWaiting(target.prospectId, target.enrollmentId, trigger === 'replied');
  const moves: EdgeMove[] = [];
  const touchId = typeof event.data?.touchId === 'string' ? event.data.touchId : null;
  for (const e of waiting) {
    const taken = edgeTakenBy(e.graph, e.waitingNode, trigger);
    if (!taken || !accepts(e)) continue;
    // An open or a click of an older e-mail is not about the node waiting now (a reply
    // is about the person, whichever message it answers).
    if (touchId && trigger !== 'replied' && (await tx.touchStep(touchId)) !== e.waitingNode) continue;
    if (await tx.nodeStarted(e.id, e.currentStep, e.currentAttempt)) continue;
    moves.push(await moveAlong(tx, eventId, event.source, e, e.waitingNode, taken, trigger, now, settings));
  }
  return moves;
}

/** An enrollment locked by an event, with what timing its move needs (`WaitingEnrollmentRow` but the node it waits after). */
export type LockedEnrollmentRow = Omit<WaitingEnrollmentRow, 'waitingNode'>;

/**
 * Moves one locked enrollment along the edge `taken` out of node `from`, due after
 * the edge's wait in its timing, as the sender schedules a next node (core's
 * `touchTimingOf`, do-not-contact hours included, and `nextNodeDue`, whose raw time
 * is stored for a window change to re-fit), and writes the audit row `enrollment.edge_taken`.
 */
export async function moveAlong(
  tx: EventTransaction,
  eventId: string,
  source: string,
  e: LockedEnrollmentRow,
  from: number,
  taken: { to: number; wait: string },
  trigger: EdgeTrigger,
  now: Date,
  settings: EventTimingSettings,
  /** The move is out of the node whose send is in flight (claimed, not yet recorded), not out of the node it waits after. */
  duringSend = false,
): Promise<EdgeMove> {
  // A '0s' wait is `now` placed in the window (the raw time is `now`).
  const due = nextNodeDue(now, taken.wait, lockedTimingOf(e, settings));
  const dueAt = due.at;
  const attempt = await tx.moveAlongEdge(e.id, taken.to, due);
  await tx.audit({
    actor: `event:${source}`,
    action: 'enrollment.edge_taken',
    entityType: 'enrollment',
    entityId: e.id,
    data: {
      eventId,
      trigger,
      from: nodeAt(e.graph, from)?.id,
      to: nodeAt(e.graph, taken.to)?.id,
      wait: taken.wait,
      // The timeout's node it was due at instead; none when the move is out of that node itself.
      ...(duringSend ? { duringSend } : { instead: nodeAt(e.graph, e.currentStep)?.id }),
      // A pause the reply lifted (an out-of-office, a colleague's reply): active again on the edge.
      ...(e.status === 'paused' ? { resumedFrom: e.stopReason } : {}),
    },
  });
  return {
    id: e.id,
    from: { step: e.currentStep, attempt: e.currentAttempt },
    to: { step: taken.to, attempt, dueAt },
  };
}
