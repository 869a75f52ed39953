import { canTransition, ENROLLMENT_STATUSES, type EnrollmentStatus } from '@touchbase/core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/index.js';
import { type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

// The migration enrollment_transitions: the database refuses every status change core's state machine does not allow, and
// allows every one it does: the two tables are the same, pair by pair.
describe('the enrollment state machine in PostgreSQL', () => {
  let fixture: RepositoryFixture;
  let db: Database;

  beforeAll(async () => {
    fixture = await repositoryFixture('transitions', 'sdr@transitions.example');
    ({ db } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** An enrollment created in `status` (an INSERT, which is no transition). */
  async function enrollmentIn(status: EnrollmentStatus): Promise<string> {
    const { rows } = await db.pool.query<{ id: string }>(
      `WITH p AS (INSERT INTO prospect (id, email) VALUES (gen_random_uuid(), gen_random_uuid() || '@transitions.example') RETURNING id)
       INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status)
       SELECT gen_random_uuid(), p.id, $1, $2, $3, $4::"EnrollmentStatus" FROM p RETURNING id`,
      [fixture.sequenceId, fixture.versionId, fixture.mailboxId, status],
    );
    return rows[0]!.id;
  }

  it('holds the same table as core, for every pair of statuses', async () => {
    const { rows } = await db.pool.query<{ pair: string }>(
      'SELECT unnest(touchbase_enrollment_transitions()) AS pair',
    );
    const inDatabase = new Set(rows.map((r) => r.pair));
    // No pair twice, and no pair core does not know.
    expect(inDatabase.size).toBe(rows.length);
    const inCore = new Set<string>();
    for (const from of ENROLLMENT_STATUSES) {
      for (const to of ENROLLMENT_STATUSES) {
        if (from !== to && canTransition(from, to)) inCore.add(`${from}>${to}`);
      }
    }
    expect([...inDatabase].sort()).toEqual([...inCore].sort());
  });

  it('refuses an UPDATE along a transition core forbids, naming the pair', async () => {
    const id = await enrollmentIn('exhausted');

    const refused = await db.pool.query(`UPDATE enrollment SET status = 'active' WHERE id = $1`, [id]).then(
      () => null,
      (error: pg.DatabaseError) => error,
    );

    expect(refused).toMatchObject({
      code: '23514',
      constraint: 'enrollment_status_transition',
      message: `enrollment ${id} cannot go from exhausted to active`,
    });
    const { rows } = await db.pool.query('SELECT status::text FROM enrollment WHERE id = $1', [id]);
    expect(rows[0].status).toBe('exhausted');
  });

  it('refuses the whole statement when one of its rows breaks the table', async () => {
    const ended = await enrollmentIn('failed');
    const live = await enrollmentIn('active');

    await expect(
      db.pool.query(`UPDATE enrollment SET status = 'cancelled' WHERE id = ANY($1::uuid[])`, [[ended, live]]),
    ).rejects.toMatchObject({ code: '23514' });
    const { rows } = await db.pool.query('SELECT status::text FROM enrollment WHERE id = $1', [live]);
    expect(rows[0].status).toBe('active');
  });

  it('allows an UPDATE that keeps the status, from any state', async () => {
    const id = await enrollmentIn('failed');

    const r = await db.pool.query(
      `UPDATE enrollment SET status = 'failed', updated_at = now() WHERE id = $1`,
      [id],
    );

    expect(r.rowCount).toBe(1);
  });

  it('allows every transition core allows', async () => {
    for (const from of ENROLLMENT_STATUSES) {
      for (const to of ENROLLMENT_STATUSES) {
        if (from === to || !canTransition(from, to)) continue;
        const id = await enrollmentIn(from);
        const r = await db.pool.query('UPDATE enrollment SET status = $2::"EnrollmentStatus" WHERE id = $1', [
          id,
          to,
        ]);
        expect(r.rowCount, `${from} -> ${to}`).toBe(1);
      }
    }
  });
});
