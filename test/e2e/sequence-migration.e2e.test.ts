import { touchKey } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, spawnScript } from '../support/child-service.js';
import { seed, startTestSystem, type TestSystem, waitForEnded } from '../support/test-system.js';

/** Step n → step n: the copy of step 3 changes and a fifth step is added in version 2. */
const MAPPING = { 'step-1': 'step-1', 'step-2': 'step-2', 'step-3': 'step-3', 'step-4': 'step-4' };
const v2Steps = (wait: string) =>
  Array.from({ length: 5 }, (_, i) => ({
    subject: i === 0 ? 'Hello {{firstName|there}}' : 'unused',
    body: `v2 touch ${i + 1} for {{firstName|there}}`,
    wait,
  }));

async function enroll(sys: TestSystem, n: number, wait: string, label: string) {
  const emails = Array.from({ length: n }, (_, i) => `${label}-${i}@prospect.example`);
  const ids = await seed(sys, { steps: 4, prospects: emails, wait });
  const res = await sys.api('POST', '/v1/enrollments', {
    sequenceId: ids.sequenceId,
    mailboxId: ids.mailboxId,
    prospectIds: ids.prospectIds,
  });
  expect(res.status).toBe(201);
  const v2 = await sys.api('POST', `/v1/sequences/${ids.sequenceId}/versions`, { steps: v2Steps(wait) });
  expect(v2.status).toBe(201);
  const seq = await sys.api('GET', `/v1/sequences/${ids.sequenceId}`);
  return { ...ids, version1: seq.body.versions[0].id as string, v2: v2.body.id as string };
}

/** Plans and applies until a plan's population holds still long enough to apply (a live campaign moves). */
async function planAndApply(sys: TestSystem, sequenceId: string, reason: string): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const plan = await sys.api('POST', `/v1/sequences/${sequenceId}/migrations`, {
      from: 1,
      to: 2,
      mapping: MAPPING,
      dryRun: true,
      reason,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const applied = await sys.api('POST', `/v1/sequences/${sequenceId}/migrations`, {
      planId: plan.body.planId,
    });
    if (applied.status === 202) return plan.body.planId;
    expect(applied.body.code).toBe('population_changed');
  }
  throw new Error('the population never held still between a plan and its apply');
}

describe('a migration under a running campaign (sender, ingest and replies live)', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem('migration_live', { SANDBOX_REPLY_RATE: '0.15' });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('ends with 0 duplicate actions, 0 lost enrollments, every moved enrollment on its mapped node', async () => {
    const N = 120;
    // One day lasts 300 ms: 10 days between touches is 3 s, time for a plan and its apply between waves.
    const c = await enroll(sys, N, '10d', 'live');
    await waitFor('first touches out and some replies in', async () => {
      const firsts = sys.sandbox.deliveries().filter((d) => d.step === 1).length;
      const { rows } = await sys.rt.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM enrollment WHERE sequence_id = $1 AND status = 'replied'`,
        [c.sequenceId],
      );
      return firsts >= N && rows[0]!.n > 0;
    });
    const planId = await planAndApply(sys, c.sequenceId, 'step 3 rewritten, a fifth step');
    const done = await waitFor(
      'the migration to complete',
      async () => {
        const m = await sys.api('GET', `/v1/sequences/${c.sequenceId}/migrations/${planId}`);
        return m.body.status === 'completed' ? m.body : null;
      },
      { timeoutMs: 60_000 },
    );
    expect(done.progress.pending).toBe(0);
    expect(done.progress.moved).toBeGreaterThan(0);

    // Every moved enrollment landed on the node its node maps to, in version 2.
    const { rows: moves } = await sys.rt.db.pool.query<{
      entity_id: string;
      data: { fromNode: number; toNode: number; toVersionId: string };
    }>(
      `SELECT entity_id, data FROM audit_log WHERE action = 'enrollment.migrated' AND data->>'migrationId' = $1`,
      [planId],
    );
    expect(moves).toHaveLength(done.progress.moved);
    // People mid-thread moved: not only those still waiting for their first touch.
    expect(moves.filter((m) => m.data.fromNode >= 2).length).toBeGreaterThan(N / 2);
    for (const m of moves) {
      expect(m.data.toVersionId).toBe(c.v2);
      expect(m.data.toNode).toBe(m.data.fromNode);
    }

    // 0 lost: every enrollment ends (replied or exhausted); none is left behind.
    const ended = await waitForEnded(sys, c.sequenceId, N, { timeoutMs: 120_000 });
    expect(Object.keys(ended).sort()).toEqual(expect.arrayContaining(['exhausted', 'replied']));
    await sys.sandbox.settled();

    // 0 duplicates: no enrollment got a step twice, and no key was delivered twice.
    const deliveries = sys.sandbox.deliveries().filter((d) => d.to.startsWith('live-'));
    const keys = deliveries.map((d) => `${d.enrollmentId}/${d.step}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(deliveries.map((d) => d.idempotencyKey)).size).toBe(deliveries.length);

    // After its move, each enrollment got version 2's copy, and the exhausted ones its fifth step.
    const movedFrom = new Map(moves.map((m) => [m.entity_id, m.data.fromNode]));
    for (const d of deliveries) {
      const from = movedFrom.get(d.enrollmentId);
      if (from !== undefined && d.step >= from) expect(d.body).toContain('v2 touch');
    }
    const { rows: exhausted } = await sys.rt.db.pool.query<{ id: string; version: string }>(
      `SELECT id, sequence_version_id AS version FROM enrollment WHERE sequence_id = $1 AND status = 'exhausted'`,
      [c.sequenceId],
    );
    expect(exhausted.filter((e) => e.version === c.v2).length).toBeGreaterThan(0);
    for (const e of exhausted) {
      const steps = deliveries.filter((d) => d.enrollmentId === e.id).map((d) => d.step);
      expect(steps.sort()).toEqual(e.version === c.v2 ? [1, 2, 3, 4, 5] : [1, 2, 3, 4]);
    }
  });
});

