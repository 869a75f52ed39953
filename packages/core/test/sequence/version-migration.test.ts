import { describe, expect, it } from 'vitest';
import {
  chainGraph,
  type MigrationCandidate,
  migratedAttempt,
  migratedTouchDue,
  planMigration,
  populationFingerprint,
  type RanNode,
  ranNodeIds,
  type SequenceGraph,
  type SequenceStep,
  wouldResend,
} from '../../src/index.js';

const step = (body: string, wait = '2d'): SequenceStep => ({ channel: 'email', subject: 'Hi', body, wait });
const v1 = chainGraph([step('one'), step('two'), step('three')]);
const v2 = chainGraph([step('one'), step('two, rewritten'), step('three'), step('four')]);
const SAME = { 'step-1': 'step-1', 'step-2': 'step-2', 'step-3': 'step-3' };
const graphs = new Map([
  ['v1', v1],
  ['v2', v2],
]);
/** Touches of nodes `nodes`, run in version `version`. */
const ranIn = (version: string, nodes: number[]): RanNode[] => nodes.map((node) => ({ version, node }));
const at = (id: string, node: number, lastRun = node - 1, status = 'active'): MigrationCandidate => ({
  id,
  node,
  status,
  ran: ranIn(
    'v1',
    Array.from({ length: lastRun }, (_, i) => i + 1),
  ),
  midThread: lastRun > 0,
});

describe('planMigration', () => {
  it('moves each enrollment by its node, skips the ones at the end, names the copy that changes mid-thread', () => {
    const plan = planMigration({
      from: v1,
      to: v2,
      mapping: SAME,
      candidates: [at('a', 1), at('b', 2), at('c', 2), at('d', 4)],
      graphs,
    });
    expect(plan.problems).toEqual([]);
    expect(plan.moves).toEqual([
      { enrollmentId: 'a', fromNode: 1, toNode: 1 },
      { enrollmentId: 'b', fromNode: 2, toNode: 2 },
      { enrollmentId: 'c', fromNode: 2, toNode: 2 },
    ]);
    expect(plan.skipped).toEqual([{ enrollmentId: 'd', node: 'end', reason: 'at_end' }]);
    expect(plan.changedMessages).toEqual([
      { from: 'step-2', to: 'step-2', enrollments: 2, fields: ['body'] },
    ]);
  });

  it('refuses a target at or before a node already run: it would act again', () => {
    const plan = planMigration({
      from: v1,
      to: v2,
      mapping: { ...SAME, 'step-3': 'step-2' },
      candidates: [at('a', 3)],
      graphs,
    });
    expect(plan.problems).toEqual([
      expect.objectContaining({ code: 'resend', node: 'step-3', field: 'mapping.step-3' }),
    ]);
    expect(wouldResend(v2, 2, ranIn('v1', [1, 2]), graphs)).toBe(true);
    expect(wouldResend(v2, 3, ranIn('v1', [1, 2]), graphs)).toBe(false);
    // An end never acts: ending early is allowed.
    expect(wouldResend(v2, 5, ranIn('v2', [1, 2, 3, 4]), graphs)).toBe(false);
  });

  it('refuses a missing target, an unknown source and a live node left unmapped', () => {
    const plan = planMigration({
      from: v1,
      to: v2,
      mapping: { 'step-1': 'nowhere', ghost: 'step-1' },
      candidates: [at('a', 1), at('b', 2)],
      graphs,
    });
    expect(plan.problems.map((p) => [p.code, p.node])).toEqual([
      ['missing_target_node', 'nowhere'],
      ['unknown_source_node', 'ghost'],
      ['unmapped_node', 'step-2'],
    ]);
  });

  it('fingerprints the population by ids, nodes and statuses, in any order', () => {
    const a = populationFingerprint([at('a', 1), at('b', 2)]);
    expect(populationFingerprint([at('b', 2), at('a', 1)])).toBe(a);
    expect(populationFingerprint([at('a', 1), at('b', 3)])).not.toBe(a);
    expect(populationFingerprint([at('a', 1), at('b', 2, 1, 'paused')])).not.toBe(a);
  });
});

