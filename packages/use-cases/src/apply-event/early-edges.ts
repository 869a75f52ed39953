import { type EdgeTrigger, type EventType, edgeTriggerOf } from '@touchbase/core';
import { moveEdgeJobs } from './after-commit.js';
import type { ApplyEventDeps } from './apply-event.deps.js';
import { type EdgeMove, freshResult } from './apply-event.types.js';
import { takeEdges } from './effects/take-edge.effect.js';

/**
 * A LinkedIn event that arrived while the node it is about was being sent (an
 * acceptance the provider pushed before our record of the invitation committed,
 * or after a sender died in between and another one sent it again): when it was
 * applied the enrollment did not yet wait after that node, so it took no edge.
 * Once the send is recorded, the sender calls this: the events recorded since the
 * touch was claimed take their edge now, in one transaction with the same lock
 * and check as `applyEvent`'s, and the jobs move after the commit.
 */
export async function takeEarlyEdges(
  deps: ApplyEventDeps,
  prospectId: string,
  touch: { enrollmentId: string; step: number; attempt: number },
): Promise<EdgeMove[]> {
  const now = deps.clock?.() ?? new Date();
  const moved = await deps.events.transaction(async (tx) => {
    for (const ev of await tx.edgeEventsSince(prospectId, touch)) {
      const trigger: EdgeTrigger | null = edgeTriggerOf(ev.type as EventType);
      if (!trigger) continue;
      const moves = await takeEdges(
        tx,
        ev.id,
        { source: ev.source, data: {} },
        { prospectId, enrollmentId: touch.enrollmentId },
        trigger,
        now,
        { timeScale: deps.timeScale ?? 1, doNotContact: deps.doNotContact },
      );
      // One edge: the enrollment has left the node.
      if (moves.length > 0) return moves;
    }
    return [];
  });
  if (moved.length > 0) {
    await moveEdgeJobs(deps, { ...freshResult('', prospectId, 'edge_taken'), moved });
    deps.logger.info(
      { enrollmentId: touch.enrollmentId, step: touch.step, to: moved[0]?.to.step },
      'Early event took its edge',
    );
  }
  return moved;
}
