import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollOne, type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

type Row = {
  type: string;
  enrollmentId: string | null;
  prospectId: string;
  payload?: object;
  outcome?: string;
};

/**
 * The domain rollup of events recorded already applied is one statement-level trigger
 * (20261128090000_event_rollup_per_statement): a whole batch is counted at once, so
 * "once per enrollment" must hold among the batch's own events as well as against
 * events recorded by earlier statements.
 */
describe('event rollup per statement: a bounce, complaint or reply counts once per enrollment', () => {
  let fixture: RepositoryFixture;

  beforeAll(async () => {
    fixture = await repositoryFixture('event_rollup_batch', 'sdr@rollup-batch.example');
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** Inserts the rows applied, in ONE statement, as the batched stop path does. */
  async function insertApplied(rows: Row[]): Promise<void> {
    await fixture.db.pool.query(
      `INSERT INTO event (id, source, external_id, type, payload, applied_at, outcome, prospect_id, enrollment_id)
       SELECT gen_random_uuid(), 'http', gen_random_uuid()::text, r.type, r.payload, now(), r.outcome, r.prospect_id, r.enrollment_id
       FROM unnest($1::text[], $2::jsonb[], $3::text[], $4::uuid[], $5::uuid[]) AS r(type, payload, outcome, prospect_id, enrollment_id)`,
      [
        rows.map((r) => r.type),
        rows.map((r) => JSON.stringify(r.payload ?? {})),
        rows.map((r) => r.outcome ?? 'applied'),
        rows.map((r) => r.prospectId),
        rows.map((r) => r.enrollmentId),
      ],
    );
  }

  async function counted(): Promise<{ replies: number; bounces: number; complaints: number }> {
    const { rows } = await fixture.db.pool.query<{ replies: number; bounces: number; complaints: number }>(
      `SELECT COALESCE(sum(replies), 0)::int AS replies, COALESCE(sum(bounces), 0)::int AS bounces,
              COALESCE(sum(complaints), 0)::int AS complaints FROM domain_stat_delta`,
    );
    return rows[0]!;
  }

  it('counts duplicates within one batch once, and nothing for a later batch of the same enrollments', async () => {
    const a = await enrollOne(fixture, `a-${randomUUID()}@rollup-batch.example`);
    const b = await enrollOne(fixture, `b-${randomUUID()}@rollup-batch.example`);
    const before = await counted();
    const of = (
      e: { enrollmentId: string; prospect: { id: string } },
      type: string,
      more: Partial<Row> = {},
    ) => ({
      type,
      enrollmentId: e.enrollmentId,
      prospectId: e.prospect.id,
      ...more,
    });

    // One statement: two replies of a, one of b; a soft bounce that did not end the
    // sequence (never counted) then a hard one of a; an open (never counted).
    await insertApplied([
      of(a, 'reply'),
      of(a, 'reply'),
      of(b, 'reply'),
      of(a, 'bounce', { payload: { bounce: { hard: false } }, outcome: 'recorded' }),
      of(a, 'bounce', { payload: { bounce: { hard: true } } }),
      of(b, 'opened', { outcome: 'recorded' }),
    ]);
    const first = await counted();
    expect(first.replies - before.replies).toBe(2);
    expect(first.bounces - before.bounces).toBe(1);

    // Later statements: the same enrollments again count nothing; a complaint of b is new.
    await insertApplied([
      of(a, 'reply'),
      of(b, 'reply'),
      of(a, 'bounce', { payload: { bounce: { hard: true } } }),
    ]);
    await insertApplied([of(b, 'complaint'), of(b, 'complaint')]);
    const later = await counted();
    expect(later.replies - before.replies).toBe(2);
    expect(later.bounces - before.bounces).toBe(1);
    expect(later.complaints - before.complaints).toBe(1);
  });

  it('an event naming no enrollment counts each time, for the domain that sent to its prospect last', async () => {
    const c = await enrollOne(fixture, `c-${randomUUID()}@rollup-batch.example`);
    // A sent touch to the prospect gives the domain (the only one here).
    await fixture.db.pool.query(
      `INSERT INTO touch (id, enrollment_id, step, status, sent_at, idempotency_key)
       VALUES (gen_random_uuid(), $1, 1, 'sent', now(), gen_random_uuid()::text)`,
      [c.enrollmentId],
    );
    const before = await counted();
    await insertApplied([
      { type: 'reply', enrollmentId: null, prospectId: c.prospect.id },
      { type: 'reply', enrollmentId: null, prospectId: c.prospect.id },
    ]);
    expect((await counted()).replies - before.replies).toBe(2);
  });
});