describe('kill -9 of the process applying a migration', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    // No sender: the enrollments stay where they are, so the check is exact.
    sys = await startTestSystem('migration_kill', {}, { withoutSender: true });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('midway, then a restart completes it: every enrollment once on its mapped node, with its job', async () => {
    const N = 600;
    const c = await enroll(sys, N, '1000d', 'kill');
    const plan = await sys.api('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      from: 1,
      to: 2,
      mapping: MAPPING,
      reason: 'kill test',
    });
    expect(plan.status).toBe(201);
    expect(plan.body.enrollments).toBe(N);
    const env = { ...sys.env, MIGRATION_BATCH_SIZE: '5' };
    const script = 'test/support/migration-applier.child.ts';
    const progress = async () => {
      const m = await sys.api('GET', `/v1/sequences/${c.sequenceId}/migrations/${plan.body.planId}`);
      return m.body as { status: string; progress: { moved: number; pending: number } };
    };
    const first = spawnScript('applier', script, [c.sequenceId, plan.body.planId], env);
    await waitFor('the applier to be midway', async () => (await progress()).progress.moved >= 50, {
      timeoutMs: 60_000,
      intervalMs: 10,
    });
    await killHard(first);
    const midway = await progress();
    expect(midway.status).toBe('applying');
    expect(midway.progress.pending).toBeGreaterThan(0);

    // Halfway, each enrollment is on exactly one side: moved (version 2) or pending (version 1).
    const { rows: half } = await sys.rt.db.pool.query<{ state: string; version: string }>(
      `SELECT i.state, e.sequence_version_id AS version FROM sequence_migration_item i
       JOIN enrollment e ON e.id = i.enrollment_id WHERE i.migration_id = $1`,
      [plan.body.planId],
    );
    for (const r of half) expect(r.version).toBe(r.state === 'moved' ? c.v2 : c.version1);

    const second = spawnScript('applier', script, [c.sequenceId, plan.body.planId], env);
    await new Promise<void>((resolve) => second.once('exit', () => resolve()));
    expect(second.exitCode).toBe(0);
    const end = await progress();
    expect(end.status).toBe('completed');
    expect(end.progress).toMatchObject({ moved: N, pending: 0 });

    const { rows } = await sys.rt.db.pool.query<{
      id: string;
      version: string;
      node: number;
      status: string;
    }>(
      `SELECT id, sequence_version_id AS version, current_step AS node, status::text FROM enrollment WHERE sequence_id = $1`,
      [c.sequenceId],
    );
    expect(rows).toHaveLength(N);
    for (const r of rows) expect([r.version, r.node, r.status]).toEqual([c.v2, 1, 'active']);
    // A batch the kill cut off had removed its jobs without committing: the reconciler's pass
    // puts back any job a crash left out, and then every enrollment has its one job.
    const { reconcile } = await import('../../apps/scheduler/src/processors/reconcile.processor.js');
    await reconcile({
      enrollments: sys.rt.repos.enrollments,
      touchQueue: sys.rt.touchQueue,
      logger: sys.rt.logger,
      metrics: sys.rt.metrics,
      clock: () => new Date(),
    });
    const jobs = await sys.rt.touchQueue.existing(rows.map((r) => touchKey(r.id, 1)));
    expect(jobs.size).toBe(N);
    // Moved once each: one audit entry per enrollment.
    const { rows: audit } = await sys.rt.db.pool.query<{ n: number }>(
      `SELECT count(DISTINCT entity_id)::int AS n, count(*)::int AS all FROM audit_log
       WHERE action = 'enrollment.migrated' AND data->>'migrationId' = $1`,
      [plan.body.planId],
    );
    expect(audit[0]).toEqual({ n: N, all: N });
  });
});
