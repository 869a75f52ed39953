import { FIELD_EXAMPLE_GRAPH } from '@touchbase/testing';
import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  chainGraph,
  eventEdge,
  type SequenceGraph,
  SequenceGraphSchema,
  timeoutEdge,
  validateGraph,
} from '../../src/index.js';

/** The field's example: connect; accepted within 7 days → message there; else e-mail. */
export const fieldExample: SequenceGraph = SequenceGraphSchema.parse(FIELD_EXAMPLE_GRAPH);

const codes = (g: SequenceGraph, ctx = {}) => validateGraph(g, ctx).map((x) => x.code);

describe('sequence graphs', () => {
  it('a list of steps becomes a chain whose node numbers are the step numbers, the end at steps + 1', () => {
    const g = chainGraph([
      { channel: 'email', subject: 'a', body: 'b', wait: '3d' },
      { channel: 'email', subject: 'c', body: 'd', wait: '0s' },
    ]);
    expect(g.nodes.map((n) => n.id)).toEqual(['step-1', 'step-2', 'end']);
    expect(timeoutEdge(g, 1)).toMatchObject({ to: 2, wait: '3d' });
    expect(timeoutEdge(g, 2)).toMatchObject({ to: 3, wait: '0s' });
    expect(timeoutEdge(g, 3)).toBeNull();
    expect(validateGraph(g)).toEqual([]);
  });

  it('the field example is valid, and each trigger leads where it says', () => {
    expect(validateGraph(fieldExample, { channels: new Set(['email', 'linkedin']) })).toEqual([]);
    expect(timeoutEdge(fieldExample, 1)).toMatchObject({ to: 3, waitMs: 7 * 86_400_000 });
    expect(eventEdge(fieldExample, 1, 'connection_accepted')).toMatchObject({ to: 2, waitMs: 0 });
    expect(eventEdge(fieldExample, 1, 'opened')).toBeNull();
  });

  it('a failed LinkedIn action takes its failed edge, else skips to the next node of another channel', () => {
    expect(afterFailure(fieldExample, 1)).toMatchObject({ to: 3, skipped: [] });
    const withFailed = {
      ...fieldExample,
      edges: [...fieldExample.edges, { from: 'connect', to: 'end', trigger: 'failed' as const }],
    };
    expect(afterFailure(withFailed, 1)).toMatchObject({ to: 4 });
    // visit → connect → mail: a failed visit skips the connect too (same channel).
    const chain = SequenceGraphSchema.parse({
      nodes: [
        { id: 'visit', action: 'linkedin_visit' },
        { id: 'connect', action: 'linkedin_connect' },
        { id: 'mail', action: 'email', subject: 's', body: 'b' },
        { id: 'end', action: 'end' },
      ],
      edges: [
        { from: 'visit', to: 'connect', trigger: 'always', wait: '1d' },
        { from: 'connect', to: 'mail', trigger: 'not_accepted', wait: '7d' },
        { from: 'mail', to: 'end', trigger: 'no_reply', wait: '3d' },
      ],
    });
    expect(afterFailure(chain, 1)).toMatchObject({ to: 3, skipped: ['connect'] });
  });

  it('names the node and the edge of each problem', () => {
    const bad = SequenceGraphSchema.parse({
      nodes: [
        { id: 'a', action: 'email', subject: 's', body: 'b' },
        { id: 'b', action: 'email', subject: 's', body: 'b' },
        { id: 'lost', action: 'email', subject: 's', body: 'b' },
        { id: 'end', action: 'end' },
      ],
      edges: [
        { from: 'a', to: 'b', trigger: 'no_reply', wait: '1d' },
        { from: 'a', to: 'end', trigger: 'no_reply', wait: '2d' },
        { from: 'b', to: 'a', trigger: 'opened' },
        { from: 'a', to: 'b', trigger: 'connection_accepted' },
        { from: 'end', to: 'a', trigger: 'always' },
        { from: 'lost', to: 'end', trigger: 'not_accepted', wait: '1d' },
      ],
    });
    const issues = validateGraph(bad);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'duplicate_trigger',
          node: 'a',
          edge: 1,
          path: ['edges', 1, 'trigger'],
        }),
        expect.objectContaining({ code: 'trigger_not_allowed', node: 'a', edge: 3 }),
        expect.objectContaining({ code: 'edge_from_end', node: 'end', edge: 4 }),
        expect.objectContaining({ code: 'trigger_not_allowed', node: 'lost', edge: 5 }),
        expect.objectContaining({ code: 'unreachable', node: 'lost', path: ['nodes', 2] }),
        expect.objectContaining({ code: 'no_way_out', node: 'b' }),
        expect.objectContaining({ code: 'cycle_without_wait' }),
      ]),
    );
    expect(issues.find((x) => x.code === 'duplicate_trigger')?.message).toContain(
      'edge 1 (a -no_reply-> end)',
    );
  });

  it('refuses edges to unknown nodes, a start that is an end, and a wait missing on no_reply', () => {
    const g = SequenceGraphSchema.parse({
      nodes: [
        { id: 'end', action: 'end' },
        { id: 'a', action: 'email', subject: 's', body: 'b' },
      ],
      edges: [{ from: 'a', to: 'nowhere', trigger: 'no_reply' }],
    });
    expect(validateGraph(g)).toEqual([
      expect.objectContaining({ code: 'start_is_end', node: 'end' }),
      expect.objectContaining({ code: 'unknown_node', node: 'nowhere', edge: 0, path: ['edges', 0, 'to'] }),
      expect.objectContaining({ code: 'wait_required', node: 'a', edge: 0 }),
    ]);
  });

  it('refuses timeouts that loop without an end, naming the closing edge', () => {
    const g = SequenceGraphSchema.parse({
      nodes: [
        { id: 'a', action: 'email', subject: 's', body: 'b' },
        { id: 'b', action: 'email', subject: 's', body: 'b' },
        { id: 'end', action: 'end' },
      ],
      edges: [
        { from: 'a', to: 'b', trigger: 'no_reply', wait: '1d' },
        { from: 'b', to: 'a', trigger: 'no_reply', wait: '1d' },
        { from: 'b', to: 'end', trigger: 'clicked' },
      ],
    });
    expect(validateGraph(g)).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'timeout_loop', node: 'a', edge: 1 })]),
    );
  });

  it('refuses a node whose channel has no sending identity in the pool, and a near-miss variable', () => {
    expect(validateGraph(fieldExample, { channels: new Set(['email']) })).toEqual([
      expect.objectContaining({ code: 'no_identity', node: 'connect' }),
      expect.objectContaining({ code: 'no_identity', node: 'dm' }),
    ]);
    const typo = {
      ...fieldExample,
      nodes: fieldExample.nodes.map((n) =>
        n.id === 'dm' ? { ...n, body: 'Hi {{firstname}} from {{city}}' } : n,
      ),
    } as SequenceGraph;
    const known = new Set(['firstName', 'lastName', 'company', 'email']);
    expect(validateGraph(typo, { knownVariables: known, attributesAllowed: true })).toEqual([
      expect.objectContaining({ code: 'unknown_variable', node: 'dm', path: ['nodes', 1, 'body'] }),
    ]);
    expect(codes(typo, { knownVariables: known })).toEqual(['unknown_variable', 'unknown_variable']);
  });
});
