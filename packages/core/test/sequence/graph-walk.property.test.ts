import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  channelOf,
  type EdgeTrigger,
  eventEdge,
  nodeAt,
  type SequenceEdge,
  type SequenceGraph,
  type SequenceNode,
  timeoutEdge,
  validateGraph,
} from '../../src/index.js';

const ACTIONS = ['email', 'linkedin_connect', 'linkedin_message', 'linkedin_visit', 'manual_task'] as const;
const WAITS = ['0s', '4h', '1d', '3d'] as const;
const EVENT_TRIGGERS: EdgeTrigger[] = ['connection_accepted', 'opened', 'clicked', 'failed'];

function nodeOf(action: (typeof ACTIONS)[number], id: string): SequenceNode {
  switch (action) {
    case 'email':
      return { id, action, subject: 's', body: 'b' };
    case 'linkedin_connect':
      return { id, action };
    case 'linkedin_message':
      return { id, action, body: 'b' };
    case 'linkedin_visit':
      return { id, action };
    default:
      return { id, action: 'manual_task', title: 't' };
  }
}

const allowed = (node: SequenceNode, t: EdgeTrigger): boolean =>
  t === 'connection_accepted'
    ? node.action === 'linkedin_connect'
    : t === 'opened' || t === 'clicked'
      ? node.action === 'email'
      : t === 'failed'
        ? channelOf(node.action) === 'linkedin'
        : true;

/**
 * Random graphs valid by construction: a spine of timeouts from each action node to
 * the next (the last to an end), an optional second timeout forward, and event
 * edges anywhere; an edge back (or to itself) always waits, so every cycle has one.
 */
const validGraph: fc.Arbitrary<SequenceGraph> = fc
  .record({
    actions: fc.array(fc.constantFrom(...ACTIONS), { minLength: 1, maxLength: 8 }),
    ends: fc.constant(1),
    choices: fc.array(fc.nat({ max: 1_000 }), { minLength: 200, maxLength: 200 }),
  })
  .map(({ actions, ends, choices }) => {
    let c = 0;
    const pick = (n: number): number => choices[c++ % choices.length]! % n;
    const nodes: SequenceNode[] = actions.map((a, i) => nodeOf(a, `n${i}`));
    for (let k = 0; k < ends; k++) nodes.push({ id: `end${k}`, action: 'end' });
    const edges: SequenceEdge[] = [];
    const n = actions.length;
    actions.forEach((_, i) => {
      const from = nodes[i]!;
      const spine = from.action === 'linkedin_connect' ? 'not_accepted' : 'no_reply';
      const next = i + 1 < n ? `n${i + 1}` : `end${pick(ends)}`;
      edges.push({ from: from.id, to: next, trigger: spine, wait: WAITS[pick(WAITS.length)]! });
      if (pick(2) === 0) {
        // `always` forward, to a later node or an end.
        const later = n - i - 1 + ends;
        const k = pick(later);
        const to = k < n - i - 1 ? `n${i + 1 + k}` : `end${k - (n - i - 1)}`;
        edges.push({ from: from.id, to, trigger: 'always', wait: WAITS[pick(WAITS.length)]! });
      }
      for (const t of EVENT_TRIGGERS) {
        if (!allowed(from, t) || pick(3) !== 0) continue;
        const j = pick(n + ends);
        const to = nodes[j]!.id;
        const back = j <= i;
        edges.push({
          from: from.id,
          to,
          trigger: t,
          wait: back ? WAITS[1 + pick(3)]! : WAITS[pick(WAITS.length)]!,
        });
      }
    });
    return { nodes, edges };
  });

type Happening = 'nothing' | 'reply' | 'accepted' | 'opened' | 'clicked' | 'failed';
const happening = fc.constantFrom<Happening>('nothing', 'reply', 'accepted', 'opened', 'clicked', 'failed');

type Walk = { outcome: 'end' | 'stopped' | 'stuck'; runs: { node: number; waited: number }[] };

