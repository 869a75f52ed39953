import { touchKey } from '@touchbase/core';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Repositories } from '../src/index.js';
import {
  enrollOne as enrollProspect,
  type RepositoryFixture,
  repositoryFixture,
} from './support/repository-fixture.js';

describe('repositories hold the invariants of suppressions, events and versions (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let repos: Repositories;
  let sequenceId: string;
  let versionId: string;

  beforeAll(async () => {
    fixture = await repositoryFixture('invariants_records', 'sdr@inv.example');
    ({ db, repos, sequenceId, versionId } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  const enrollOne = (email: string) => enrollProspect(fixture, email);

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
    const r = await recordAndApplyEvent(repos.events, {
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
    const again = await recordAndApplyEvent(repos.events, {
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

  it('invariant 6: an event without effect is recorded once, applied, on the prospect its enrollment or address names', async () => {
    const { prospect, enrollmentId } = await enrollOne('opened@inv.example');
    const opened = (externalId: string, extra: object) =>
      recordAndApplyEvent(repos.events, {
        source: 'test',
        externalId,
        type: 'opened',
        occurredAt: new Date(),
        channel: 'email',
        data: {},
        ...extra,
      });
    const row = async (id: string | null) =>
      (
        await db.pool.query(
          'SELECT outcome, prospect_id, enrollment_id, applied_at FROM event WHERE id = $1',
          [id],
        )
      ).rows[0];

    const first = await opened('evt-opened-1', { enrollmentId });
    expect(first).toMatchObject({ duplicate: false, outcome: 'no_effect', prospectId: prospect.id });
    expect(await row(first.eventId)).toMatchObject({
      outcome: 'no_effect',
      prospect_id: prospect.id,
      enrollment_id: enrollmentId,
    });
    expect((await row(first.eventId)).applied_at).not.toBeNull();
    expect(await opened('evt-opened-1', { enrollmentId })).toMatchObject({
      duplicate: true,
      eventId: null,
    });

    // The enrollment id alone is not proof: with another address it is not this prospect's.
    const other = await opened('evt-opened-2', { enrollmentId, email: 'someone-else@inv.example' });
    expect(other).toMatchObject({ duplicate: false, outcome: 'unknown_prospect', prospectId: null });
    expect(await row(other.eventId)).toMatchObject({ prospect_id: null, enrollment_id: null });
    // Named by address only, it is found by the address.
    const byEmail = await opened('evt-opened-3', { email: 'Opened@inv.example' });
    expect(byEmail).toMatchObject({ outcome: 'no_effect', prospectId: prospect.id });
    expect(await row(byEmail.eventId)).toMatchObject({ prospect_id: prospect.id, enrollment_id: null });
    expect(await opened('evt-opened-3', { email: 'opened@inv.example' })).toMatchObject({ duplicate: true });
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
