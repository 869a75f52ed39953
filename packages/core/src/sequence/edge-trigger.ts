import type { EventType } from '../events/canonical-event.js';
import { afterNodeFailed, eventEdge, nodeAt } from './graph-walk.js';
import { channelOf, type EdgeTrigger, type SequenceEdge, type SequenceGraph } from './sequence-graph.js';

/**
 * The edge trigger an event of the prospect fires besides its own effect, if any. A
 * reply is not among them: its effect is a stop, and the reply path itself decides
 * which enrollments take their `replied` edge instead of ending (`takesRepliedEdge`).
 */
export function edgeTriggerOf(type: EventType): EdgeTrigger | null {
  switch (type) {
    case 'linkedin.connection_accepted':
      return 'connection_accepted';
    case 'opened':
      return 'opened';
    case 'clicked':
      return 'clicked';
    case 'linkedin.invitation_failed':
      return 'failed';
    default:
      return null;
  }
}

/**
 * Where an event moves an enrollment waiting after node `waitingNode`: its edge of
 * that trigger, at once or after the edge's wait; a failed invitation (reported
 * late) takes the failure edge or skips to another channel (`afterNodeFailed`). Null:
 * the node has no such edge, and the pending timeout stays.
 */
export function edgeTakenBy(
  graph: SequenceGraph,
  waitingNode: number,
  trigger: EdgeTrigger,
): { to: number; wait: string; edge: SequenceEdge | null } | null {
  if (trigger === 'failed') {
    if (channelOf(nodeAt(graph, waitingNode)?.action ?? 'end') !== 'linkedin') return null;
    const f = afterNodeFailed(graph, waitingNode);
    return { to: f.to, wait: f.wait, edge: f.edge };
  }
  const e = eventEdge(graph, waitingNode, trigger);
  return e ? { to: e.to, wait: e.wait, edge: e.edge } : null;
}
