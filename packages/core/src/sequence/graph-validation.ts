import { parseTemplate } from '../templates/template-parser.js';
import { parseDuration } from '../time/duration.js';
import { timeoutEdge } from './graph-walk.js';
import { channelOf, type EdgeTrigger, type SequenceGraph, type SequenceNode } from './sequence-graph.js';

/** One thing wrong with a graph, naming the node and the edge (its index in `edges`) it is about. */
export type GraphIssue = {
  code:
    | 'duplicate_node'
    | 'unknown_node'
    | 'start_is_end'
    | 'edge_from_end'
    | 'unreachable'
    | 'no_way_out'
    | 'timeout_loop'
    | 'cycle_without_wait'
    | 'duplicate_trigger'
    | 'trigger_not_allowed'
    | 'wait_required'
    | 'no_identity'
    | 'unknown_variable';
  message: string;
  /** Where in the definition: `['nodes', 2]` or `['edges', 5, 'to']`. */
  path: (string | number)[];
  node?: string;
  edge?: number;
};

/** What the caller knows of where the sequence sends from; each is checked only when given. */
export type GraphContext = {
  /** The channels the sequence's pool has a sending identity for (a mailbox: email; a LinkedIn account: linkedin). */
  channels?: ReadonlySet<'email' | 'linkedin'>;
  /** The variable names a template may use without a fallback (a near miss in case is refused). */
  knownVariables?: ReadonlySet<string>;
  /**
   * Whether other names may be the prospect's own attributes (known only at the
   * send, which pauses on a missing one): then only a near miss of a known name
   * (`{{firstname}}` for `{{firstName}}`) is refused.
   */
  attributesAllowed?: boolean;
};

// Which actions each trigger may leave from: acceptance only follows an invitation,
// opens and clicks only an e-mail, a failure only an action that can fail for good.
const ALLOWED_FROM: Record<EdgeTrigger, (n: SequenceNode) => boolean> = {
  replied: () => true,
  no_reply: () => true,
  always: () => true,
  connection_accepted: (n) => n.action === 'linkedin_connect',
  not_accepted: (n) => n.action === 'linkedin_connect',
  opened: (n) => n.action === 'email',
  clicked: (n) => n.action === 'email',
  failed: (n) => channelOf(n.action) === 'linkedin',
};

/**
 * Everything wrong with a sequence graph, each issue naming its node and edge; an
 * empty list means it runs: every node reachable from the first, no edge out of an
 * end, every other node with a timeout (so a prospect who does nothing still moves),
 * the timeouts never looping (so every path ends), every cycle through at least one
 * wait, at most one edge per trigger per node, each trigger from an action it can
 * follow, and, when `context` says, a sending identity for each node's channel and
 * only known template variables.
 */
export function validateGraph(graph: SequenceGraph, context: GraphContext = {}): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const index = new Map<string, number>();
  graph.nodes.forEach((node, i) => {
    if (index.has(node.id))
      issues.push({
        code: 'duplicate_node',
        message: `node "${node.id}" is defined twice`,
        path: ['nodes', i, 'id'],
        node: node.id,
      });
    else index.set(node.id, i);
  });
  if (graph.nodes[0]?.action === 'end')
    issues.push({
      code: 'start_is_end',
      message: 'the first node is where enrollments start; it cannot be an end',
      path: ['nodes', 0],
      node: graph.nodes[0].id,
    });

  const seen = new Set<string>();
  graph.edges.forEach((edge, i) => {
    const at = (field?: string): (string | number)[] => (field ? ['edges', i, field] : ['edges', i]);
    const label = `edge ${i} (${edge.from} -${edge.trigger}-> ${edge.to})`;
    for (const end of ['from', 'to'] as const) {
      if (!index.has(edge[end]))
        issues.push({
          code: 'unknown_node',
          message: `${label}: no node "${edge[end]}"`,
          path: at(end),
          node: edge[end],
          edge: i,
        });
    }
    const from = graph.nodes[index.get(edge.from) ?? -1];
    if (!from) return;
    if (from.action === 'end')
      issues.push({
        code: 'edge_from_end',
        message: `${label}: nothing leaves an end node`,
        path: at('from'),
        node: from.id,
        edge: i,
      });
    else if (!ALLOWED_FROM[edge.trigger](from))
      issues.push({
        code: 'trigger_not_allowed',
        message: `${label}: "${edge.trigger}" cannot follow a ${from.action} node`,
        path: at('trigger'),
        node: from.id,
        edge: i,
      });
    if ((edge.trigger === 'no_reply' || edge.trigger === 'not_accepted') && edge.wait === undefined)
      issues.push({
        code: 'wait_required',
        message: `${label}: "${edge.trigger}" needs the wait it is within`,
        path: at('wait'),
        node: from.id,
        edge: i,
      });
    const key = `${edge.from}\u0000${edge.trigger}`;
    if (seen.has(key))
      issues.push({
        code: 'duplicate_trigger',
        message: `${label}: node "${edge.from}" already has a "${edge.trigger}" edge`,
        path: at('trigger'),
        node: from.id,
        edge: i,
      });
    seen.add(key);
  });
  // The rest walks the graph, which needs every edge to name real nodes.
  if (issues.some((x) => x.code === 'unknown_node' || x.code === 'duplicate_node')) return issues;

  reachability(graph, index, issues);
  timeouts(graph, issues);
  zeroWaitCycles(graph, index, issues);
  if (context.channels) identities(graph, context.channels, issues);
  if (context.knownVariables)
    variables(graph, context.knownVariables, context.attributesAllowed ?? false, issues);
  return issues;
}

