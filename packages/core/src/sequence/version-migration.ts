import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { TouchTiming } from '../schedule/next-touch-due.js';
import { type FittedDue, fitDue } from '../schedule/refit-due.js';
import { nextNodeDue } from '../schedule/touch-timing.js';
import { nodeAt, nodeNumber } from './graph-walk.js';
import { isTimeout, NodeIdSchema, type SequenceGraph, type SequenceNode } from './sequence-graph.js';

/**
 * The enrollment statuses a migration moves: the live ones (LIVE_STATUSES), with a
 * node still ahead of them; `queued` waits for its domain to resume its first touch.
 */
export const MIGRATABLE_STATUSES = ['queued', 'active', 'paused'] as const;

/** Which enrollments of the source version a migration takes (all live ones when absent). */
export const MigrationFilterSchema = z
  .object({
    statuses: z
      .array(z.enum(MIGRATABLE_STATUSES))
      .min(1)
      .optional()
      .describe('Only enrollments in these statuses (default: every live one: queued, active, paused)'),
    nodes: z.array(NodeIdSchema).min(1).optional().describe('Only enrollments at these source nodes'),
  })
  .strict();

/** Source node → target node, by node id (`step-2` → `step-2`). */
export const NodeMappingSchema = z
  .record(NodeIdSchema, NodeIdSchema)
  .describe('Source node id → target node id; every live source node in the filter must be mapped');

export type MigrationFilter = z.infer<typeof MigrationFilterSchema>;
export type NodeMapping = z.infer<typeof NodeMappingSchema>;

/**
 * A node a touch ran: the version it ran in (id) and the node's number in THAT
 * version's graph. Node numbers are per version: an enrollment migrated v1 -> v2 ->
 * v3 has touches numbered by v1's and v2's graphs, so a number alone does not name a node.
 */
export type RanNode = { version: string; node: number };

/** The graphs of the versions touches ran in, by version id. */
export type VersionGraphs = ReadonlyMap<string, SequenceGraph>;

/**
 * The ids (a node's identity across versions) of the nodes touches ran, each
 * (version, number) read in its own version's graph.
 * @throws when a version's graph is not given: a path cannot be judged blind.
 */
export function ranNodeIds(ran: readonly RanNode[], graphs: VersionGraphs): Set<string> {
  const ids = new Set<string>();
  for (const r of ran) {
    const graph = graphs.get(r.version);
    if (!graph) throw new Error(`the graph of version ${r.version} (a touch ran in it) was not given`);
    const node = nodeAt(graph, r.node);
    if (node) ids.add(node.id);
  }
  return ids;
}

/** The distinct versions touches ran in (to load their graphs). */
export function ranVersions(ran: Iterable<readonly RanNode[]>): string[] {
  const versions = new Set<string>();
  for (const list of ran) for (const r of list) versions.add(r.version);
  return [...versions].sort();
}

/** One enrollment of the source version as the plan sees it. */
export type MigrationCandidate = {
  id: string;
  /** The node it is at (enrollment.current_step). */
  node: number;
  status: string;
  /**
   * The nodes it has a touch row for, its pending touch aside, each as (the version
   * the touch ran in, its node number there): the nodes its path actually ran,
   * whichever branch it took, in whichever version.
   */
  ran: readonly RanNode[];
  /** Whether any touch of it was sent: a person mid-thread. */
  midThread: boolean;
};

/** Why a mapping cannot be applied, naming the node (`field` points into the request). */
export type MigrationProblem = {
  field: string;
  node: string;
  code: 'unknown_source_node' | 'missing_target_node' | 'unmapped_node' | 'resend';
  message: string;
  enrollments?: number;
};

/** Where one enrollment goes. */
export type MigrationMove = { enrollmentId: string; fromNode: number; toNode: number };

