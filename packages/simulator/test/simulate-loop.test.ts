import type { SequenceGraph } from '@touchbase/core';
import { describe, expect, it } from 'vitest';
import { populationOf } from '../src/prospects.js';
import { runCampaign } from '../src/run-campaign.js';
import { planOf } from '../src/sequence-plan.js';
import { simulate } from '../src/simulate.js';
import { type SimulationInput, SimulationInputSchema } from '../src/simulation.schemas.js';

const mail = (id: string) => ({ id, action: 'email' as const, subject: 'Hi', body: id });

/** A loop through event edges: a's open leads to b, b's open back to a; no reply (3 days) ends. */
const LOOP: SequenceGraph = {
  nodes: [mail('a'), mail('b'), { id: 'end', action: 'end' }],
  edges: [
    { from: 'a', to: 'b', trigger: 'opened', wait: '1d' },
    { from: 'a', to: 'end', trigger: 'no_reply', wait: '3d' },
    { from: 'b', to: 'a', trigger: 'opened', wait: '1d' },
    { from: 'b', to: 'end', trigger: 'no_reply', wait: '3d' },
  ],
};

const N = 2000;
const input = (seed = 5): SimulationInput => ({
  start: '2027-01-11T08:00:00Z',
  seed,
  horizonDays: 120,
  sequence: { graph: LOOP },
  mailboxes: [
    { id: 'ana@loop.test', perMinute: 10_000, perHour: 100_000, perDay: 1_000_000, windowDays: [] },
  ],
  prospects: { count: N },
  odds: { open: 0.6, reply: 0.1, bounce: 0, outOfOffice: 0 },
  pacingMs: 0,
  whatIf: { extraMailboxes: [] },
});

describe("a loop's passes draw their own odds (per enrollment, node and pass, from the seed)", () => {
  const settings = SimulationInputSchema.parse(input());
  const run = runCampaign(
    settings,
    settings.mailboxes,
    planOf(settings.sequence),
    populationOf(settings.prospects),
  );
  // Per enrollment, the outcomes of its passes at node a, in order.
  const atA = new Map<number, string[]>();
  run.sends.node.forEach((n, i) => {
    if (n !== 0) return;
    const e = run.sends.enrollment[i]!;
    atA.set(e, [...(atA.get(e) ?? []), run.sends.outcome[i]!]);
  });
  const again = [...atA.values()].filter((o) => o.length >= 2);

  it('a second pass of a node does not replay the first: some reply on it after a quiet first pass', () => {
    // A second pass follows a quiet first one (opened at a, then at b): 0.6 * 0.9 * 0.6 * 0.9 of them.
    expect(again.length).toBeGreaterThan(N * 0.2);
    const replied = again.filter((o) => o[1] === 'replied').length;
    // 10% reply on the second pass; a replayed draw would make it 0 (the first pass was quiet).
    expect(replied).toBeGreaterThan(again.length * 0.05);
    expect(replied).toBeLessThan(again.length * 0.15);
  });

  it('a loop ends by the odds, not at the horizon: a third pass is as rare as the odds make it', () => {
    const third = again.filter((o) => o.length >= 3).length;
    // From a quiet second pass, a third takes an open at a and at b: about 0.9 * 0.6 * 0.9 * 0.6.
    expect(third).toBeLessThan(again.length * 0.45);
    expect(run.status.every((s) => s !== 0)).toBe(true);
  });

  it('the same seed gives the same report byte for byte; another seed another', () => {
    const report = JSON.stringify(simulate(input()));
    expect(JSON.stringify(simulate(input()))).toBe(report);
    expect(JSON.stringify(simulate(input(6)))).not.toBe(report);
  });
});
