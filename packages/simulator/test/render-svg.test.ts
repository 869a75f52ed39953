import type { SequenceGraph } from '@touchbase/core';
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../src/render-svg.js';
import { simulate } from '../src/simulate.js';
import type { SimulationInput } from '../src/simulation.schemas.js';

/** An invitation, a profile visit, then an e-mail: both channels every day. */
const GRAPH: SequenceGraph = {
  nodes: [
    { id: 'connect', action: 'linkedin_connect' },
    { id: 'visit', action: 'linkedin_visit' },
    { id: 'mail', action: 'email', subject: 'Hi', body: 'Body' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'connect', to: 'visit', trigger: 'not_accepted', wait: '2d' },
    { from: 'visit', to: 'mail', trigger: 'no_reply', wait: '1d' },
    { from: 'mail', to: 'end', trigger: 'no_reply', wait: '3d' },
  ],
};

function input(over: Partial<SimulationInput> = {}): SimulationInput {
  return {
    start: '2027-01-11T08:00:00Z',
    seed: 5,
    horizonDays: 45,
    sequence: { graph: GRAPH },
    mailboxes: [
      { id: 'ana@svg.test', perDay: 40 },
      { id: 'ben@svg.test', perDay: 40 },
    ],
    // Invitations 15 + 20 a day; profile visits 30 + 30.
    linkedinAccounts: [
      { id: 'li-ana', invitationsPerDay: 15, profileVisitsPerDay: 30 },
      { id: 'li-ben', invitationsPerDay: 20, profileVisitsPerDay: 30 },
    ],
    prospects: { count: 400 },
    odds: { accept: 0, reply: 0, bounce: 0, outOfOffice: 0 },
    whatIf: { extraMailboxes: [], extraLinkedInAccounts: [] },
    ...over,
  };
}

/** The counts each series' bars carry, summed over the days (from the bars' tooltips). */
function barTotals(svg: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [, id, n] of svg.matchAll(/<title>\d{4}-\d\d-\d\d (.+?): (\d+)<\/title><\/rect>/g))
    totals.set(id!, (totals.get(id!) ?? 0) + Number(n));
  return totals;
}

const capLines = (svg: string) =>
  [...svg.matchAll(/stroke-dasharray="6 3"\/>\n<text [^>]*fill="#c00000">([^<]+)<\/text>/g)].map((m) => m[1]);

describe('the SVG picture of a run', () => {
  const report = simulate(input());
  const svg = renderSvg(report);

  it('draws LinkedIn accounts as series of their own, every action of theirs in their bars', () => {
    const totals = barTotals(svg);
    for (const account of report.linkedin!.accounts) {
      const actions = account.sends.invitation + account.sends.message + account.sends.profile_visit;
      expect(actions).toBeGreaterThan(0);
      expect(totals.get(account.id)).toBe(actions);
      expect(svg).toContain(`>${account.id}</text>`);
    }
    for (const m of report.mailboxes) expect(totals.get(m.id)).toBe(m.sends);
    expect(svg).toContain('LinkedIn actions per day (UTC) by account: 800 actions');
  });

  it("draws the accounts' summed daily caps of each action the sequence takes, like the mailboxes' caps", () => {
    expect(capLines(svg)).toEqual([
      'daily caps 80',
      'LinkedIn invitation caps 35',
      'LinkedIn profile visit caps 60',
    ]);
    // The invitation caps bind: some day's bars reach the line.
    expect(Math.max(...report.days.map((d) => d.byLinkedInAction!.invitation))).toBe(35);
  });

  it('names every action at one value on one line', () => {
    const same = renderSvg(
      simulate(
        input({
          linkedinAccounts: [{ id: 'li', invitationsPerDay: 30, profileVisitsPerDay: 30 }],
          prospects: { count: 50 },
        }),
      ),
    );
    expect(capLines(same)).toEqual(['daily caps 80', 'LinkedIn invitation, profile visit caps 30']);
  });

  it('gives the same bytes for the same input and seed', () => {
    expect(renderSvg(simulate(input()))).toBe(svg);
    expect(renderSvg(simulate(input({ seed: 6 })))).not.toBe(svg);
  });

  it('has no LinkedIn panel for an e-mail sequence', () => {
    const mail = renderSvg(
      simulate(input({ sequence: { steps: [{ wait: '0s' }, { wait: '3d' }] }, prospects: { count: 50 } })),
    );
    expect(capLines(mail)).toEqual(['daily caps 80']);
    expect(mail).not.toContain('LinkedIn');
    expect(mail).not.toContain('li-ana');
  });
});