/** A migration's plan: the moves, the skips and the copy that changes, or the problems that refuse it. */
export type MigrationPlan = {
  problems: MigrationProblem[];
  moves: MigrationMove[];
  perSourceNode: { from: string; to: string; enrollments: number }[];
  skipped: { enrollmentId: string; node: string; reason: 'at_end' }[];
  changedMessages: { from: string; to: string; enrollments: number; fields: string[] }[];
  fingerprint: string;
};

const idOf = (graph: SequenceGraph, n: number): string => nodeAt(graph, n)?.id ?? `#${n}`;

/**
 * Whether moving an enrollment onto node `target` of graph `to` would do again an
 * action its path already did: the target is a node (by id, a node's identity
 * across versions) among those it ran (`ran`: (version, number) pairs, each read
 * in its own version's graph, {@link ranNodeIds}). Decided by the path actually
 * taken, not by node numbers: on a branching graph a node on a branch the
 * enrollment never took was never run, whatever its number, and a number of an
 * older version names that version's node. An end never acts.
 */
export function wouldResend(
  to: SequenceGraph,
  target: number,
  ran: readonly RanNode[],
  graphs: VersionGraphs,
): boolean {
  const node = nodeAt(to, target);
  if (!node || node.action === 'end') return false;
  return ranNodeIds(ran, graphs).has(node.id);
}

/**
 * The attempt a moved enrollment's touch at node `target` takes: its own when it
 * stays on its node number (a resend keeps its key), else one past any touch row
 * that number already has (a node run under that number on another branch or
 * version), so the new touch's key is free, as the live walk's edges do.
 */
export function migratedAttempt(
  move: { fromNode: number; toNode: number; attempt: number },
  attempts: Readonly<Record<number, number>>,
): number {
  if (move.toNode === move.fromNode) return move.attempt;
  return (attempts[move.toNode] ?? 0) + 1;
}

/** The content fields of a node that differ from another's (what a person would read differently). */
export function changedFields(a: SequenceNode | undefined, b: SequenceNode | undefined): string[] {
  if (!a || !b) return ['node'];
  if (a.action !== b.action) return ['action'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => k !== 'id' && k !== 'action'));
  const rec = (n: SequenceNode) => n as unknown as Record<string, unknown>;
  return [...keys].filter((k) => JSON.stringify(rec(a)[k]) !== JSON.stringify(rec(b)[k])).sort();
}

/**
 * A fingerprint of the population a plan was made for: its enrollment ids, nodes
 * and statuses. Applying refuses when the population no longer has it.
 */
