import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { createTestDatabase, type TestDatabase } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, createRepositories, type Database, type Repositories } from '../src/index.js';

describe('repositories hold the invariants (real PostgreSQL)', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repos: Repositories;
  let sequenceId: string;
  let versionId: string;
  let mailboxId: string;

  beforeAll(async () => {
    tdb = await createTestDatabase('invariants');
    db = createDatabase(tdb.url, { poolSize: 10 });
    repos = createRepositories(db);
    const seq = await repos.sequences.create({
      name: 's',
      steps: [
        { channel: 'email', subject: 'a', body: 'b', wait: '1d' },
        { channel: 'email', subject: 'a', body: 'c', wait: '1d' },
      ],
    });
    sequenceId = seq.id;
    versionId = seq.version.id;
    mailboxId = (await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@inv.example' })).id;
  });
  afterAll(async () => {
    await db?.close();
    await tdb?.drop();
  });

  async function enrollOne(email: string) {
    const [p] = await repos.prospects.upsertMany([{ email }]);
    const r = await repos.enrollments.enroll({
      sequenceId,
      sequenceVersionId: versionId,
      mailboxId,
      prospectIds: [p!.id],
      firstTouchAt: () => new Date(),
    });
    return { prospect: p!, enrollmentId: r.enrolled[0]!.id };
  }

  it('invariant 1: a claim after the reply is committed is fenced; a claim that won holds the row until it commits', async () => {
    const { prospect, enrollmentId } = await enrollOne('fence@inv.example');
    await repos.enrollments.stopForProspect(db.pool, prospect.id, 'replied', 'reply');
    expect((await repos.touches.claim(enrollmentId, 1, touchKey(enrollmentId, 1), prospect.email)).kind).toBe(
      'fenced',
    );

    // The other order: a sender's claim in flight blocks ingest's UPDATE until it commits.
    const second = await enrollOne('fence2@inv.example');
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `UPDATE enrollment SET updated_at = now() WHERE id = $1 AND status = 'active' AND current_step = 1`,
        [second.enrollmentId],
      );
      let stopped = false;
      const stop = repos.enrollments
        .stopForProspect(db.pool, second.prospect.id, 'replied', 'reply')
        .then((r) => {
          stopped = true;
          return r;
        });
      await new Promise((r) => setTimeout(r, 200));
      expect(stopped).toBe(false);
      await client.query('COMMIT');
      expect((await stop).map((s) => s.id)).toEqual([second.enrollmentId]);
    } finally {
      client.release();
    }
  });

  it('invariant 2: one touch row per (enrollment, step); a second claim finds it in doubt, after the send it is fenced', async () => {
    const { prospect, enrollmentId } = await enrollOne('once@inv.example');
    const key = touchKey(enrollmentId, 1);
    const [a, b] = await Promise.all([
      repos.touches.claim(enrollmentId, 1, key, prospect.email),
      repos.touches.claim(enrollmentId, 1, key, prospect.email),
    ]);
    expect([a.kind, b.kind].sort()).toEqual(['claimed', 'in_doubt']);
    await repos.touches.recordSent({
      enrollmentId,
      step: 1,
      messageId: 'm1',
      conversationId: 'c1',
      nextTouchAt: new Date(),
    });
    expect((await repos.touches.claim(enrollmentId, 1, key, prospect.email)).kind).toBe('fenced');
    await expect(
      db.pool.query(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key) VALUES ($1, $2, 1, 'sending', $3)`,
        [randomUUID(), enrollmentId, `${key}-x`],
      ),
    ).rejects.toThrow(/unique/);
  });

  it('invariant 5: an address suppressed after enrollment is never claimed', async () => {
    const { prospect, enrollmentId } = await enrollOne('later-suppressed@inv.example');
    await repos.suppressions.add('email', prospect.email, 'manual');
    expect((await repos.touches.claim(enrollmentId, 1, touchKey(enrollmentId, 1), prospect.email)).kind).toBe(
      'suppressed',
    );
    expect((await repos.enrollments.get(enrollmentId)).status).toBe('cancelled');
    const { prospect: p2, enrollmentId: e2 } = await enrollOne('someone@suppressed-domain.example');
    await repos.suppressions.add('domain', 'suppressed-domain.example', 'manual');
    expect((await repos.touches.claim(e2, 1, touchKey(e2, 1), p2.email)).kind).toBe('suppressed');
  });

  it('invariant 6: a recorded event cannot be changed', async () => {
    const r = await repos.events.recordAndApply({
      source: 'test',
      externalId: 'evt-immutable',
      type: 'opened',
      occurredAt: new Date(),
      channel: 'email',
      data: {},
    });
    await expect(db.pool.query(`UPDATE event SET type = 'reply' WHERE id = $1`, [r.eventId])).rejects.toThrow(
      /immutable/,
    );
    await expect(db.pool.query(`UPDATE event SET payload = '{}' WHERE id = $1`, [r.eventId])).rejects.toThrow(
      /immutable/,
    );
    const again = await repos.events.recordAndApply({
      source: 'test',
      externalId: 'evt-immutable',
      type: 'reply',
      occurredAt: new Date(),
      channel: 'email',
      data: {},
    });
    expect(again.duplicate).toBe(true);
    const { rows } = await db.pool.query('SELECT type FROM event WHERE id = $1', [r.eventId]);
    expect(rows[0].type).toBe('opened');
  });

  it('invariant 7: a sequence version cannot be changed; a new version leaves running enrollments on theirs', async () => {
    await expect(
      db.pool.query(`UPDATE sequence_version SET steps = '[]' WHERE id = $1`, [versionId]),
    ).rejects.toThrow(/immutable/);
    const { enrollmentId } = await enrollOne('versioned@inv.example');
    const v2 = await repos.sequences.addVersion(sequenceId, [
      { channel: 'email', subject: 'new', body: 'new', wait: '1d' },
    ]);
    expect(v2.version).toBe(2);
    expect((await repos.enrollments.get(enrollmentId)).sequenceVersionId).toBe(versionId);
    expect((await repos.sequences.version(versionId)).steps).toHaveLength(2);
  });
});
