import { describe, expect, it } from 'vitest';
import { renderTouch, SequenceDefinitionSchema, SequenceStepsSchema } from '../../src/index.js';

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
});