/**
 * The runtime's walk, with the same decisions the sender and applyEvent make
 * (timeoutEdge, eventEdge, afterFailure): after each node runs, the next thing the
 * prospect does (or nothing) picks the edge; a reply stops every track.
 */
function walk(graph: SequenceGraph, script: Happening[]): Walk {
  const runs: Walk['runs'] = [];
  let node = 1;
  let waited = 0;
  const limit = (script.length + 1) * graph.nodes.length + 1;
  for (let i = 0; i < limit; i++) {
    const at = nodeAt(graph, node);
    if (!at) return { outcome: 'stuck', runs };
    if (at.action === 'end') return { outcome: 'end', runs };
    runs.push({ node, waited });
    const what = script.shift() ?? 'nothing';
    if (what === 'reply') return { outcome: 'stopped', runs };
    if (what === 'failed' && channelOf(at.action) === 'linkedin') {
      const failed = afterFailure(graph, node);
      // Skipping along the timeouts passes over their waits in the graph.
      let k = node;
      if (failed.edge?.trigger === 'failed') waited += eventEdge(graph, node, 'failed')!.waitMs;
      else
        while (k !== failed.to) {
          const t = timeoutEdge(graph, k)!;
          waited += t.waitMs;
          k = t.to;
        }
      node = failed.to;
      continue;
    }
    const trigger = { accepted: 'connection_accepted', opened: 'opened', clicked: 'clicked' }[
      what as 'accepted' | 'opened' | 'clicked'
    ] as EdgeTrigger | undefined;
    const next = (trigger && eventEdge(graph, node, trigger)) || timeoutEdge(graph, node);
    if (!next) return { outcome: 'stuck', runs };
    waited += next.waitMs;
    node = next.to;
  }
  return { outcome: 'stuck', runs };
}

describe('sequence graphs: properties of the walk over random valid graphs', () => {
  it('the generator makes only graphs the validator accepts', () => {
    fc.assert(
      fc.property(validGraph, (g) => {
        expect(validateGraph(g)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('an enrollment always reaches an end or a stop, and runs a node again only after a wait', () => {
    fc.assert(
      fc.property(validGraph, fc.array(happening, { maxLength: 30 }), (g, script) => {
        const w = walk(g, [...script]);
        expect(w.outcome).not.toBe('stuck');
        const last = new Map<number, number>();
        for (const run of w.runs) {
          const before = last.get(run.node);
          if (before !== undefined) expect(run.waited).toBeGreaterThan(before);
          last.set(run.node, run.waited);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('with no event at all, the timeouts alone reach an end', () => {
    fc.assert(
      fc.property(validGraph, (g) => {
        expect(walk(g, []).outcome).toBe('end');
      }),
      { numRuns: 500 },
    );
  });

  it('a loop with no wait, a second edge of one trigger, or a node without timeout is refused', () => {
    fc.assert(
      fc.property(validGraph, fc.nat(), fc.constantFrom('loop', 'duplicate', 'stranded'), (g, k, how) => {
        const actions = g.nodes.filter((n) => n.action !== 'end');
        const node = actions[k % actions.length]!;
        const broken: SequenceGraph =
          how === 'loop'
            ? { ...g, edges: [...g.edges, { from: node.id, to: node.id, trigger: 'replied' }] }
            : how === 'duplicate'
              ? { ...g, edges: [...g.edges, { ...g.edges.find((e) => e.from === node.id)! }] }
              : {
                  ...g,
                  edges: g.edges.filter(
                    (e) => e.from !== node.id || !['no_reply', 'not_accepted', 'always'].includes(e.trigger),
                  ),
                };
        const code = { loop: 'cycle_without_wait', duplicate: 'duplicate_trigger', stranded: 'no_way_out' }[
          how
        ];
        expect(validateGraph(broken)).toEqual(
          expect.arrayContaining([expect.objectContaining({ code, node: node.id })]),
        );
      }),
      { numRuns: 300 },
    );
  });
});
