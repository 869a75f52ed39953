import { parseDuration } from '../time/duration.js';
import type { SequenceStep } from './sequence-definition.js';
import {
  channelOf,
  type EdgeTrigger,
  isTimeout,
  type SequenceEdge,
  type SequenceGraph,
  type SequenceNode,
} from './sequence-graph.js';

/**
 * The graph of a linear list of e-mail steps: node n is step n (`step-n`), then an
 * `end`; each step's wait becomes the `no_reply` edge to the next node. So a
 * chain's node numbers are its step numbers, and `steps + 1` (where an enrollment
 * sits once every step was sent) is its end, as before graphs existed. The
 * migration `20261127010000_sequence_graphs` writes the same graph in SQL.
 */
export function chainGraph(steps: readonly SequenceStep[]): SequenceGraph {
  const nodes: SequenceNode[] = steps.map((s, i) => ({
    id: `step-${i + 1}`,
    action: 'email',
    subject: s.subject,
    body: s.body,
    ...(s.variants ? { variants: s.variants } : {}),
  }));
  nodes.push({ id: 'end', action: 'end' });
  const edges: SequenceEdge[] = steps.map((s, i) => ({
    from: `step-${i + 1}`,
    to: i + 1 < steps.length ? `step-${i + 2}` : 'end',
    trigger: 'no_reply',
    wait: s.wait ?? '0s',
  }));
  return { nodes, edges };
}

/** The node numbered `n` (1-based: the touch's step), or undefined past the ends. */
export function nodeAt(graph: SequenceGraph, n: number): SequenceNode | undefined {
  return graph.nodes[n - 1];
}

/** The number (1-based) of the node named `id`; 0 when there is none. */
export function nodeNumber(graph: SequenceGraph, id: string): number {
  return graph.nodes.findIndex((x) => x.id === id) + 1;
}

/** An edge out of a node, resolved: its target's number and its wait in ms (before TIME_SCALE). */
export type NextNode = { edge: SequenceEdge; to: number; wait: string; waitMs: number };

function resolved(graph: SequenceGraph, edge: SequenceEdge): NextNode {
  const wait = edge.wait ?? '0s';
  return { edge, to: nodeNumber(graph, edge.to), wait, waitMs: parseDuration(wait) };
}

/** The edges leaving node number `n`, in the order the definition lists them. */
export function edgesFrom(graph: SequenceGraph, n: number): SequenceEdge[] {
  const node = nodeAt(graph, n);
  return node ? graph.edges.filter((e) => e.from === node.id) : [];
}

/**
 * The timeout that fires first after node `n` ran (the earliest wait of its
 * `no_reply`, `not_accepted` and `always` edges; the first listed on a tie): the
 * next delayed job. Null for an end, which has none.
 */
export function timeoutEdge(graph: SequenceGraph, n: number): NextNode | null {
  let best: NextNode | null = null;
  for (const edge of edgesFrom(graph, n)) {
    if (!isTimeout(edge.trigger)) continue;
    const next = resolved(graph, edge);
    if (!best || next.waitMs < best.waitMs) best = next;
  }
  return best;
}

/** The edge of `trigger` out of node `n`, if the graph has one (at most one: validated). */
export function eventEdge(graph: SequenceGraph, n: number, trigger: EdgeTrigger): NextNode | null {
  const edge = edgesFrom(graph, n).find((e) => e.trigger === trigger);
  return edge ? resolved(graph, edge) : null;
}

/**
 * Where an enrollment goes when node `n`'s action failed for good (a LinkedIn
 * profile not found, not connectable): its `failed` edge, else along the timeouts
 * (at once, not after their waits) to the first node of another channel or an end,
 * as lemlist does. `skipped` names the nodes passed over.
 */
