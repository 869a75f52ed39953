import { touchKey } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, spawnScript } from '../support/child-service.js';
import { enrollAll, seed, startTestSystem, type TestSystem, waitForEnded } from '../support/test-system.js';

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

/** Where each enrollment of a sequence is: its version, node (number) and status. */
async function enrollmentsOf(sys: TestSystem, sequenceId: string) {
  const { rows } = await sys.rt.db.pool.query<{ id: string; version: string; node: number; status: string }>(
    `SELECT id, sequence_version_id AS version, current_step AS node, status::text FROM enrollment WHERE sequence_id = $1`,
    [sequenceId],
  );
  return rows;
}

/**
 * Version 2 of the live campaign: a node `bump` inserted before step 3, so the
 * old steps 3 and 4 are numbered 4 and 5. Each body names its node.
 */
const LIVE_V2 = {
  nodes: [
    ...['step-1', 'step-2', 'bump', 'step-3', 'step-4'].map((id) => ({
      id,
      action: 'email',
      subject: 'Hello {{firstName|there}}',
      body: `v2 ${id} for {{firstName|there}}`,
    })),
    { id: 'end', action: 'end' },
  ],
  edges: ['step-1', 'step-2', 'bump', 'step-3', 'step-4', 'end'].slice(0, -1).map((from, i, all) => ({
    from,
    to: all[i + 1] ?? 'end',
    trigger: 'no_reply',
    wait: '20d',
  })),
};
/**
 * Every old node onto a node of another name or number: step 2 skips ahead to
 * step 3 (2 → 4), step 3 goes to the new `bump` (3 → 3, another node), step 4
 * stays step 4 (4 → 5).
 */
const LIVE_MAPPING = { 'step-1': 'step-1', 'step-2': 'step-3', 'step-3': 'bump', 'step-4': 'step-4' };
const V1_IDS = ['step-1', 'step-2', 'step-3', 'step-4', 'end'];
const V2_IDS = LIVE_V2.nodes.map((n) => n.id);

/** The v2 chain from `id` to its last e-mail: the nodes a moved enrollment still has to run. */
function v2PathFrom(id: string): string[] {
  const path = [id];
  for (let at = id; ; ) {
    const next = LIVE_V2.edges.find((e) => e.from === at)?.to;
    if (!next || next === 'end') return path;
    path.push(next);
    at = next;
  }
}

/** The node a delivery's body names: `Touch n for …` (version 1) or `v2 <node> for …`. */
function actionOf(body: string): { version: 1 | 2; node: string } {
  const v1 = /Touch (\d) for/.exec(body);
  if (v1) return { version: 1, node: `step-${v1[1]}` };
  const v2 = /v2 (\S+) for/.exec(body);
  if (v2) return { version: 2, node: v2[1]! };
  throw new Error(`a delivery of neither version: ${body}`);
}

/** Enrolls more people in the campaign; answers their enrollment ids. */
async function enrollWave(sys: TestSystem, c: { sequenceId: string; mailboxId: string }, emails: string[]) {
  const people = await sys.api('POST', '/v1/prospects', {
    prospects: emails.map((email, i) => ({ email, firstName: `P${i}` })),
  });
  expect(people.status).toBe(200);
  const prospectIds = (people.body.prospects as { id: string }[]).map((p) => p.id);
  return enrollAll(sys, { ...c, prospectIds });
}

