import { DEFAULT_LINKEDIN_CAPS, type SequenceGraph } from '@touchbase/core';
import { describe, expect, it } from 'vitest';
import { populationOf } from '../src/prospects.js';
import { renderSummary } from '../src/render-summary.js';
import { runCampaign } from '../src/run-campaign.js';
import { planOf } from '../src/sequence-plan.js';
import { simulate } from '../src/simulate.js';
import { type SimulationInput, SimulationInputSchema } from '../src/simulation.schemas.js';
import type { SimulationReport } from '../src/simulation-report.js';

/** An invitation; accepted: a message; not accepted (7 days): the end. */
const GRAPH: SequenceGraph = {
  nodes: [
    { id: 'connect', action: 'linkedin_connect' },
    { id: 'msg', action: 'linkedin_message', body: 'Thanks for connecting' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'connect', to: 'msg', trigger: 'connection_accepted', wait: '1d' },
    { from: 'connect', to: 'end', trigger: 'not_accepted', wait: '7d' },
    { from: 'msg', to: 'end', trigger: 'no_reply', wait: '3d' },
  ],
};

function input(over: Partial<SimulationInput> = {}): SimulationInput {
  return {
    start: '2027-01-11T08:00:00Z',
    seed: 3,
    horizonDays: 60,
    sequence: { graph: GRAPH },
    mailboxes: [{ id: 'ana@li.test' }],
    prospects: { count: 300 },
    odds: { accept: 0.5, reply: 0, bounce: 0, outOfOffice: 0 },
    ...over,
  };
}

/** The most LinkedIn actions of a kind on one UTC day, and over any 7 consecutive days. */
function peaks(report: SimulationReport, action: 'invitation' | 'message') {
  const perDay = report.days.map((d) => d.byLinkedInAction![action]);
  let week = 0;
  for (let d = 0; d < perDay.length; d++)
    week = Math.max(
      week,
      perDay.slice(d, d + 7).reduce((s, n) => s + n, 0),
    );
  return { day: Math.max(...perDay), week, total: perDay.reduce((s, n) => s + n, 0) };
}

describe("simulating LinkedIn accounts' caps (core's linkedInActionLimits, as the sender's throttle takes them)", () => {
  const report = simulate(input());

  it('holds one account to its daily and weekly invitation caps and its daily message cap', () => {
    const invitations = peaks(report, 'invitation');
    expect(invitations.total).toBe(300);
    expect(invitations.day).toBe(DEFAULT_LINKEDIN_CAPS.invitationsPerDay);
    expect(invitations.week).toBeLessThanOrEqual(DEFAULT_LINKEDIN_CAPS.invitationsPerWeek);
    // 300 invitations at 100 a week take three weeks: most of them wait for the caps.
    expect(report.linkedin!.byCaps.share).toBeGreaterThan(0.5);
    expect(peaks(report, 'message').day).toBeLessThanOrEqual(DEFAULT_LINKEDIN_CAPS.messagesPerDay);
    expect(report.linkedin!.accounts).toEqual([
      expect.objectContaining({
        id: 'linkedin',
        sends: { invitation: 300, message: report.funnel[1]!.sent, profile_visit: 0 },
        busiestDay: expect.objectContaining({ invitation: 20 }),
        invitationsPerDay: 20,
        invitationsPerWeek: 100,
      }),
    ]);
    // A mailbox's caps delay no LinkedIn action.
    expect(report.delays.byCaps.count).toBe(0);
  });

  it('reports them in the per-channel sends: each day the LinkedIn channel is the sum of its actions', () => {
    for (const d of report.days) {
      const a = d.byLinkedInAction!;
      expect(d.byChannel.linkedin).toBe(a.invitation + a.message + a.profile_visit);
    }
  });

  it('names them as the binding constraint, with what more accounts would save', () => {
    expect(report.binding.constraint).toBe('linkedin_caps');
    expect(report.binding.message).toMatch(
      /^LinkedIn invitation caps bind: \d+ more LinkedIn accounts? would finish \d+ days? sooner \(\d+(\.\d)?% of LinkedIn actions wait for an account's cap, [\d.]+ h on average\)$/,
    );
    const whatIf = report.binding.linkedinWhatIf!;
    expect(whatIf.map((w) => w.extraAccounts)).toEqual([1, 2, 3]);
    expect(whatIf.every((w) => (w.daysSooner ?? 0) > 0)).toBe(true);
    expect(renderSummary(report)).toContain(
      'LinkedIn linkedin: 300 invitations (caps 20/day, 100/week; busiest day 20)',
    );
  });

  it('names the LinkedIn sends per channel and kind, the days against the caps, and the binding action in the summary', () => {
    const text = renderSummary(report);
    const messages = report.linkedin!.accounts[0]!.sends.message;
    expect(text).toContain(
      `By channel: 0 e-mails, ${300 + messages} LinkedIn actions (300 invitations, ${messages} messages, 0 profile visits).`,
    );
    expect(text).toContain(
      'LinkedIn actions per day (UTC), all accounts; caps invitation 20/day; message 50/day:',
    );
    expect(text).toContain(`Binding constraint: ${report.binding.message}.`);
    expect(text).toMatch(/\nBinding constraint: LinkedIn invitation caps bind: /);
    // Messages held to 2 a day with invitations free: the message caps bind, and are named.
    const msgBound = simulate(
      input({
        linkedinAccounts: [
          {
            id: 'li',
            invitationsPerDay: 200,
            invitationsPerWeek: 1000,
            messagesPerDay: 2,
            perHour: 200,
            minSpacingMs: 0,
          },
        ],
        odds: { accept: 1, reply: 0, bounce: 0, outOfOffice: 0 },
        prospects: { count: 60 },
      }),
    );
    expect(msgBound.binding.constraint).toBe('linkedin_caps');
    expect(msgBound.binding.message).toMatch(/^LinkedIn message caps bind: /);
    expect(renderSummary(msgBound)).toMatch(/\nBinding constraint: LinkedIn message caps bind: /);
  });

  it("spreads invitations over a pool's accounts; each enrollment keeps its account for its message", () => {
    const settings = SimulationInputSchema.parse(
      input({ linkedinAccounts: [{ id: 'li-a' }, { id: 'li-b' }], prospects: { count: 200 } }),
    );
    const run = runCampaign(
      settings,
      settings.mailboxes,
      planOf(settings.sequence),
      populationOf(settings.prospects),
    );
    const accountOf = new Map<number, number>();
    const perAccount = [0, 0];
    for (let i = 0; i < run.sends.at.length; i++) {
      const e = run.sends.enrollment[i]!;
      const a = run.sends.account[i]!;
      if (run.sends.node[i] === 0) {
        perAccount[a]!++;
        accountOf.set(e, a);
      } else expect(a).toBe(accountOf.get(e));
    }
    expect(perAccount).toEqual([100, 100]);
  });

  it('a cap of 0 turns the action off: the messages never go out', () => {
    const off = simulate(input({ linkedinAccounts: [{ id: 'li', messagesPerDay: 0 }] }));
    const msg = off.funnel.find((f) => f.node === 'msg')!;
    expect(msg.sent).toBe(0);
    expect(msg.notYetSent).toBe(off.funnel[0]!.accepted);
  });

  it('e-mail-only sequences report no LinkedIn side', () => {
    const mail = simulate(input({ sequence: { steps: [{ wait: '2d' }, { wait: '0s' }] } }));
    expect(mail.linkedin).toBeUndefined();
    expect(mail.days[0]!.byLinkedInAction).toBeUndefined();
    expect(mail.binding.linkedinWhatIf).toBeUndefined();
  });
});
