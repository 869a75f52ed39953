import {
  afterNodeFailed,
  afterNodeRan,
  edgeTakenBy,
  type SequenceEdge,
  type SequenceGraph,
  type SequenceNode,
  validateGraph,
} from '@touchbase/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { populationOf } from '../src/prospects.js';
import { runCampaign } from '../src/run-campaign.js';
import { graphPlan } from '../src/sequence-plan.js';
import { SimulationInputSchema } from '../src/simulation.schemas.js';

const ACTIONS = ['email', 'linkedin_connect', 'linkedin_message', 'manual_task'] as const;
const WAITS = ['1d', '2d', '3d', '7d'];

function nodeOf(id: string, action: (typeof ACTIONS)[number]): SequenceNode {
  if (action === 'email') return { id, action, subject: 'Hi', body: 'Body' };
  if (action === 'linkedin_connect') return { id, action };
  if (action === 'linkedin_message') return { id, action, body: 'Hello' };
  return { id, action, title: 'Call' };
}

/**
 * A random graph: action nodes n1..nk and an end; each node's timeout goes forward
 * (so timeouts never loop), its event edges (opened, clicked, accepted, failed) go
 * anywhere, backward ones after a wait (a cycle needs one).
 */
const graphArb = fc
  .integer({ min: 2, max: 6 })
  .chain((k) =>
    fc.record({
      actions: fc.array(fc.constantFrom(...ACTIONS), { minLength: k, maxLength: k }),
      timeouts: fc.array(
        fc.record({ ahead: fc.integer({ min: 1, max: k }), wait: fc.constantFrom(...WAITS) }),
        {
          minLength: k,
          maxLength: k,
        },
      ),
      events: fc.array(
        fc.record({
          kind: fc.constantFrom('opened', 'clicked', 'connection_accepted', 'failed'),
          to: fc.integer({ min: 0, max: k }),
          wait: fc.constantFrom('0s', '4h', '1d'),
        }),
        { minLength: k, maxLength: k },
      ),
    }),
  )
  .map(({ actions, timeouts, events }): SequenceGraph => {
    const k = actions.length;
    const id = (i: number) => (i >= k ? 'end' : `n${i + 1}`);
    const nodes: SequenceNode[] = actions.map((a, i) => nodeOf(id(i), a));
    nodes.push({ id: 'end', action: 'end' });
    const edges: SequenceEdge[] = [];
    actions.forEach((a, i) => {
      const t = timeouts[i]!;
      edges.push({
        from: id(i),
        to: id(Math.min(k, i + t.ahead)),
        trigger: a === 'linkedin_connect' ? 'not_accepted' : a === 'manual_task' ? 'always' : 'no_reply',
        wait: t.wait,
      });
      const ev = events[i]!;
      const allowed =
        ev.kind === 'opened' || ev.kind === 'clicked'
          ? a === 'email'
          : ev.kind === 'connection_accepted'
            ? a === 'linkedin_connect'
            : a === 'linkedin_connect' || a === 'linkedin_message';
      if (allowed)
        edges.push({ from: id(i), to: id(ev.to), trigger: ev.kind, wait: ev.to <= i ? '1d' : ev.wait });
    });
    return { nodes, edges };
  })
  .filter((g) => validateGraph(g).length === 0);

type Odds = { open: number; click: number; accept: number; failure: number };

/**
 * The live walk of one enrollment whose every event is certain (odds 0 or 1):
 * node by node, the function each live part calls. The sender after a send
 * (`afterNodeRan`) or a failed LinkedIn action (`afterNodeFailed`); ingest on an
 * open, a click or an acceptance (`edgeTakenBy`, the first that has an edge: the
 * move closes the node's other event edges).
 */
function liveWalk(graph: SequenceGraph, odds: Odds, maxTouches: number): string[] {
  const path: string[] = [];
  let n = 1;
  while (path.length < maxTouches) {
    const node = graph.nodes[n - 1];
    if (!node || node.action === 'end') break;
    path.push(node.id);
    const linkedin = node.action.startsWith('linkedin');
    if (linkedin && odds.failure === 1) {
      n = afterNodeFailed(graph, n).to;
      continue;
    }
    const events = [
      node.action === 'email' && (odds.open === 1 || odds.click === 1) ? 'opened' : null,
      node.action === 'email' && odds.click === 1 ? 'clicked' : null,
      node.action === 'linkedin_connect' && odds.accept === 1 ? 'connection_accepted' : null,
    ] as const;
    const taken = events.map((e) => (e ? edgeTakenBy(graph, n, e) : null)).find((t) => t !== null);
    n = taken ? taken.to : afterNodeRan(graph, n).to;
  }
  return path;
}

describe('the simulator walks a graph as the live system does', () => {
  it('visits the nodes the live walk functions give for the same events', () => {
    fc.assert(
      fc.property(
        graphArb,
        fc.record({
          open: fc.constantFrom(0, 1),
          click: fc.constantFrom(0, 1),
          accept: fc.constantFrom(0, 1),
          failure: fc.constantFrom(0, 1),
        }),
        (graph, odds) => {
          const settings = SimulationInputSchema.parse({
            start: '2027-03-01T09:00:00Z',
            seed: 3,
            horizonDays: 120,
            sequence: { graph },
            mailboxes: [
              { id: 'a@walk.test', perMinute: 10_000, perHour: 100_000, perDay: 1_000_000, windowDays: [] },
            ],
            prospects: { count: 3 },
            odds: { ...odds, reply: 0, bounce: 0, outOfOffice: 0 },
            pacingMs: 0,
          });
          const run = runCampaign(
            settings,
            settings.mailboxes,
            graphPlan(graph),
            populationOf(settings.prospects),
          );
          for (let e = 0; e < 3; e++) {
            const visited = run.sends.node
              .filter((_, i) => run.sends.enrollment[i] === e)
              .map((n) => graph.nodes[n]!.id);
            // A cycle may run until the horizon: the simulator's path is the live walk's, as far as it got.
            expect(visited.length).toBeGreaterThan(0);
            expect(visited).toEqual(liveWalk(graph, odds, visited.length));
            if (run.status[e] !== 0) expect(liveWalk(graph, odds, visited.length + 1)).toEqual(visited);
          }
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });
});
