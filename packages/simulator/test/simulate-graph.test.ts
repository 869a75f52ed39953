import type { SequenceGraph } from '@touchbase/core';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/simulate.js';
import type { SimulationInput } from '../src/simulation.schemas.js';
import type { FunnelRow } from '../src/simulation-report.js';

const mail = (id: string) => ({
  id,
  action: 'email' as const,
  subject: 'Hi {{firstName|there}}',
  body: 'Body',
});

/**
 * Invitation first; accepted: a LinkedIn message; not accepted (7 days) or failed:
 * an e-mail, whose open takes the "opened" branch, else a second e-mail and a manual task.
 */
const GRAPH: SequenceGraph = {
  nodes: [
    { id: 'connect', action: 'linkedin_connect' },
    { id: 'msg', action: 'linkedin_message', body: 'Thanks for connecting' },
    mail('mail-1'),
    mail('mail-opened'),
    mail('mail-2'),
    { id: 'call', action: 'manual_task', title: 'Call them' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'connect', to: 'msg', trigger: 'connection_accepted', wait: '1d' },
    { from: 'connect', to: 'mail-1', trigger: 'not_accepted', wait: '7d' },
    { from: 'connect', to: 'mail-1', trigger: 'failed' },
    { from: 'msg', to: 'end', trigger: 'no_reply', wait: '3d' },
    { from: 'mail-1', to: 'mail-opened', trigger: 'opened', wait: '1d' },
    { from: 'mail-1', to: 'mail-2', trigger: 'no_reply', wait: '3d' },
    { from: 'mail-opened', to: 'end', trigger: 'no_reply', wait: '2d' },
    { from: 'mail-2', to: 'call', trigger: 'no_reply', wait: '3d' },
    { from: 'call', to: 'end', trigger: 'always', wait: '0s' },
  ],
};

const N = 4000;
const ODDS = {
  accept: 0.4,
  failure: 0.1,
  open: 0.5,
  bounce: 0.02,
  outOfOffice: 0,
  reply: { msg: 0.2, 'mail-1': 0.05, 'mail-2': 0.05 },
};

function input(seed = 7): SimulationInput {
  return {
    start: '2027-01-11T08:00:00Z',
    seed,
    horizonDays: 90,
    sequence: { graph: GRAPH },
    // Room for everything and no window: the graph alone decides who goes where.
    mailboxes: [
      { id: 'ana@graph.test', perMinute: 10_000, perHour: 100_000, perDay: 1_000_000, windowDays: [] },
    ],
    // LinkedIn accounts at their highest caps, enough of them that no invitation waits long.
    linkedinAccounts: Array.from({ length: 20 }, (_, i) => ({
      id: `li-${i + 1}`,
      invitationsPerDay: 200,
      invitationsPerWeek: 1000,
      messagesPerDay: 500,
      profileVisitsPerDay: 500,
      perHour: 500,
      minSpacingMs: 0,
    })),
    prospects: { count: N },
    odds: ODDS,
    pacingMs: 0,
    whatIf: { extraMailboxes: [] },
  };
}

/** Within `k` standard deviations of `n` draws at odds `p`. */
function near(observed: number, n: number, p: number, k = 4) {
  const sd = Math.sqrt(n * p * (1 - p));
  expect(Math.abs(observed - n * p)).toBeLessThanOrEqual(k * sd + 1);
}

describe('simulating a branching graph', () => {
  const report = simulate(input());
  const row = (id: string) => report.funnel.find((f) => f.node === id) as FunnelRow;

  it('reports every action node, per node, as /v1/stats byNode does', () => {
    expect(report.funnel.map((f) => [f.node, f.action, f.channel])).toEqual([
      ['connect', 'linkedin_connect', 'linkedin'],
      ['msg', 'linkedin_message', 'linkedin'],
      ['mail-1', 'email', 'email'],
      ['mail-opened', 'email', 'email'],
      ['mail-2', 'email', 'email'],
      ['call', 'manual_task', 'manual'],
    ]);
    for (const f of report.funnel) expect(f.reached).toBe(f.sent + f.failed);
    expect(report.summary.finished).toBe(true);
  });

  it('moves enrollments along the edges their events take, in counts the odds give', () => {
    const connect = row('connect');
    const msg = row('msg');
    const mail1 = row('mail-1');
    const opened = row('mail-opened');
    const mail2 = row('mail-2');
    const call = row('call');
    // Every enrollment starts at the invitation; a tenth fail for good, 40% of the rest accept.
    expect(connect.reached).toBe(N);
    near(connect.failed, N, 0.1);
    near(connect.accepted, connect.sent, 0.4);
    // An acceptance arrives before the 7-day timeout: each one takes its edge.
    expect(connect.edgesTaken).toBe(connect.accepted);
    expect(msg.reached).toBe(connect.accepted);
    near(msg.replied, msg.reached, 0.2 * 0.9);
    // The failed and the not accepted go on to the e-mail.
    expect(mail1.reached).toBe(connect.failed + connect.sent - connect.accepted);
    near(mail1.bounced, mail1.reached, 0.02);
    near(mail1.replied, mail1.reached, 0.05);
    const quiet = mail1.reached - mail1.bounced - mail1.replied;
    near(mail1.opened, quiet, 0.5);
    expect(mail1.edgesTaken).toBe(mail1.opened);
    expect(opened.reached).toBe(mail1.opened);
    expect(mail2.reached).toBe(quiet - mail1.opened);
    expect(call.reached).toBe(mail2.reached - mail2.bounced - mail2.replied);
    // Only e-mails take a mailbox's caps and count in the domain's sends.
    expect(report.mailboxes[0]!.sends).toBe(mail1.reached + opened.reached + mail2.reached);
    const byChannel = report.days.reduce<Record<string, number>>((acc, d) => {
      for (const [k, v] of Object.entries(d.byChannel)) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {});
    expect(byChannel).toEqual({
      linkedin: connect.reached + msg.reached,
      email: mail1.reached + opened.reached + mail2.reached,
      manual: call.reached,
    });
    // Everybody ends: replied, bounced, or through an end node.
    expect(report.summary.replied + report.summary.bounced + report.summary.exhausted).toBe(N);
  });

  it('is deterministic: the same seed gives the same report byte for byte, another seed another', () => {
    expect(JSON.stringify(simulate(input()))).toBe(JSON.stringify(report));
    expect(JSON.stringify(simulate(input(8)))).not.toBe(JSON.stringify(report));
  });

  it('refuses a graph that cannot run, naming the node', () => {
    const broken: SequenceGraph = {
      nodes: [mail('a'), mail('b'), { id: 'end', action: 'end' }],
      edges: [{ from: 'a', to: 'end', trigger: 'no_reply', wait: '1d' }],
    };
    expect(() => simulate({ ...input(), sequence: { graph: broken } })).toThrow(
      /node \\"b\\" cannot be reached/,
    );
  });
});
