import { randomUUID } from 'node:crypto';
import { ENROLLMENT_STATUSES, type EnrollmentStatus, stopActionOf } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/database.js';
import { type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

/**
 * The out-of-order rule is core's `stopActionOf`; the stop statement runs it in SQL
 * (`stopProspectsSql`) to stay one statement. For every status an enrollment can
 * be in, ended by an event before or after the stop's time (or not by an event),
 * the statement must do what core says: stop, restate, or keep.
 */
describe('stop statement follows core’s out-of-order rule (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;

  beforeAll(async () => {
    fixture = await repositoryFixture('stop_rule', 'sdr@stop-rule.example');
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const at = new Date('2026-01-10T00:00:00Z');
  const before = new Date('2026-01-05T00:00:00Z');
  const after = new Date('2026-01-15T00:00:00Z');
  const stops: { status: EnrollmentStatus; at: Date | null }[] = [
    { status: 'replied', at },
    { status: 'bounced', at },
    { status: 'cancelled', at: null },
  ];

  it('stops, restates or keeps each enrollment as stopActionOf decides', async () => {
    const { repos, db } = fixture;
    const cases = ENROLLMENT_STATUSES.flatMap((status) =>
      [null, before, after].flatMap((stoppedByEventAt) =>
        stops.map((stop) => ({ status, stoppedByEventAt, updatedAt: stoppedByEventAt ?? after, stop })),
      ),
    );
    const prospects = await repos.prospects.upsertMany(
      cases.map(() => ({ email: `${randomUUID()}@stop-rule.example` })),
    );
    const { enrolled } = await repos.enrollments.enroll({
      sequenceId: fixture.sequenceId,
      sequenceVersionId: fixture.versionId,
      mailboxId: fixture.mailboxId,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    const byProspect = new Map(enrolled.map((e) => [e.prospectId, e.id]));
    for (const [i, c] of cases.entries()) {
      const prospectId = prospects[i]!.id;
      const id = byProspect.get(prospectId)!;
      // The fixture puts the enrollment straight into the state under test, a jump the
      // transition trigger refuses: triggers are off for this one setup statement.
      await inTransaction(db.pool, async (client) => {
        await client.query('SET LOCAL session_replication_role = replica');
        await client.query(
          `UPDATE enrollment SET status = $2::"EnrollmentStatus", stopped_by_event_at = $3, updated_at = $4 WHERE id = $1`,
          [id, c.status, c.stoppedByEventAt, c.updatedAt],
        );
      });
      const want = stopActionOf(c, c.stop);
      const stopped = await repos.enrollments.stopForProspect(
        db.pool,
        prospectId,
        c.stop.status,
        'rule-test',
        c.stop.at ?? undefined,
      );
      const { rows } = await db.pool.query<{ status: EnrollmentStatus }>(
        'SELECT status::text AS status FROM enrollment WHERE id = $1',
        [id],
      );
      const got =
        stopped.length === 1
          ? 'stop'
          : rows[0]!.status === c.status && c.status !== c.stop.status
            ? 'keep'
            : 'restate';
      const label = `${c.status} ended ${c.stoppedByEventAt?.toISOString() ?? 'by no event'}, stop ${c.stop.status}`;
      if (c.status === c.stop.status && want === 'keep') expect(stopped, label).toEqual([]);
      else expect({ label, action: got }).toEqual({ label, action: want });
    }
  });
});