/** Waits until every enrollment of `ids` has passed node `node` (its touch sent) or ended. */
async function waitPast(sys: TestSystem, ids: string[], node: number) {
  await waitFor(`every enrollment of the wave past node ${node}`, async () => {
    const { rows } = await sys.rt.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM enrollment WHERE id = ANY($1::uuid[]) AND (current_step > $2 OR status <> 'active')`,
      [ids, node],
    );
    return rows[0]!.n === ids.length;
  });
}

/** Plans and applies until a plan's population holds still long enough to apply (a live campaign moves). */
async function planAndApply(
  sys: TestSystem,
  sequenceId: string,
  mapping: Record<string, string>,
  reason: string,
): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const plan = await sys.api('POST', `/v1/sequences/${sequenceId}/migrations`, {
      from: 1,
      to: 2,
      mapping,
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

  it('onto other nodes: 0 duplicate actions, 0 lost enrollments, every moved enrollment on its mapped node', async () => {
    // One day lasts 300 ms: 20 days between touches is 6 s. Three waves enrolled a step
    // apart put people at nodes 1 to 3 when the migration runs.
    const wave = (label: string) => Array.from({ length: 40 }, (_, i) => `${label}-${i}@prospect.example`);
    const ids = await seed(sys, { steps: 4, prospects: wave('live-a'), wait: '20d' });
    const c = { sequenceId: ids.sequenceId, mailboxId: ids.mailboxId };
    const a = await enrollAll(sys, ids);
    await waitPast(sys, a, 2);
    const b = await enrollWave(sys, c, wave('live-b'));
    await waitPast(sys, b, 1);
    const third = await enrollWave(sys, c, wave('live-c'));
    const all = [...a, ...b, ...third];
    const N = all.length;
    const v2 = await sys.api('POST', `/v1/sequences/${c.sequenceId}/versions`, { graph: LIVE_V2 });
    expect(v2.status, JSON.stringify(v2.body)).toBe(201);

    const planId = await planAndApply(sys, c.sequenceId, LIVE_MAPPING, 'a bump before step 3');
    const done = await waitFor(
      'the migration to complete',
      async () => {
        const m = await sys.api('GET', `/v1/sequences/${c.sequenceId}/migrations/${planId}`);
        return m.body.status === 'completed' ? m.body : null;
      },
      { timeoutMs: 60_000 },
    );
    expect(done.progress.pending).toBe(0);
    // Where each enrollment is the moment the migration completes.
    const snapshot = await enrollmentsOf(sys, c.sequenceId);

    // Every moved enrollment landed on the node its node maps to, by number in version 2.
    const { rows: moves } = await sys.rt.db.pool.query<{
      entity_id: string;
      data: { fromNode: number; toNode: number; toVersionId: string };
    }>(
      `SELECT entity_id, data FROM audit_log WHERE action = 'enrollment.migrated' AND data->>'migrationId' = $1`,
      [planId],
    );
    expect(moves).toHaveLength(done.progress.moved);
    expect(new Set(moves.map((m) => m.entity_id)).size).toBe(moves.length);
    const mapped = new Map<string, { from: string; to: string }>();
    for (const m of moves) {
      const from = V1_IDS[m.data.fromNode - 1]!;
      const to = LIVE_MAPPING[from as keyof typeof LIVE_MAPPING];
      expect(m.data.toVersionId).toBe(v2.body.id);
      expect(V2_IDS[m.data.toNode - 1], `${m.entity_id} from ${from}`).toBe(to);
      mapped.set(m.entity_id, { from, to });
    }
    // People mid-thread moved onto nodes of another number (2 → 4) and another name (3 → bump).
    const fromNodes = moves.map((m) => m.data.fromNode);
    expect(fromNodes.filter((n) => n === 2).length).toBeGreaterThan(0);
    expect(fromNodes.filter((n) => n === 3).length).toBeGreaterThan(0);
    // At completion each moved one is on its mapped node, or past it along version 2's edges.
    for (const e of snapshot.filter((r) => mapped.has(r.id))) {
      expect(e.version).toBe(v2.body.id);
      const reachable = [...v2PathFrom(mapped.get(e.id)!.to), 'end'];
      if (e.status === 'active') expect(reachable, e.id).toContain(V2_IDS[e.node - 1]);
    }

    // 0 lost: every enrollment ends (replied or exhausted); none is left behind.
    const ended = await waitForEnded(sys, c.sequenceId, N, { timeoutMs: 120_000 });
    expect(Object.keys(ended).sort()).toEqual(expect.arrayContaining(['exhausted', 'replied']));
    await sys.sandbox.settled();

    // 0 duplicates: no key delivered twice, no enrollment given a step number or an action twice
    // (old step-n and new step-n are the same action).
    const deliveries = sys.sandbox.deliveries().filter((d) => d.to.startsWith('live-'));
    expect(new Set(deliveries.map((d) => d.idempotencyKey)).size).toBe(deliveries.length);
    const numbers = deliveries.map((d) => `${d.enrollmentId}/${d.step}`);
    expect(new Set(numbers).size).toBe(numbers.length);
    const actions = deliveries.map((d) => `${d.enrollmentId}/${actionOf(d.body).node}`);
    expect(new Set(actions).size).toBe(actions.length);

    // Per enrollment: version 1's steps before its node, then version 2's path from the mapped
    // node (all of it when exhausted, a start of it when the person replied).
    const { rows: final } = await sys.rt.db.pool.query<{ id: string; status: string }>(
      `SELECT id, status::text FROM enrollment WHERE sequence_id = $1`,
      [c.sequenceId],
    );
    let exhaustedMoved = 0;
    for (const e of final) {
      const got = deliveries
        .filter((d) => d.enrollmentId === e.id)
        .sort((x, y) => x.seq - y.seq)
        .map((d) => actionOf(d.body));
      const move = mapped.get(e.id);
      if (!move) {
        // Not moved: it ended in version 1 before or while the migration ran.
        expect(
          got.every((g) => g.version === 1),
          e.id,
        ).toBe(true);
        continue;
      }
      const before = V1_IDS.slice(0, V1_IDS.indexOf(move.from));
      expect(
        got.filter((g) => g.version === 1).map((g) => g.node),
        e.id,
      ).toEqual(before);
      expect(
        got.slice(0, before.length).every((g) => g.version === 1),
        e.id,
      ).toBe(true);
      const after = got.filter((g) => g.version === 2).map((g) => g.node);
      const path = v2PathFrom(move.to);
      if (e.status === 'exhausted') {
        exhaustedMoved++;
        expect(after, e.id).toEqual(path);
      } else expect(after, e.id).toEqual(path.slice(0, after.length));
    }
    expect(exhaustedMoved).toBeGreaterThan(0);
  }, 240_000);
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

    const rows = await enrollmentsOf(sys, c.sequenceId);
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
