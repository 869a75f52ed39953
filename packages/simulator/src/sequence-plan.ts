import {
  afterNodeFailed,
  afterNodeRan,
  chainGraph,
  channelOf,
  type EdgeTrigger,
  edgeTakenBy,
  type SequenceAction,
  type SequenceGraph,
} from '@touchbase/core';
import type { SimulatedStep } from './simulation.schemas.js';

/** The channel a node's touch counts under: e-mail, LinkedIn, a manual task, or an end. */
export type PlanChannel = 'email' | 'linkedin' | 'manual' | 'end';

/**
 * A node of a sequence's graph: its action on a channel. `index` is its place in
 * the plan's `nodes` (the graph's node number minus one); a chain's node i is step i + 1.
 */
export type PlanNode = { id: string; action: SequenceAction; channel: PlanChannel; index: number };

/** What happened after a touch: it went out quietly, or an answer came back. */
export type TouchOutcome = 'sent' | 'replied' | 'bounced' | 'out_of_office' | 'failed';

/** The prospect's events that may take an edge out of the node run last. */
export type PlanEvent = Extract<EdgeTrigger, 'opened' | 'clicked' | 'connection_accepted'>;

/** Where the walk goes: a node (an end node ends the enrollment, exhausted), after a wait. */
export type PlanMove = { node: PlanNode; wait: string };

/**
 * The interface the simulator runs a sequence through: the first node, where the
 * walk goes once a node ran or failed for good, and where an event moves it.
 */
export interface SequencePlan {
  readonly nodes: readonly PlanNode[];
  first(): PlanNode;
  /** The node's action was done: the next node and its wait. */
  afterRun(node: PlanNode): PlanMove;
  /** The node's action failed for good (a LinkedIn profile not found). */
  afterFailure(node: PlanNode): PlanMove;
  /** An event while waiting after `node`: the edge it takes, or null (the pending timeout stays). */
  onEvent(node: PlanNode, event: PlanEvent): PlanMove | null;
}

/**
 * A sequence graph as a plan, walked by the very functions the live system walks it
 * by: the sender's `afterNodeRan` after a send and `afterNodeFailed` after a failed
 * LinkedIn action, ingest's `edgeTakenBy` for an open, a click or an accepted
 * invitation. The graph is validated by the caller.
 */
export function graphPlan(graph: SequenceGraph): SequencePlan {
  const nodes: PlanNode[] = graph.nodes.map((n, i) => ({
    id: n.id,
    action: n.action,
    channel: n.action === 'end' ? 'end' : (channelOf(n.action) ?? 'manual'),
    index: i,
  }));
  // Past the last node (a node with no timeout at the end of the list): an end.
  const past: PlanNode = { id: 'end', action: 'end', channel: 'end', index: nodes.length };
  const at = (number: number): PlanNode => nodes[number - 1] ?? past;
  return {
    nodes,
    first: () => nodes[0] as PlanNode,
    afterRun(node) {
      const next = afterNodeRan(graph, node.index + 1);
      return { node: at(next.to), wait: next.wait };
    },
    afterFailure(node) {
      const next = afterNodeFailed(graph, node.index + 1);
      return { node: at(next.to), wait: next.wait };
    },
    onEvent(node, event) {
      const taken = edgeTakenBy(graph, node.index + 1, event);
      return taken ? { node: at(taken.to), wait: taken.wait } : null;
    },
  };
}

/** Today's list of steps as its chain graph (core's `chainGraph`, as the API stores it) walked as a plan. */
export function linearPlan(steps: readonly SimulatedStep[] = []): SequencePlan {
  return graphPlan(
    chainGraph(
      steps.map((s) => ({
        channel: 'email' as const,
        subject: s.subject ?? '',
        body: s.body ?? '',
        wait: s.wait,
      })),
    ),
  );
}

/** The plan of a simulation's sequence: its graph, else the chain of its steps. */
export function planOf(sequence: {
  steps?: readonly SimulatedStep[] | undefined;
  graph?: SequenceGraph | undefined;
}): SequencePlan {
  return sequence.graph ? graphPlan(sequence.graph) : linearPlan(sequence.steps);
}
