import {
  type CanonicalEvent,
  type EnrollmentStatus,
  edgeTakenBy,
  repliedEdgeOpenTo,
  takesRepliedEdge,
} from '@touchbase/core';
import type { EventTarget, EventTransaction } from '../apply-event.ports.js';
import type { EdgeMove } from '../apply-event.types.js';
import type { EventTimingSettings } from './locked-timing.js';
import { moveAlong, takeEdges } from './take-edge.effect.js';

/**
 * A person's reply, before it ends anything: each of the person's enrollments that
 * waits after a node with a `replied` edge, and whose sequence would end on this
 * reply's class (core's `takesRepliedEdge`), takes that edge instead of ending, in
 * the reply's transaction, with the lock and the claim check of every event edge
 * (`takeEdges`): a pending timeout whose touch was claimed first wins, and the reply
 * then ends that enrollment as any reply does. A reply is about the person, on any
 * channel, so every enrollment of theirs is looked at, not only the one it names.
 * One paused by an out-of-office or a colleague's reply takes the edge too, active
 * again (the person is back and answered); one an operator paused does not, and
 * ends as any reply ends it (core's `repliedEdgeOpenTo`).
 *
 * Every enrollment of the person is locked first, in id order, as the stop that
 * follows locks the others: one lock order with concurrent stops.
 */
export async function takeRepliedEdges(
  tx: EventTransaction,
  eventId: string,
  event: CanonicalEvent,
  target: EventTarget,
  opts: { now: Date; settings: EventTimingSettings; replyActions: boolean },
): Promise<EdgeMove[]> {
  if (event.type !== 'reply') return [];
  await tx.lockEnrollmentsOf(target.prospectId);
  const accepts = (e: { status: EnrollmentStatus; stopReason: string | null; sequencePolicies: unknown }) =>
    repliedEdgeOpenTo(e) && takesRepliedEdge(event, e.sequencePolicies, { replyActions: opts.replyActions });
  const moved = await takeEdges(
    tx,
    eventId,
    event,
    { prospectId: target.prospectId, enrollmentId: null },
    'replied',
    opts.now,
    opts.settings,
    accepts,
  );
  // A reply while a node with a `replied` edge is being sent (claimed, not yet
  // recorded) takes that node's edge now: the send's record then finds the
  // enrollment moved on and does not advance it (its guard is the node and attempt).
  for (const e of await tx.lockInFlight(target.prospectId)) {
    if (moved.some((m) => m.id === e.id)) continue;
    const taken = edgeTakenBy(e.graph, e.currentStep, 'replied');
    if (!taken || !accepts(e)) continue;
    moved.push(
      await moveAlong(
        tx,
        eventId,
        event.source,
        e,
        e.currentStep,
        taken,
        'replied',
        opts.now,
        opts.settings,
        true,
      ),
    );
  }
  return moved;
}
