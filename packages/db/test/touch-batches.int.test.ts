import { touchKey } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimInput, Database, Repositories } from '../src/index.js';
import { type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

/**
 * The sender claims and records the touches it took together in one statement each.
 * Every touch in a batch must end exactly as it would alone: fenced, suppressed,
 * claimed, in doubt or settled, and the same touch twice in a batch is claimed once.
 */
describe('batched claims and records (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let repos: Repositories;
  let sequenceId: string;
  let versionId: string;
  let mailboxId: string;

  beforeAll(async () => {
    fixture = await repositoryFixture('touch_batches', 'sdr@batch.example');
    ({ db, repos, sequenceId, versionId, mailboxId } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  async function enroll(emails: string[]) {
    const prospects = await repos.prospects.upsertMany(emails.map((email) => ({ email })));
    const r = await repos.enrollments.enroll({
      sequenceId,
      sequenceVersionId: versionId,
      mailboxId,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    return r.enrolled.map((e, i) => ({ enrollmentId: e.id, prospect: prospects[i]! }));
  }
  const input = (e: { enrollmentId: string; prospect: { email: string } }, step = 1): ClaimInput => ({
    enrollmentId: e.enrollmentId,
    step,
    attempt: 1,
    idempotencyKey: touchKey(e.enrollmentId, step),
    email: e.prospect.email,
    variant: 0,
  });

  it('gives each touch of a mixed batch the answer it would get alone', async () => {
    const [claimed, replied, suppressed, inDoubt, settled, wrongStep] = await enroll([
      'claimed@batch.example',
      'replied@batch.example',
      'suppressed@blocked.example',
      'doubt@batch.example',
      'settled@batch.example',
      'wrongstep@batch.example',
    ]);
    await repos.enrollments.stopForProspect(db.pool, replied!.prospect.id, 'replied', 'reply');
    await repos.suppressions.add('domain', 'blocked.example', 'test');
    expect((await repos.touches.claim(...claimArgs(input(inDoubt!)))).kind).toBe('claimed');
    expect((await repos.touches.claim(...claimArgs(input(settled!)))).kind).toBe('claimed');
    // Settled without advancing: the enrollment stays on step 1 (as after a soft-bounce race).
    await db.pool.query(`UPDATE touch SET status = 'sent' WHERE enrollment_id = $1`, [settled!.enrollmentId]);

    const claims = await repos.touches.claimMany([
      input(claimed!),
      input(replied!),
      input(suppressed!),
      input(inDoubt!),
      input(settled!),
      input(wrongStep!, 2),
      input(claimed!),
    ]);
    expect(claims).toEqual([
      { kind: 'claimed' },
      { kind: 'fenced' },
      { kind: 'suppressed' },
      { kind: 'in_doubt' },
      { kind: 'settled', status: 'sent' },
      { kind: 'fenced' },
      // The same touch again in the same batch finds the first's claim.
      { kind: 'in_doubt' },
    ]);
    const { rows } = await db.pool.query<{ status: string; stop_reason: string | null }>(
      'SELECT status::text, stop_reason FROM enrollment WHERE id = $1',
      [suppressed!.enrollmentId],
    );
    expect(rows[0]).toEqual({ status: 'cancelled', stop_reason: 'suppressed' });
    const touches = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM touch WHERE enrollment_id = $1',
      [claimed!.enrollmentId],
    );
    expect(touches.rows[0]!.n).toBe(1);
  });

  it('tells apart two touches of one enrollment in a batch: a stale step is fenced, the current one claimed', async () => {
    const [e] = await enroll(['twosteps@batch.example']);
    expect(await repos.touches.claimMany([input(e!)])).toEqual([{ kind: 'claimed' }]);
    await repos.touches.recordSentMany([
      {
        enrollmentId: e!.enrollmentId,
        step: 1,
        attempt: 1,
        messageId: '<m1>',
        conversationId: 'c',
        nextTouchAt: new Date(),
      },
    ]);
    // A stale job of step 1 (say, retried late) and step 2's job are taken together.
    expect(await repos.touches.claimMany([input(e!, 1), input(e!, 2)])).toEqual([
      { kind: 'fenced' },
      { kind: 'claimed' },
    ]);
    const { rows } = await db.pool.query<{ step: number; status: string }>(
      'SELECT step, status::text FROM touch WHERE enrollment_id = $1 ORDER BY step',
      [e!.enrollmentId],
    );
    expect(rows).toEqual([
      { step: 1, status: 'sent' },
      { step: 2, status: 'sending' },
    ]);
  });

  it('a claim waits for a reply in flight on its enrollment, then finds it ended (the fence locks, it does not write)', async () => {
    const [e] = await enroll(['inflight@batch.example']);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await repos.enrollments.stopForProspect(client, e!.prospect.id, 'replied', 'reply');
      let settled = false;
      const claim = repos.touches.claimMany([input(e!)]).finally(() => {
        settled = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      await client.query('COMMIT');
      expect(await claim).toEqual([{ kind: 'fenced' }]);
    } finally {
      client.release();
    }
    const { rows } = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM touch WHERE enrollment_id = $1',
      [e!.enrollmentId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('records a batch: each enrollment advances only if still active at that step', async () => {
    const [a, b] = await enroll(['rec-a@batch.example', 'rec-b@batch.example']);
    expect(await repos.touches.claimMany([input(a!), input(b!)])).toEqual([
      { kind: 'claimed' },
      { kind: 'claimed' },
    ]);
    // b's prospect replies while the provider is being called.
    await repos.enrollments.stopForProspect(db.pool, b!.prospect.id, 'replied', 'reply');
    const next = new Date(Date.now() + 86_400_000);
    const advanced = await repos.touches.recordSentMany(
      [a!, b!].map((e) => ({
        enrollmentId: e.enrollmentId,
        step: 1,
        attempt: 1,
        messageId: `<${e.enrollmentId}@m>`,
        conversationId: `c-${e.enrollmentId}`,
        nextTouchAt: next,
      })),
    );
    expect(advanced).toEqual([true, false]);
    const { rows } = await db.pool.query<{ id: string; status: string; current_step: number; touch: string }>(
      `SELECT e.id, e.status::text, e.current_step, t.status::text AS touch FROM enrollment e JOIN touch t ON t.enrollment_id = e.id
       WHERE e.id = ANY($1::uuid[])`,
      [[a!.enrollmentId, b!.enrollmentId]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(a!.enrollmentId)).toMatchObject({ status: 'active', current_step: 2, touch: 'sent' });
    // The touch went out, so it is recorded; the reply keeps the enrollment ended.
    expect(byId.get(b!.enrollmentId)).toMatchObject({ status: 'replied', current_step: 1, touch: 'sent' });
  });

  it('counts each touch of a recorded batch once for its own domain (the statement-level rollup trigger)', async () => {
    const other = (await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@other-domain.example' }))
      .id;
    const here = await enroll(['roll-a@batch.example', 'roll-b@batch.example']);
    const [p] = await repos.prospects.upsertMany([{ email: 'roll-c@batch.example' }]);
    const there = await repos.enrollments.enroll({
      sequenceId,
      sequenceVersionId: versionId,
      mailboxId: other,
      prospectIds: [p!.id],
      firstTouchAt: () => new Date(),
    });
    const all = [...here, { enrollmentId: there.enrolled[0]!.id, prospect: p! }];
    await db.pool.query('DELETE FROM domain_stat_delta');
    await repos.touches.claimMany(all.map((e) => input(e)));
    const record = () =>
      repos.touches.recordSentMany(
        all.map((e) => ({
          enrollmentId: e.enrollmentId,
          step: 1,
          attempt: 1,
          messageId: `<${e.enrollmentId}@r>`,
          conversationId: 'c',
          nextTouchAt: new Date(),
        })),
      );
    await record();
    // Recorded again (a retried batch): the touches are already sent, nothing more counts.
    await record();
    const { rows } = await db.pool.query<{ domain: string; sends: number }>(
      `SELECT d.domain, sum(x.sends)::int AS sends FROM domain_stat_delta x JOIN sending_domain d ON d.id = x.domain_id
       GROUP BY d.domain ORDER BY d.domain`,
    );
    expect(rows).toEqual([
      { domain: 'batch.example', sends: 2 },
      { domain: 'other-domain.example', sends: 1 },
    ]);
  });

  it('loads many send contexts in one read, skipping unknown ids', async () => {
    const [a, b] = await enroll(['load-a@batch.example', 'load-b@batch.example']);
    const missing = '00000000-0000-4000-8000-000000000000';
    const found = await repos.touches.loadManyForSend([a!.enrollmentId, missing, b!.enrollmentId]);
    expect([...found.keys()].sort()).toEqual([a!.enrollmentId, b!.enrollmentId].sort());
    expect(found.get(a!.enrollmentId)!.prospect.email).toBe('load-a@batch.example');
  });
});

function claimArgs(c: ClaimInput): [string, number, string, string, number, number] {
  return [c.enrollmentId, c.step, c.idempotencyKey, c.email, c.variant, c.attempt];
}