function reachability(graph: SequenceGraph, index: Map<string, number>, issues: GraphIssue[]): void {
  const reached = new Set<number>([0]);
  const todo = [0];
  while (todo.length > 0) {
    const at = graph.nodes[todo.pop()!]!;
    for (const e of graph.edges) {
      const to = index.get(e.to)!;
      if (e.from === at.id && !reached.has(to)) {
        reached.add(to);
        todo.push(to);
      }
    }
  }
  graph.nodes.forEach((node, i) => {
    if (!reached.has(i))
      issues.push({
        code: 'unreachable',
        message: `node "${node.id}" cannot be reached from "${graph.nodes[0]!.id}"`,
        path: ['nodes', i],
        node: node.id,
      });
  });
}

/** Every non-end node has a timeout, and following the first timeouts always reaches an end. */
function timeouts(graph: SequenceGraph, issues: GraphIssue[]): void {
  graph.nodes.forEach((node, i) => {
    if (node.action === 'end') return;
    if (!timeoutEdge(graph, i + 1)) {
      issues.push({
        code: 'no_way_out',
        message: `node "${node.id}" has no no_reply, not_accepted or always edge: a prospect who does nothing would wait there forever`,
        path: ['nodes', i],
        node: node.id,
      });
      return;
    }
    const visited = new Set<number>([i + 1]);
    let at = i + 1;
    for (;;) {
      const next = timeoutEdge(graph, at);
      if (!next || graph.nodes[next.to - 1]?.action === 'end') return;
      if (visited.has(next.to)) {
        // Reported once, at the node where the loop closes back on the walk's start.
        if (next.to === i + 1) {
          const edge = graph.edges.indexOf(next.edge);
          issues.push({
            code: 'timeout_loop',
            message: `from node "${node.id}" the timeouts loop back to it without an end: edge ${edge} (${next.edge.from} -${next.edge.trigger}-> ${next.edge.to}) closes the loop`,
            path: ['edges', edge],
            node: node.id,
            edge,
          });
        }
        return;
      }
      visited.add(next.to);
      at = next.to;
    }
  });
}

/** A cycle whose every edge waits 0 would run its nodes again at once: refused, naming the edge that closes it. */
function zeroWaitCycles(graph: SequenceGraph, index: Map<string, number>, issues: GraphIssue[]): void {
  const instant = graph.edges
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => parseDuration(e.wait ?? '0s') === 0);
  const state = new Array<0 | 1 | 2>(graph.nodes.length).fill(0);
  const visit = (n: number): void => {
    state[n] = 1;
    for (const { e, i } of instant) {
      if (index.get(e.from) !== n) continue;
      const to = index.get(e.to)!;
      if (state[to] === 1)
        issues.push({
          code: 'cycle_without_wait',
          message: `edge ${i} (${e.from} -${e.trigger}-> ${e.to}) closes a cycle with no wait: give one of its edges a wait`,
          path: ['edges', i, 'wait'],
          node: e.from,
          edge: i,
        });
      else if (state[to] === 0) visit(to);
    }
    state[n] = 2;
  };
  for (let n = 0; n < graph.nodes.length; n++) if (state[n] === 0) visit(n);
}

function identities(
  graph: SequenceGraph,
  channels: ReadonlySet<'email' | 'linkedin'>,
  issues: GraphIssue[],
): void {
  graph.nodes.forEach((node, i) => {
    const channel = channelOf(node.action);
    if (channel && !channels.has(channel))
      issues.push({
        code: 'no_identity',
        message: `node "${node.id}" sends on ${channel}, but the sequence's pool has no ${channel === 'email' ? 'mailbox' : 'LinkedIn account'}`,
        path: ['nodes', i, 'action'],
        node: node.id,
      });
  });
}

function templatesOf(node: SequenceNode): [string, string][] {
  switch (node.action) {
    case 'email':
      return [
        ['subject', node.subject],
        ['body', node.body],
        ...(node.variants ?? []).flatMap((v, k): [string, string][] => [
          [`variants.${k}.subject`, v.subject],
          [`variants.${k}.body`, v.body],
        ]),
      ];
    case 'linkedin_connect':
      return node.note ? [['note', node.note]] : [];
    case 'linkedin_message':
      return [['body', node.body]];
    case 'manual_task':
      return node.instructions ? [['instructions', node.instructions]] : [];
    default:
      return [];
  }
}

function variables(
  graph: SequenceGraph,
  known: ReadonlySet<string>,
  attributes: boolean,
  issues: GraphIssue[],
): void {
  const byLower = new Map([...known].map((k) => [k.toLowerCase(), k]));
  graph.nodes.forEach((node, i) => {
    for (const [field, template] of templatesOf(node)) {
      const parsed = parseTemplate(template);
      if (!parsed.ok) continue;
      for (const part of parsed.parts) {
        if (part.kind !== 'variable' || part.fallback !== undefined || known.has(part.name)) continue;
        const near = byLower.get(part.name.toLowerCase());
        if (attributes && !near) continue;
        issues.push({
          code: 'unknown_variable',
          message: `node "${node.id}" ${field}: unknown variable "{{${part.name}}}"${near ? `; did you mean "{{${near}}}"?` : ''}`,
          path: ['nodes', i, ...field.split('.')],
          node: node.id,
        });
      }
    }
  });
}