export function populationFingerprint(
  candidates: readonly Pick<MigrationCandidate, 'id' | 'node' | 'status'>[],
): string {
  const lines = candidates.map((c) => `${c.id}:${c.node}:${c.status}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/**
 * Plans a migration from graph `from` to graph `to` for the live enrollments of
 * `from` the filter took: each lands on the target its node is mapped to. Refused
 * (problems, each naming its node) when a mapping names a node `from` lacks or a
 * target `to` lacks, a live enrollment's node is unmapped (it would be lost), or a
 * target would act again for some enrollment: one its path already ran ({@link wouldResend}).
 */
export function planMigration(input: {
  from: SequenceGraph;
  to: SequenceGraph;
  mapping: NodeMapping;
  candidates: readonly MigrationCandidate[];
  /** The graph of every version the candidates' touches ran in ({@link ranVersions}). */
  graphs: VersionGraphs;
}): MigrationPlan {
  const { from, to, mapping, candidates, graphs } = input;
  const problems: MigrationProblem[] = [];
  for (const [source, target] of Object.entries(mapping)) {
    if (nodeNumber(from, source) === 0)
      problems.push({
        field: `mapping.${source}`,
        node: source,
        code: 'unknown_source_node',
        message: `the source version has no node "${source}"`,
      });
    if (nodeNumber(to, target) === 0)
      problems.push({
        field: `mapping.${source}`,
        node: target,
        code: 'missing_target_node',
        message: `node "${source}" is mapped to "${target}", which the target version does not have`,
      });
  }
  const moves: MigrationMove[] = [];
  const skipped: MigrationPlan['skipped'] = [];
  const unmapped = new Map<string, number>();
  const resends = new Map<string, { target: string; n: number }>();
  const perSource = new Map<string, { from: string; to: string; enrollments: number }>();
  const changed = new Map<string, { from: string; to: string; enrollments: number; fields: string[] }>();
  for (const c of candidates) {
    const source = nodeAt(from, c.node);
    if (!source || source.action === 'end') {
      skipped.push({ enrollmentId: c.id, node: idOf(from, c.node), reason: 'at_end' });
      continue;
    }
    const targetId = mapping[source.id];
    if (targetId === undefined) {
      unmapped.set(source.id, (unmapped.get(source.id) ?? 0) + 1);
      continue;
    }
    const target = nodeNumber(to, targetId);
    if (target === 0) continue;
    if (wouldResend(to, target, c.ran, graphs)) {
      const r = resends.get(source.id) ?? { target: targetId, n: 0 };
      r.n++;
      resends.set(source.id, r);
      continue;
    }
    moves.push({ enrollmentId: c.id, fromNode: c.node, toNode: target });
    const key = `${source.id}\u0000${targetId}`;
    const per = perSource.get(key) ?? { from: source.id, to: targetId, enrollments: 0 };
    per.enrollments++;
    perSource.set(key, per);
    const fields = changedFields(source, nodeAt(to, target));
    if (c.midThread && fields.length > 0) {
      const ch = changed.get(key) ?? { from: source.id, to: targetId, enrollments: 0, fields };
      ch.enrollments++;
      changed.set(key, ch);
    }
  }
  for (const [node, n] of unmapped)
    problems.push({
      field: `mapping.${node}`,
      node,
      code: 'unmapped_node',
      message: `${n} live enrollment(s) are at node "${node}", which the mapping leaves out: they would be lost`,
      enrollments: n,
    });
  for (const [node, r] of resends)
    problems.push({
      field: `mapping.${node}`,
      node,
      code: 'resend',
      message: `node "${node}" is mapped to "${r.target}", which ${r.n} enrollment(s) already ran on their path: it would act again`,
      enrollments: r.n,
    });
  return {
    problems,
    moves,
    perSourceNode: [...perSource.values()],
    skipped,
    changedMessages: [...changed.values()],
    fingerprint: populationFingerprint(candidates),
  };
}

/**
 * When the touch of node `target` of graph `to` is due for an enrollment moved
 * there: what the sender would have scheduled ({@link nextNodeDue}, with the
 * enrollment's timing as the sender builds it: `touchTimingOf`) had the last touch
 * that ran led into it: the wait of the timeout edge into it from the node that
 * touch ran (`lastRunNode`, by id), else from the highest-numbered node before it
 * that has one, after that touch; a first node keeps its pending time. Never in
 * the past, and always inside the window; with the raw time kept, so a later
 * window change re-fits it.
 */
export function migratedTouchDue(input: {
  to: SequenceGraph;
  target: number;
  lastRunAt: Date | null;
  /** The id of the node the last touch ran (on the enrollment's path), when known. */
  lastRunNode?: string | null;
  pendingAt: Date | null;
  now: Date;
  timing: TouchTiming;
}): FittedDue {
  const { to, target, lastRunAt, lastRunNode, pendingAt, now, timing } = input;
  const node = nodeAt(to, target);
  const timeouts = to.edges.filter((e) => node && e.to === node.id && isTimeout(e.trigger));
  const into =
    timeouts.find((e) => lastRunNode && e.from === lastRunNode) ??
    timeouts
      .map((e) => ({ e, from: nodeNumber(to, e.from) }))
      .filter((x) => x.from > 0 && x.from < target)
      .sort((a, b) => b.from - a.from)[0]?.e;
  if (into && lastRunAt) {
    const due = nextNodeDue(lastRunAt, into.wait ?? '0s', timing);
    if (due.at.getTime() >= now.getTime()) return due;
  }
  const pending = pendingAt && pendingAt.getTime() > now.getTime() ? pendingAt : now;
  return fitDue(pending, timing);
}