describe('planMigration on a branching graph: "already done" is the path taken', () => {
  const mail = (id: string, body = 'Body') => ({ id, action: 'email' as const, subject: 'Hi', body });
  // connect; accepted: msg, then mail-2; not accepted (7 days): mail-1, then mail-2.
  const graph = (msgBody: string): SequenceGraph => ({
    nodes: [
      { id: 'connect', action: 'linkedin_connect' },
      { id: 'msg', action: 'linkedin_message', body: msgBody },
      mail('mail-1'),
      mail('mail-2'),
      { id: 'end', action: 'end' },
    ],
    edges: [
      { from: 'connect', to: 'msg', trigger: 'connection_accepted', wait: '1d' },
      { from: 'connect', to: 'mail-1', trigger: 'not_accepted', wait: '7d' },
      { from: 'msg', to: 'mail-2', trigger: 'no_reply', wait: '3d' },
      { from: 'mail-1', to: 'mail-2', trigger: 'no_reply', wait: '3d' },
      { from: 'mail-2', to: 'end', trigger: 'no_reply', wait: '2d' },
    ],
  });
  const from = graph('Thanks');
  const to = graph('Thanks, rewritten');
  const graphs = new Map([
    ['from', from],
    ['to', to],
  ]);
  // Both wait at mail-2 (node 4): one came by the invitation's acceptance, one by the e-mail.
  const accepted: MigrationCandidate = {
    id: 'a',
    node: 4,
    status: 'active',
    ran: ranIn('from', [1, 2]),
    midThread: true,
  };
  const byEmail: MigrationCandidate = {
    id: 'b',
    node: 4,
    status: 'active',
    ran: ranIn('from', [1, 3]),
    midThread: true,
  };

  it('allows a node of another branch that was never run, though numbered before the node it is at', () => {
    const plan = planMigration({ from, to, mapping: { 'mail-2': 'msg' }, candidates: [byEmail], graphs });
    expect(plan.problems).toEqual([]);
    expect(plan.moves).toEqual([{ enrollmentId: 'b', fromNode: 4, toNode: 2 }]);
  });

  it('refuses (naming the node) a node its path already ran, on either branch', () => {
    const again = planMigration({
      from,
      to,
      mapping: { 'mail-2': 'msg' },
      candidates: [accepted, byEmail],
      graphs,
    });
    expect(again.problems).toEqual([
      expect.objectContaining({ code: 'resend', node: 'mail-2', field: 'mapping.mail-2', enrollments: 1 }),
    ]);
    expect(again.problems[0]!.message).toContain('"msg"');
    const mail1 = planMigration({ from, to, mapping: { 'mail-2': 'mail-1' }, candidates: [byEmail], graphs });
    expect(mail1.problems.map((p) => [p.code, p.node])).toEqual([['resend', 'mail-2']]);
    expect(
      planMigration({ from, to, mapping: { 'mail-2': 'mail-1' }, candidates: [accepted], graphs }).problems,
    ).toEqual([]);
  });

  it('judges by node id across versions, whatever their numbers', () => {
    // The target version lists mail-1 first: its number is 1, the invitation's in the source.
    const reordered: SequenceGraph = {
      ...to,
      nodes: [to.nodes[2]!, to.nodes[0]!, to.nodes[1]!, ...to.nodes.slice(3)],
    };
    expect(wouldResend(reordered, 1, byEmail.ran, graphs)).toBe(true);
    expect(wouldResend(reordered, 3, byEmail.ran, graphs)).toBe(false);
    expect(wouldResend(reordered, 3, accepted.ran, graphs)).toBe(true);
  });

  it("reads each touch in the version it ran in: a number of an older version names that version's node", () => {
    // Migrated from->to before: its invitation (node 1) ran in `from`, its mail-1 (node 1 of `reordered`) in `reordered`.
    const reordered: SequenceGraph = {
      ...to,
      nodes: [to.nodes[2]!, to.nodes[0]!, to.nodes[1]!, ...to.nodes.slice(3)],
    };
    const all = new Map([...graphs, ['reordered', reordered]]);
    const ran = [...ranIn('from', [1]), ...ranIn('reordered', [1])];
    expect([...ranNodeIds(ran, all)].sort()).toEqual(['connect', 'mail-1']);
    // Back onto `from`: msg (node 2) never ran, allowed; mail-1 (node 3) ran in `reordered` as node 1, refused.
    expect(wouldResend(from, 2, ran, all)).toBe(false);
    expect(wouldResend(from, 3, ran, all)).toBe(true);
    expect(() => ranNodeIds(ranIn('gone', [1]), all)).toThrow(/version gone/);
  });

  it("takes a free attempt on a node number that already has a touch row (another branch's node)", () => {
    expect(migratedAttempt({ fromNode: 4, toNode: 3, attempt: 1 }, { 1: 1, 3: 1 })).toBe(2);
    expect(migratedAttempt({ fromNode: 4, toNode: 2, attempt: 1 }, { 1: 1, 3: 1 })).toBe(1);
    // Staying on its node keeps its attempt (a resend after a soft bounce keeps its key).
    expect(migratedAttempt({ fromNode: 4, toNode: 4, attempt: 2 }, { 4: 1 })).toBe(2);
  });

  it('times the moved touch by the edge from the node its path ran last', () => {
    const lastRunAt = new Date('2026-03-02T10:00:00Z');
    const timing = { timeZone: 'UTC', window: null, timeScale: 1 };
    const now = new Date('2026-03-02T11:00:00Z');
    // Into mail-2 from msg (3 days) or from mail-1 (3 days); into mail-1 only from connect (7 days).
    expect(
      migratedTouchDue({ to, target: 3, lastRunAt, lastRunNode: 'connect', pendingAt: null, now, timing }).at,
    ).toEqual(new Date('2026-03-09T10:00:00Z'));
  });
});

describe('migratedTouchDue', () => {
  const timing = { timeZone: 'UTC', window: null, timeScale: 1 };
  const now = new Date('2026-03-02T10:00:00Z');
  it("is the new version's wait after the last touch, by the scheduler's dueAfterWait", () => {
    const due = migratedTouchDue({
      to: chainGraph([step('one', '3d'), step('two')]),
      target: 2,
      lastRunAt: new Date('2026-03-01T10:00:00Z'),
      pendingAt: new Date('2026-03-03T10:00:00Z'),
      now,
      timing,
    });
    expect(due.at.toISOString()).toBe('2026-03-04T10:00:00.000Z');
  });
  it('never in the past, and inside the window', () => {
    const due = migratedTouchDue({
      to: v2,
      target: 2,
      lastRunAt: new Date('2026-02-01T10:00:00Z'),
      pendingAt: null,
      now,
      timing: { ...timing, window: { days: [1, 2, 3, 4, 5], start: '14:00', end: '16:00' } },
    });
    expect(due.at.toISOString()).toBe('2026-03-02T14:00:00.000Z');
  });
  it('a first node keeps its pending time', () => {
    const pendingAt = new Date('2026-03-05T10:00:00Z');
    expect(migratedTouchDue({ to: v2, target: 1, lastRunAt: null, pendingAt, now, timing }).at).toEqual(
      pendingAt,
    );
  });
});
