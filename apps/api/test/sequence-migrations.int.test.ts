import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const TOKEN = 'migrations-admin-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };

const steps = (copy: string[], wait = '2d') =>
  copy.map((body, i) => ({ subject: `Hi ${i + 1}`, body, wait }));

describe('/v1/sequences/:id/migrations (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  let mailboxId: string;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await f.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json(), type: res.headers['content-type'] };
  };
  const q = <T extends object>(sql: string, values: unknown[] = []) =>
    f.db.pool.query<T & import('pg').QueryResultRow>(sql, values).then((r) => r.rows);

  beforeAll(async () => {
    f = await apiFixture('sequence_migrations', { adminToken: TOKEN });
    mailboxId = (await call('POST', '/v1/mailboxes', { provider: 'sandbox', address: 'sdr@migrate.example' }))
      .body.id;
  });
  afterAll(async () => {
    await f?.close();
  });

  /** A sequence of three steps with `n` people enrolled, and its second version (copy of step 2 changed, a step added). */
  async function campaign(n: number) {
    const seq = await call('POST', '/v1/sequences', {
      name: `c-${randomUUID()}`,
      steps: steps(['one', 'two', 'three']),
    });
    expect(seq.status).toBe(201);
    const prospects = await call('POST', '/v1/prospects', {
      prospects: Array.from({ length: n }, (_, i) => ({ email: `p${i}-${randomUUID()}@people.example` })),
    });
    const prospectIds = prospects.body.prospects.map((p: { id: string }) => p.id);
    const enrolled = await call('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId,
      prospectIds,
    });
    expect(enrolled.status).toBe(201);
    const v2 = await call('POST', `/v1/sequences/${seq.body.id}/versions`, {
      steps: steps(['one', 'two, new copy', 'three', 'four']),
    });
    expect(v2.body).toMatchObject({ sequenceId: seq.body.id });
    const ids = (enrolled.body.enrolled as { id: string }[]).map((e) => e.id).sort();
    return {
      sequenceId: seq.body.id as string,
      v1: seq.body.version.id as string,
      v2: v2.body.id as string,
      ids,
    };
  }

  /** Puts an enrollment at `node` with touches 1..node-1 sent (as the sender leaves it), and its job. */
  async function advance(id: string, node: number) {
    for (let s = 1; s < node; s++)
      await q(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, sent_at) VALUES ($1, $2, $3, 'sent', $4, now())`,
        [randomUUID(), id, s, touchKey(id, s)],
      );
    await q('UPDATE enrollment SET current_step = $2 WHERE id = $1', [id, node]);
    await f.touchQueue.cancel([{ enrollmentId: id, step: 1 }]);
    await f.touchQueue.schedule([{ enrollmentId: id, step: node, dueAt: new Date(Date.now() + 3_600_000) }]);
  }

  /** Claims the touch of `step` as the sender does (`sending`, not yet recorded); returns its id. */
  async function claimInFlight(id: string, step: number) {
    const touchId = randomUUID();
    await q(
      `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key) VALUES ($1, $2, $3, 'sending', $4)`,
      [touchId, id, step, touchKey(id, step)],
    );
    return touchId;
  }

  /** Waits for the migration of `planId` to complete; answers it as GET returns it. */
  const completed = (sequenceId: string, planId: string) =>
    waitFor('the migration to complete', async () => {
      const m = await call('GET', `/v1/sequences/${sequenceId}/migrations/${planId}`);
      return m.body.status === 'completed' ? m.body : null;
    });

  const MAP = { 'step-1': 'step-1', 'step-2': 'step-2', 'step-3': 'step-3' };
  /** Plans the move of a campaign's enrollments from version 1 to 2 by {@link MAP}. */
  const planMigration = (sequenceId: string, reason: string) =>
    call('POST', `/v1/sequences/${sequenceId}/migrations`, { from: 1, to: 2, mapping: MAP, reason });

  it('a dry run answers the plan: who moves where, who is skipped, which copy changes mid-thread', async () => {
    const c = await campaign(4);
    await advance(c.ids[1]!, 2);
    await advance(c.ids[2]!, 3);
    await advance(c.ids[3]!, 4); // past the last step: at the end
    const r = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      from: 1,
      to: c.v2,
      mapping: MAP,
      dryRun: true,
      reason: 'new copy for step 2',
    });
    expect(r.status).toBe(201);
    expect(r.body.enrollments).toBe(3);
    expect(r.body.perSourceNode).toEqual(
      expect.arrayContaining([
        { from: 'step-1', to: 'step-1', enrollments: 1 },
        { from: 'step-2', to: 'step-2', enrollments: 1 },
        { from: 'step-3', to: 'step-3', enrollments: 1 },
      ]),
    );
    expect(r.body.skipped).toEqual([{ enrollmentId: c.ids[3], node: 'end', reason: 'at_end' }]);
    // Only the person mid-thread at step 2 reads different copy.
    expect(r.body.changedMessages).toEqual([
      { from: 'step-2', to: 'step-2', enrollments: 1, fields: ['body'] },
    ]);
    const stored = await call('GET', `/v1/sequences/${c.sequenceId}/migrations/${r.body.planId}`);
    expect(stored.body.status).toBe('planned');
    expect(stored.body.progress).toMatchObject({ total: 3, pending: 3, moved: 0 });
  });

  it('refuses, naming the node, a resend, a missing target and a lost enrollment', async () => {
    const c = await campaign(3);
    await advance(c.ids[1]!, 3);
    const plan = (mapping: Record<string, string>) =>
      call('POST', `/v1/sequences/${c.sequenceId}/migrations`, { from: 1, to: 2, mapping, reason: 'test' });
    const resend = await plan({ ...MAP, 'step-3': 'step-2' });
    expect(resend.status).toBe(422);
    expect(resend.type).toContain('application/problem+json');
    expect(resend.body.code).toBe('invalid_migration');
    // The problem's errors keep their own members: the node, the kind, how many.
    expect(resend.body.errors).toEqual([
      {
        node: 'step-3',
        code: 'resend',
        enrollments: 1,
        field: 'mapping.step-3',
        message:
          'node "step-3" is mapped to "step-2", which 1 enrollment(s) already ran on their path: it would act again',
      },
    ]);
    const missing = await plan({ ...MAP, 'step-2': 'step-9' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject([
      {
        field: 'mapping.step-2',
        message: 'node "step-2" is mapped to "step-9", which the target version does not have',
      },
    ]);
    const lost = await plan({ 'step-1': 'step-1' });
    expect(lost.status).toBe(422);
    expect(lost.body.errors).toMatchObject([
      {
        field: 'mapping.step-3',
        message:
          '1 live enrollment(s) are at node "step-3", which the mapping leaves out: they would be lost',
      },
    ]);
    // Filtered to step 1, the others are not in the population: nothing is lost.
    const filtered = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      from: 1,
      to: 2,
      mapping: { 'step-1': 'step-1' },
      filter: { nodes: ['step-1'] },
      reason: 'only the new ones',
    });
    expect(filtered.status).toBe(201);
    expect(filtered.body.enrollments).toBe(2);
    const noReason = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      from: 1,
      to: 2,
      mapping: MAP,
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual([expect.objectContaining({ field: 'body.reason' })]);
  });

  it('applies exactly the plan, or 409 when the population changed', async () => {
    const c = await campaign(3);
    const plan = await planMigration(c.sequenceId, 'new copy');
    await advance(c.ids[0]!, 2);
    const stale = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      planId: plan.body.planId,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('population_changed');
    expect(stale.body.errors).toEqual([expect.objectContaining({ field: 'planId' })]);

    const again = await planMigration(c.sequenceId, 'new copy');
    const applied = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      planId: again.body.planId,
      reason: 'approved by sales ops',
    });
    expect(applied.status).toBe(202);
    const done = await completed(c.sequenceId, again.body.planId);
    expect(done.progress).toMatchObject({ total: 3, moved: 3, pending: 0, skipped: 0 });
    expect(done.appliedBy).toBeTruthy();
    const rows = await q<{ id: string; sequence_version_id: string; current_step: number }>(
      'SELECT id, sequence_version_id, current_step FROM enrollment WHERE id = ANY($1::uuid[]) ORDER BY id',
      [c.ids],
    );
    expect(rows.map((r) => [r.sequence_version_id, r.current_step])).toEqual([
      [c.v2, 2],
      [c.v2, 1],
      [c.v2, 1],
    ]);
    // Each moved enrollment has exactly its new node's job, and its timeline says who moved it and why.
    const pending = await f.touchQueue.existing(rows.map((r) => touchKey(r.id, r.current_step)));
    expect(pending.size).toBe(3);
    const audit = await q<{ entity_id: string; data: { reason: string; toNode: number } }>(
      `SELECT entity_id, data FROM audit_log WHERE action = 'enrollment.migrated' AND entity_id = ANY($1::text[])`,
      [c.ids],
    );
    expect(audit).toHaveLength(3);
    expect(audit.every((a) => a.data.reason === 'new copy')).toBe(true);
    const seqAudit = await q<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity_id = $1 AND action LIKE 'sequence.migration%' ORDER BY id`,
      [c.sequenceId],
    );
    // Who applied it and why: the key's actor, the plan's reason and the applier's.
    const [appliedEntry] = await q<{ actor: string; data: { reason: string; appliedReason: string } }>(
      `SELECT actor, data FROM audit_log WHERE entity_id = $1 AND action = 'sequence.migration_applied'`,
      [c.sequenceId],
    );
    expect(appliedEntry!.actor).toBe(done.appliedBy);
    expect(appliedEntry!.data).toMatchObject({ reason: 'new copy', appliedReason: 'approved by sales ops' });
    expect(seqAudit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'sequence.migration_planned',
        'sequence.migration_applied',
        'sequence.migration_completed',
      ]),
    );
    // Applying the same plan twice changes nothing.
    const twice = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      planId: again.body.planId,
    });
    expect(twice.status).toBe(202);
    expect(twice.body.status).toBe('completed');
  });

  it('a plan takes an enrollment whose touch is in flight at its node', async () => {
    const c = await campaign(2);
    await advance(c.ids[0]!, 2);
    // Touch 2 of the first one is claimed (sending): the sender is on it.
    await claimInFlight(c.ids[0]!, 2);
    const plan = await planMigration(c.sequenceId, 'in flight');
    expect(plan.status).toBe(201);
    // A touch in flight is not a touch run: the plan takes it, and the apply waits for it to settle.
    expect(plan.body.perSourceNode).toEqual(
      expect.arrayContaining([
        { from: 'step-1', to: 'step-1', enrollments: 1 },
        { from: 'step-2', to: 'step-2', enrollments: 1 },
      ]),
    );
  });

  it('a touch in flight defers the move until the sender records it; then it moves by its new node', async () => {
    const c = await campaign(2);
    await advance(c.ids[0]!, 2);
    const plan = await planMigration(c.sequenceId, 'in flight');
    // After the plan, the sender claims touch 2 (as it would).
    const touchId = await claimInFlight(c.ids[0]!, 2);
    // The claim is not part of the fingerprint (ids, nodes, statuses): the plan applies.
    const applied = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      planId: plan.body.planId,
    });
    expect(applied.status).toBe(202);
    await waitFor('the other enrollment to move and the first to be deferred', async () => {
      const m = await call('GET', `/v1/sequences/${c.sequenceId}/migrations/${plan.body.planId}`);
      return m.body.progress.moved === 1 && m.body.progress.deferrals > 0 ? m.body : null;
    });
    const [held] = await q<{ sequence_version_id: string }>(
      'SELECT sequence_version_id FROM enrollment WHERE id = $1',
      [c.ids[0]],
    );
    expect(held!.sequence_version_id).toBe(c.v1);
    // The sender records the send and moves the enrollment to node 3, in one transaction as it does.
    await q(
      `WITH t AS (UPDATE touch SET status = 'sent', sent_at = now() WHERE id = $1)
       UPDATE enrollment SET current_step = 3 WHERE id = $2`,
      [touchId, c.ids[0]],
    );
    const done = await completed(c.sequenceId, plan.body.planId);
    expect(done.progress).toMatchObject({ moved: 2, skipped: 0 });
    const [moved] = await q<{ sequence_version_id: string; current_step: number }>(
      'SELECT sequence_version_id, current_step FROM enrollment WHERE id = $1',
      [c.ids[0]],
    );
    expect(moved).toEqual({ sequence_version_id: c.v2, current_step: 3 });
  });

  it('an enrollment that replies while its touch was in flight is skipped, with the reason', async () => {
    const c = await campaign(2);
    await advance(c.ids[0]!, 2);
    const plan = await planMigration(c.sequenceId, 'reply meanwhile');
    const touchId = await claimInFlight(c.ids[0]!, 2);
    await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, { planId: plan.body.planId });
    await waitFor('the first to be deferred', async () => {
      const m = await call('GET', `/v1/sequences/${c.sequenceId}/migrations/${plan.body.planId}`);
      return m.body.progress.deferrals > 0;
    });
    await q(
      `WITH t AS (UPDATE touch SET status = 'sent', sent_at = now() WHERE id = $1)
       UPDATE enrollment SET status = 'replied', stop_reason = 'reply' WHERE id = $2`,
      [touchId, c.ids[0]],
    );
    const done = await completed(c.sequenceId, plan.body.planId);
    expect(done.progress).toMatchObject({ moved: 1, skipped: 1, skippedBy: { 'stopped: replied': 1 } });
    const [e] = await q<{ sequence_version_id: string }>(
      'SELECT sequence_version_id FROM enrollment WHERE id = $1',
      [c.ids[0]],
    );
    expect(e!.sequence_version_id).toBe(c.v1);
  });

  it('an enrollment waiting to resend a soft-bounced touch moves onto the same node with its attempt', async () => {
    const c = await campaign(1);
    const id = c.ids[0]!;
    await advance(id, 2);
    // Touch 2 soft-bounced: the enrollment waits at node 2 for attempt 2 (key {id}-2-2).
    await q(
      `INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, sent_at) VALUES ($1, $2, 2, 1, 'sent', $3, now())`,
      [randomUUID(), id, touchKey(id, 2)],
    );
    await q('UPDATE enrollment SET current_attempt = 2 WHERE id = $1', [id]);
    await f.touchQueue.cancel([{ enrollmentId: id, step: 2 }]);
    await f.touchQueue.schedule([
      { enrollmentId: id, step: 2, attempt: 2, dueAt: new Date(Date.now() + 3_600_000) },
    ]);
    const plan = await planMigration(c.sequenceId, 'soft bounce');
    expect(plan.status).toBe(201);
    await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, { planId: plan.body.planId });
    await completed(c.sequenceId, plan.body.planId);
    const [e] = await q<{ sequence_version_id: string; current_step: number; current_attempt: number }>(
      'SELECT sequence_version_id, current_step, current_attempt FROM enrollment WHERE id = $1',
      [id],
    );
    expect(e).toEqual({ sequence_version_id: c.v2, current_step: 2, current_attempt: 2 });
    expect((await f.touchQueue.existing([touchKey(id, 2, 2)])).size).toBe(1);
  });

  it('is reversible: a migration back puts every enrollment on its old version and node', async () => {
    const c = await campaign(3);
    await advance(c.ids[1]!, 2);
    const before = await q<{ id: string; sequence_version_id: string; current_step: number }>(
      'SELECT id, sequence_version_id, current_step FROM enrollment WHERE id = ANY($1::uuid[]) ORDER BY id',
      [c.ids],
    );
    const migrate = async (from: number, to: number, mapping: Record<string, string>) => {
      const plan = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
        from,
        to,
        mapping,
        reason: 'try',
      });
      expect(plan.status).toBe(201);
      const applied = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
        planId: plan.body.planId,
      });
      expect(applied.status).toBe(202);
      await completed(c.sequenceId, plan.body.planId);
    };
    await migrate(1, 2, MAP);
    await migrate(2, 1, MAP);
    const after = await q<{ id: string; sequence_version_id: string; current_step: number }>(
      'SELECT id, sequence_version_id, current_step FROM enrollment WHERE id = ANY($1::uuid[]) ORDER BY id',
      [c.ids],
    );
    expect(after).toEqual(before);
    const pending = await f.touchQueue.existing(after.map((r) => touchKey(r.id, r.current_step)));
    expect(pending.size).toBe(3);
  });

  it('a queued enrollment (its domain paused) moves too, and stays queued without a job', async () => {
    const c = await campaign(1);
    // Enrolled while its domain was paused: queued, no job, as enroll leaves it.
    const person = await call('POST', '/v1/prospects', {
      prospects: [{ email: `q-${randomUUID()}@people.example` }],
    });
    const queued = randomUUID();
    await q(
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, stop_reason)
       VALUES ($1, $2, $3, $4, $5, 'queued', 'domain_paused')`,
      [queued, person.body.prospects[0].id, c.sequenceId, c.v1, mailboxId],
    );
    c.ids = [...c.ids, queued].sort();
    const plan = await planMigration(c.sequenceId, 'queued too');
    expect(plan.body.enrollments).toBe(2);
    await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, { planId: plan.body.planId });
    await completed(c.sequenceId, plan.body.planId);
    const rows = await q<{ id: string; status: string; sequence_version_id: string }>(
      'SELECT id, status::text, sequence_version_id FROM enrollment WHERE id = ANY($1::uuid[]) ORDER BY id',
      [c.ids],
    );
    expect(
      rows.map((r) => [r.id === queued ? 'queued one' : 'other', r.status, r.sequence_version_id]).sort(),
    ).toEqual([
      ['other', 'active', c.v2],
      ['queued one', 'queued', c.v2],
    ]);
    expect((await f.touchQueue.existing([touchKey(queued, 1)])).size).toBe(0);
  });

  it('a migration a crash left applying is resumed by asking to apply its plan again', async () => {
    const c = await campaign(3);
    const plan = await planMigration(c.sequenceId, 'resume by the API');
    // Marked applying by a process that died before moving anyone.
    expect(await f.repos.sequenceMigrations.startApplying(plan.body.planId, 'a dead process')).toBe(true);
    const again = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      planId: plan.body.planId,
    });
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('applying');
    const done = await completed(c.sequenceId, plan.body.planId);
    expect(done.progress).toMatchObject({ total: 3, moved: 3, pending: 0 });
  });

  it('on a branching graph, "already done" is the path taken: a node of the branch never run is allowed, one run is refused', async () => {
    const mail = (id: string, body = id) => ({ id, action: 'email', subject: 'Hi', body });
    // mail-1; opened: mail-opened, else (3 days) mail-2; both on to mail-3.
    const edges = [
      { from: 'mail-1', to: 'mail-opened', trigger: 'opened', wait: '1d' },
      { from: 'mail-1', to: 'mail-2', trigger: 'no_reply', wait: '3d' },
      { from: 'mail-opened', to: 'mail-3', trigger: 'no_reply', wait: '2d' },
      { from: 'mail-2', to: 'mail-3', trigger: 'no_reply', wait: '2d' },
      { from: 'mail-3', to: 'end', trigger: 'no_reply', wait: '2d' },
    ];
    const end = { id: 'end', action: 'end' };
    const seq = await call('POST', '/v1/sequences', {
      name: `branch-${randomUUID()}`,
      graph: { nodes: [mail('mail-1'), mail('mail-opened'), mail('mail-2'), mail('mail-3'), end], edges },
    });
    expect(seq.status).toBe(201);
    const prospects = await call('POST', '/v1/prospects', {
      prospects: [0, 1].map((i) => ({ email: `b${i}-${randomUUID()}@people.example` })),
    });
    const enrolled = await call('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId,
      prospectIds: prospects.body.prospects.map((p: { id: string }) => p.id),
    });
    const [byEmail, opened] = (enrolled.body.enrolled as { id: string }[]).map((e) => e.id);
    // Both wait at mail-3 (node 4): one came by mail-2 (node 3), one by mail-opened (node 2).
    const walk = async (id: string, ran: number[]) => {
      for (const s of ran)
        await q(
          `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, sent_at) VALUES ($1, $2, $3, 'sent', $4, now())`,
          [randomUUID(), id, s, touchKey(id, s)],
        );
      await q('UPDATE enrollment SET current_step = 4 WHERE id = $1', [id]);
      await f.touchQueue.cancel([{ enrollmentId: id, step: 1 }]);
      await f.touchQueue.schedule([{ enrollmentId: id, step: 4, dueAt: new Date(Date.now() + 3_600_000) }]);
    };
    await walk(byEmail!, [1, 3]);
    await walk(opened!, [1, 2]);
    // Version 2 lists mail-2 before mail-opened: mail-opened takes number 3, the number mail-2 ran under.
    const v2 = await call('POST', `/v1/sequences/${seq.body.id}/versions`, {
      graph: {
        nodes: [
          mail('mail-1'),
          mail('mail-2'),
          mail('mail-opened', 'opened, rewritten'),
          mail('mail-3'),
          end,
        ],
        edges,
      },
    });
    expect(v2.status).toBe(201);
    const plan = (filter?: object) =>
      call('POST', `/v1/sequences/${seq.body.id}/migrations`, {
        from: 1,
        to: 2,
        mapping: { 'mail-1': 'mail-1', 'mail-3': 'mail-opened' },
        reason: 'send the opened copy instead',
        ...(filter ? { filter } : {}),
      });
    // The one that opened already got mail-opened: refused, naming the node.
    const refused = await plan();
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject([
      {
        node: 'mail-3',
        field: 'mapping.mail-3',
        message:
          'node "mail-3" is mapped to "mail-opened", which 1 enrollment(s) already ran on their path: it would act again',
      },
    ]);
    // Without it, the one that came by mail-2 moves to mail-opened, numbered 3 in the new version:
    // a number its path ran under (mail-2), so its touch takes the next attempt, a free key.
    await q(`UPDATE enrollment SET status = 'paused' WHERE id = $1`, [opened]);
    const ok = await plan({ statuses: ['active'] });
    expect(ok.status).toBe(201);
    expect(ok.body.perSourceNode).toEqual([{ from: 'mail-3', to: 'mail-opened', enrollments: 1 }]);
    await call('POST', `/v1/sequences/${seq.body.id}/migrations`, { planId: ok.body.planId });
    await completed(seq.body.id, ok.body.planId);
    const [row] = await q<{ sequence_version_id: string; current_step: number; current_attempt: number }>(
      'SELECT sequence_version_id, current_step, current_attempt FROM enrollment WHERE id = $1',
      [byEmail],
    );
    expect(row).toEqual({ sequence_version_id: v2.body.id, current_step: 3, current_attempt: 2 });
    const jobs = await f.touchQueue.existing([touchKey(byEmail!, 3, 2), touchKey(byEmail!, 4)]);
    expect([...jobs]).toEqual([touchKey(byEmail!, 3, 2)]);
  });

  it('an enrollment migrated twice is judged by the nodes its touches ran, each read in its own version', async () => {
    const mail = (id: string, body = id) => ({ id, action: 'email', subject: 'Hi', body });
    const chain = (ids: string[]) =>
      ids.map((id, i) => ({ from: id, to: ids[i + 1] ?? 'end', trigger: 'no_reply', wait: '2d' }));
    const end = { id: 'end', action: 'end' };
    const seq = await call('POST', '/v1/sequences', {
      name: `twice-${randomUUID()}`,
      graph: { nodes: [mail('a'), mail('b'), mail('c'), end], edges: chain(['a', 'b', 'c']) },
    });
    expect(seq.status).toBe(201);
    const email = `twice-${randomUUID()}@people.example`;
    const prospects = await call('POST', '/v1/prospects', { prospects: [{ email }] });
    const enrolled = await call('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId,
      prospectIds: [prospects.body.prospects[0].id],
    });
    const id = enrolled.body.enrolled[0].id as string;
    /** Sends the touch the enrollment is at through the sender's claim, then puts it at `next` with its job. */
    const send = async (next: number) => {
      const [e] = await q<{ current_step: number; current_attempt: number }>(
        'SELECT current_step, current_attempt FROM enrollment WHERE id = $1',
        [id],
      );
      const { current_step: step, current_attempt: attempt } = e!;
      const [claim] = await f.repos.touches.claimMany([
        { enrollmentId: id, step, attempt, idempotencyKey: touchKey(id, step, attempt), email, variant: 0 },
      ]);
      expect(claim).toEqual({ kind: 'claimed' });
      await q(`UPDATE touch SET status = 'sent', sent_at = now() WHERE enrollment_id = $1 AND step = $2`, [
        id,
        step,
      ]);
      await q('UPDATE enrollment SET current_step = $2, current_attempt = 1 WHERE id = $1', [id, next]);
      await f.touchQueue.cancel([{ enrollmentId: id, step, attempt }]);
      await f.touchQueue.schedule([
        { enrollmentId: id, step: next, dueAt: new Date(Date.now() + 3_600_000) },
      ]);
    };
    const migrate = async (from: number, to: number, mapping: Record<string, string>) => {
      const plan = await call('POST', `/v1/sequences/${seq.body.id}/migrations`, {
        from,
        to,
        mapping,
        reason: 'twice',
      });
      if (plan.status !== 201) return plan;
      await call('POST', `/v1/sequences/${seq.body.id}/migrations`, { planId: plan.body.planId });
      await completed(seq.body.id, plan.body.planId);
      return plan;
    };
    // v1: a (node 1) sent; the enrollment waits at b.
    await send(2);
    // v2 puts a new first node x before a: a is node 2 now, b node 3. Moved v1 -> v2 onto b (node 3).
    const v2 = await call('POST', `/v1/sequences/${seq.body.id}/versions`, {
      graph: { nodes: [mail('x'), mail('a'), mail('b'), mail('c'), end], edges: chain(['x', 'a', 'b', 'c']) },
    });
    expect(v2.status).toBe(201);
    expect((await migrate(1, 2, { a: 'a', b: 'b', c: 'c' })).status).toBe(201);
    // v2: b (node 3) sent; it waits at c (node 4). Its touches: node 1 of v1 (a), node 3 of v2 (b).
    await send(4);
    const touches = await q<{ step: number; sequence_version_id: string }>(
      'SELECT step, sequence_version_id FROM touch WHERE enrollment_id = $1 ORDER BY created_at',
      [id],
    );
    expect(touches).toEqual([
      { step: 1, sequence_version_id: seq.body.version.id },
      { step: 3, sequence_version_id: v2.body.id },
    ]);
    const v3 = await call('POST', `/v1/sequences/${seq.body.id}/versions`, {
      graph: {
        nodes: [mail('x', 'x, rewritten'), mail('a'), mail('b'), mail('c'), end],
        edges: chain(['x', 'a', 'b', 'c']),
      },
    });
    expect(v3.status).toBe(201);
    // c -> a: a was sent (in v1, as node 1; node 1 of v2 is x): it would resend, refused.
    const resend = await migrate(2, 3, { x: 'x', a: 'a', b: 'b', c: 'a' });
    expect(resend.status).toBe(422);
    expect(resend.body.errors).toMatchObject([
      { code: 'resend', node: 'c', field: 'mapping.c', enrollments: 1 },
    ]);
    // c -> x: x never ran (node 1 it has a touch for is v1's a): allowed, on a free attempt of number 1.
    const ok = await migrate(2, 3, { x: 'x', a: 'a', b: 'b', c: 'x' });
    expect(ok.status).toBe(201);
    expect(ok.body.perSourceNode).toEqual([{ from: 'c', to: 'x', enrollments: 1 }]);
    const [row] = await q<{ sequence_version_id: string; current_step: number; current_attempt: number }>(
      'SELECT sequence_version_id, current_step, current_attempt FROM enrollment WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ sequence_version_id: v3.body.id, current_step: 1, current_attempt: 2 });
    // The node funnel counts each touch in the version it ran in.
    const funnel = await f.repos.enrollments.nodeFunnel(seq.body.id);
    expect(funnel.map((r) => [r.version, r.node, r.sent])).toEqual([
      [1, 'a', 1],
      [2, 'b', 1],
    ]);
  });

  it("a sender that read the old version loses the race: its claim waits for the move's lock, then is fenced by the version", async () => {
    const c = await campaign(1);
    const id = c.ids[0]!;
    await advance(id, 2);
    // A sender took the node's job and read the enrollment (version 1, whose copy of step-2 is the old one).
    const stale = (await f.repos.touches.loadForSend(id))!;
    expect(stale.sequenceVersionId).toBe(c.v1);
    const plan = await planMigration(c.sequenceId, 'race');
    expect(plan.status).toBe(201);
    // The move's batch holds the enrollment's lock, moved to step-2 of version 2 (same number, same attempt) ...
    let inside!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((r) => {
      inside = r;
    });
    const released = new Promise<void>((r) => {
      release = r;
    });
    const batch = f.repos.sequenceMigrations.runBatch(
      plan.body.planId,
      10,
      async () => {
        inside();
        await released;
        return [
          {
            enrollmentId: id,
            kind: 'move',
            toVersionId: c.v2,
            toNode: 2,
            attempt: 1,
            nextTouchAt: new Date(),
            nextTouchUnfittedAt: null,
          },
        ];
      },
      { actor: 'test', reason: 'race' },
    );
    await entered;
    // ... while the sender claims the touch it rendered from version 1: the claim waits for that lock.
    // The sender's claim of step-2, carrying the version it read.
    const claimAs = (ctx: typeof stale) =>
      f.repos.touches.claimMany([
        {
          enrollmentId: id,
          step: 2,
          attempt: 1,
          idempotencyKey: touchKey(id, 2),
          email: ctx.prospect.email,
          variant: 0,
          versionId: ctx.sequenceVersionId,
        },
      ]);
    const claim = claimAs(stale);
    await waitFor('the claim to wait for the lock', async () => {
      const [w] = await q<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF e%'`,
      );
      return w!.n > 0 ? true : null;
    });
    release();
    expect((await batch).map((d) => d.kind)).toEqual(['move']);
    // Once the move commits, the claim re-reads the row: another version, so fenced; nothing was sent.
    expect(await claim).toEqual([{ kind: 'fenced' }]);
    expect(await q('SELECT 1 FROM touch WHERE enrollment_id = $1 AND step = 2', [id])).toEqual([]);
    // The sender that reads the row now renders version 2's copy, and claims it.
    const fresh = (await f.repos.touches.loadForSend(id))!;
    expect(fresh.sequenceVersionId).toBe(c.v2);
    expect(await claimAs(fresh)).toEqual([{ kind: 'claimed' }]);
  });

  it('names the version it cannot find, and needs write scope', async () => {
    const c = await campaign(1);
    const r = await call('POST', `/v1/sequences/${c.sequenceId}/migrations`, {
      from: 1,
      to: 7,
      mapping: MAP,
      reason: 'x',
    });
    expect(r.status).toBe(404);
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'to' })]);
    const readKey = await f.key('read');
    const denied = await f.app.inject({
      method: 'POST',
      url: `/v1/sequences/${c.sequenceId}/migrations`,
      headers: { authorization: `Bearer ${readKey}` },
      payload: { from: 1, to: 2, mapping: MAP, reason: 'x' },
    });
    expect(denied.statusCode).toBe(403);
  });
});
