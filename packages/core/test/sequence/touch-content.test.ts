import { describe, expect, it } from 'vitest';
import {
  renderEmailNode,
  renderTouch,
  SequenceDefinitionSchema,
  SequenceGraphSchema,
  SequenceStepsSchema,
} from '../../src/index.js';

const steps = SequenceStepsSchema.parse([
  { subject: 'Idea for {{company|your team}}', body: 'Hi {{firstName}}, ...', wait: '2d' },
  { subject: 'ignored', body: 'Following up, {{firstName|there}}', wait: '3d' },
]);

describe('touch content', () => {
  it('renders the first touch and threads follow-ups under Re: + the first subject', () => {
    const first = renderTouch(steps, 1, { firstName: 'Ada', company: 'Acme' }, 'p1');
    expect(first).toMatchObject({
      ok: true,
      subject: 'Idea for Acme',
      body: 'Hi Ada, ...',
      isFollowUp: false,
    });
    const second = renderTouch(steps, 2, { firstName: 'Ada', company: null }, 'p1');
    expect(second).toMatchObject({
      ok: true,
      subject: 'Re: Idea for your team',
      body: 'Following up, Ada',
      isFollowUp: true,
    });
  });

  it('refuses to render when a variable without fallback is missing, naming it', () => {
    expect(renderTouch(steps, 1, { company: 'Acme' }, 'p1')).toEqual({ ok: false, missing: ['firstName'] });
  });

  it('keeps a prospect on the same A/B variant', () => {
    const ab = SequenceStepsSchema.parse([
      { subject: 'A', body: 'a', variants: [{ subject: 'B', body: 'b' }] },
    ]);
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const r = renderTouch(ab, 1, {}, `prospect-${i}`);
      if (r.ok) seen.add(r.variant);
      expect(renderTouch(ab, 1, {}, `prospect-${i}`)).toEqual(r);
    }
    expect([...seen].sort()).toEqual([0, 1]);
  });

  it('names the bad field of an invalid definition', () => {
    const r = SequenceDefinitionSchema.safeParse({
      name: 'x',
      steps: [{ subject: 'ok', body: 'ok', wait: 'later' }],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['steps', 0, 'wait']);
  });

  it('renders an e-mail node of a graph: threaded under the first e-mail node once one went out', () => {
    const graph = SequenceGraphSchema.parse({
      nodes: [
        { id: 'visit', action: 'linkedin_visit' },
        { id: 'hello', action: 'email', subject: 'Idea for {{company|your team}}', body: 'Hi {{firstName}}' },
        { id: 'again', action: 'email', subject: 'ignored', body: 'Again, {{firstName}}' },
        { id: 'end', action: 'end' },
      ],
      edges: [
        { from: 'visit', to: 'hello', trigger: 'always', wait: '1d' },
        { from: 'hello', to: 'again', trigger: 'no_reply', wait: '3d' },
        { from: 'again', to: 'end', trigger: 'no_reply', wait: '3d' },
      ],
    });
    const vars = { firstName: 'Ada', company: 'Acme' };
    expect(renderEmailNode(graph, 2, vars, 'p1', false)).toEqual({
      ok: true,
      subject: 'Idea for Acme',
      body: 'Hi Ada',
      variant: 0,
      isFollowUp: false,
    });
    expect(renderEmailNode(graph, 3, vars, 'p1', true)).toMatchObject({
      ok: true,
      subject: 'Re: Idea for Acme',
      body: 'Again, Ada',
      isFollowUp: true,
    });
    // No e-mail went out yet (the first was skipped): the node opens its own thread.
    expect(renderEmailNode(graph, 3, vars, 'p1', false)).toMatchObject({
      subject: 'ignored',
      isFollowUp: false,
    });
    expect(renderEmailNode(graph, 3, { company: 'Acme' }, 'p1', true)).toEqual({
      ok: false,
      missing: ['firstName'],
    });
    expect(() => renderEmailNode(graph, 1, vars, 'p1', false)).toThrow(RangeError);
  });
});