export function afterFailure(
  graph: SequenceGraph,
  n: number,
): { to: number; edge: SequenceEdge | null; skipped: string[] } {
  const failed = eventEdge(graph, n, 'failed');
  if (failed) return { to: failed.to, edge: failed.edge, skipped: [] };
  const channel = channelOf(nodeAt(graph, n)?.action ?? 'end');
  const skipped: string[] = [];
  let at = n;
  let first: SequenceEdge | null = null;
  // The timeouts never loop (validated), so this walk ends within the node count.
  for (let guard = 0; guard <= graph.nodes.length; guard++) {
    const next = timeoutEdge(graph, at);
    if (!next) break;
    first ??= next.edge;
    const node = nodeAt(graph, next.to);
    if (!node || node.action === 'end' || channelOf(node.action) !== channel)
      return { to: next.to, edge: first, skipped };
    skipped.push(node.id);
    at = next.to;
  }
  return { to: graph.nodes.findIndex((x) => x.action === 'end') + 1, edge: first, skipped };
}

/** Where the walk goes next, and after what wait: the edge taken (null: none, the walk just goes on). */
export type WalkStep = { to: number; wait: string; edge: SequenceEdge | null };

/**
 * Where an enrollment goes once node `n`'s action was done: along the node's first
 * timeout (`timeoutEdge`), due after its wait; a node without one goes on to the
 * next node at once. The sender's record of a send and the simulator both walk by it.
 */
export function afterNodeRan(graph: SequenceGraph, n: number): WalkStep {
  const next = timeoutEdge(graph, n);
  return next ? { to: next.to, wait: next.wait, edge: next.edge } : { to: n + 1, wait: '0s', edge: null };
}

/**
 * Where an enrollment goes once node `n`'s action failed for good (`afterFailure`):
 * the `failed` edge's wait, or at once when it skips along the timeouts. The
 * sender's failed node, a late failure's event and the simulator walk by it.
 */
export function afterNodeFailed(graph: SequenceGraph, n: number): WalkStep & { skipped: string[] } {
  const f = afterFailure(graph, n);
  return {
    to: f.to,
    wait: f.edge?.trigger === 'failed' ? (f.edge.wait ?? '0s') : '0s',
    edge: f.edge,
    skipped: f.skipped,
  };
}

/** The first e-mail node (by node order), whose subject later e-mails thread under. */
export function firstEmailNode(graph: SequenceGraph): number {
  return graph.nodes.findIndex((x) => x.action === 'email') + 1;
}

/** A touch of a timeline placed on its graph: its node, action, and the edge the walk took to reach it. */
export type PlacedTouch = {
  node: string | null;
  action: SequenceNode['action'] | null;
  /** Null for the first node; else the edge from the node run before (`trigger` says why). */
  edge: { from: string; trigger: SequenceEdge['trigger']; wait: string } | null;
};

/**
 * Places an enrollment's touches (in the order they were made) on its graph: the
 * node of each and the edge that led to it. An edge an event took is named by
 * `eventEdges` (from the audit log); otherwise it was the timeout (or, after a
 * node that failed, the failure edge or the skip to another channel).
 */
export function placeTouches(
  graph: SequenceGraph,
  touches: readonly { step: number; status: string }[],
  eventEdges: readonly { from: string; to: string; trigger: SequenceEdge['trigger'] }[] = [],
): PlacedTouch[] {
  const events = [...eventEdges];
  let before: { step: number; status: string } | null = null;
  return touches.map((t) => {
    const node = nodeAt(graph, t.step);
    const prev = before ? nodeAt(graph, before.step) : undefined;
    let edge: PlacedTouch['edge'] = null;
    if (before && prev && node && before.step === t.step) {
      edge = null; // another attempt of the same node (a resend)
    } else if (prev && node) {
      const k = events.findIndex((e) => e.from === prev.id && e.to === node.id);
      const taken = k >= 0 ? events.splice(k, 1)[0]! : null;
      const timeout = timeoutEdge(graph, before!.step);
      const found = taken
        ? eventEdge(graph, before!.step, taken.trigger)?.edge
        : before!.status === 'failed'
          ? (afterFailure(graph, before!.step).edge ?? undefined)
          : timeout?.edge;
      if (found) edge = { from: prev.id, trigger: found.trigger, wait: found.wait ?? '0s' };
    }
    before = t;
    return { node: node?.id ?? null, action: node?.action ?? null, edge };
  });
}
