import { describe, expect, it } from 'vitest';
import {
  chainGraph,
  type MigrationCandidate,
  migratedTouchDue,
  planMigration,
  populationFingerprint,
  type SequenceStep,
  wouldResend,
} from '../../src/index.js';

const step = (body: string, wait = '2d'): SequenceStep => ({ channel: 'email', subject: 'Hi', body, wait });
const v1 = chainGraph([step('one'), step('two'), step('three')]);
const v2 = chainGraph([step('one'), step('two, rewritten'), step('three'), step('four')]);
const SAME = { 'step-1': 'step-1', 'step-2': 'step-2', 'step-3': 'step-3' };
const at = (id: string, node: number, lastRun = node - 1, status = 'active'): MigrationCandidate => ({
  id,
  node,
  status,
  lastRun,
  midThread: lastRun > 0,
});

describe('planMigration', () => {
  it('moves each enrollment by its node, skips the ones at the end, names the copy that changes mid-thread', () => {
    const plan = planMigration({
      from: v1,
      to: v2,
      mapping: SAME,
      candidates: [at('a', 1), at('b', 2), at('c', 2), at('d', 4)],
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
    });
    expect(plan.problems).toEqual([
      expect.objectContaining({ code: 'resend', node: 'step-3', field: 'mapping.step-3' }),
    ]);
    expect(wouldResend(v2, 2, 2)).toBe(true);
    expect(wouldResend(v2, 3, 2)).toBe(false);
    // An end never acts: ending early is allowed.
    expect(wouldResend(v2, 5, 4)).toBe(false);
  });

  it('refuses a missing target, an unknown source and a live node left unmapped', () => {
    const plan = planMigration({
      from: v1,
      to: v2,
      mapping: { 'step-1': 'nowhere', ghost: 'step-1' },
      candidates: [at('a', 1), at('b', 2)],
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
