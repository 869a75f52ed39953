import type { EnrollmentStatus } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/index.js';
import { type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

// The migration reply_actions_reactivation: a person may be enrolled in one sequence
// several times over the years (ended ones pile up), but only once live at a time; an
// ordinary enrollment still refuses anyone ever in the sequence (only a reactivation
// enrolls them again).
describe('one live enrollment per person and sequence (partial unique index)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let prospectId: string;

  beforeAll(async () => {
    fixture = await repositoryFixture('liveunique', 'sdr@liveunique.example');
    ({ db } = fixture);
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO prospect (id, email) VALUES (gen_random_uuid(), 'once@liveunique.example') RETURNING id`,
    );
    prospectId = rows[0]!.id;
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const insert = (status: EnrollmentStatus) =>
    db.pool.query(
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5::"EnrollmentStatus")`,
      [prospectId, fixture.sequenceId, fixture.versionId, fixture.mailboxId, status],
    );

  it('takes several ended enrollments and one live one, and refuses a second live one', async () => {
    await insert('cancelled');
    await insert('replied');
    await insert('active');
    await expect(insert('paused')).rejects.toThrow(/enrollment_live_prospect_sequence_key/);
    await expect(insert('queued')).rejects.toThrow(/enrollment_live_prospect_sequence_key/);
  });

  it('an ordinary enrollment refuses a person who was ever in the sequence', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO prospect (id, email) VALUES (gen_random_uuid(), 'ended@liveunique.example') RETURNING id`,
    );
    const ended = rows[0]!.id;
    await db.pool.query(
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, 'exhausted')`,
      [ended, fixture.sequenceId, fixture.versionId, fixture.mailboxId],
    );
    const result = await fixture.repos.enrollments.enroll({
      sequenceId: fixture.sequenceId,
      sequenceVersionId: fixture.versionId,
      mailboxId: fixture.mailboxId,
      prospectIds: [ended],
      firstTouchAt: () => new Date(),
    });
    expect(result.refused).toEqual([{ prospectId: ended, reason: 'already_enrolled' }]);
  });
});
