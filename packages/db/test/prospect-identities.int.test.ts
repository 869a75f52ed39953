import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

describe('prospect identities (real PostgreSQL)', () => {
  let f: RepositoryFixture;

  beforeAll(async () => {
    f = await repositoryFixture('identities', 'sdr@identities.example');
  });
  afterAll(async () => {
    await f?.close();
  });

  const identitiesOf = async (prospectId: string) =>
    (
      await f.db.pool.query<{ kind: string; value: string }>(
        'SELECT kind, value FROM prospect_identity WHERE prospect_id = $1 ORDER BY kind, value',
        [prospectId],
      )
    ).rows;

  it('imports of one person at once make one prospect (each identity locked)', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        f.repos.prospects.upsertMany([
          { email: `same-${i}@race.example`, linkedinUrl: 'https://www.linkedin.com/in/race-person/' },
        ]),
      ),
    );
    const ids = new Set(rounds.map((r) => r[0]!.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect((await identitiesOf(id!)).filter((i) => i.kind === 'email')).toHaveLength(8);
  });

  it('records a prospect own address as an identity whoever writes the row, and keeps the old one on a change', async () => {
    await f.db.pool.query(
      `INSERT INTO prospect (id, email) VALUES ('00000000-0000-4000-8000-00000000abcd', 'raw@insert.example')`,
    );
    expect(await identitiesOf('00000000-0000-4000-8000-00000000abcd')).toEqual([
      { kind: 'email', value: 'raw@insert.example' },
    ]);
    await f.repos.events.transaction(async (tx) => {
      expect(await tx.emailTaken('raw@insert.example', '00000000-0000-4000-8000-00000000abcd')).toBe(false);
      await tx.changeEmail('00000000-0000-4000-8000-00000000abcd', 'new@insert.example');
    });
    expect(await identitiesOf('00000000-0000-4000-8000-00000000abcd')).toEqual([
      { kind: 'email', value: 'new@insert.example' },
      { kind: 'email', value: 'raw@insert.example' },
    ]);
    const byOld = await f.repos.events.resolveTarget({
      source: 'http',
      externalId: 'x',
      type: 'reply',
      occurredAt: new Date(),
      channel: 'email',
      email: 'RAW@insert.example',
      data: {},
    } as never);
    expect(byOld).toEqual({
      prospectId: '00000000-0000-4000-8000-00000000abcd',
      email: 'new@insert.example',
      enrollmentId: null,
    });
    // Another prospect's address is taken, the same person's is not.
    await f.repos.prospects.upsertMany([{ email: 'other@insert.example' }]);
    await f.repos.events.transaction(async (tx) => {
      expect(await tx.emailTaken('other@insert.example', '00000000-0000-4000-8000-00000000abcd')).toBe(true);
    });
  });

  it('a record left behind by a merge cannot be enrolled or read', async () => {
    await f.db.pool.query(
      `INSERT INTO prospect (id, email, merged_into) VALUES ('00000000-0000-4000-8000-00000000dead', 'merged-x@merged.invalid', '00000000-0000-4000-8000-00000000abcd')`,
    );
    expect(await identitiesOf('00000000-0000-4000-8000-00000000dead')).toEqual([]);
    await expect(f.repos.prospects.get('00000000-0000-4000-8000-00000000dead')).rejects.toThrow('not found');
    const r = await f.repos.enrollments.enroll({
      sequenceId: f.sequenceId,
      sequenceVersionId: f.versionId,
      mailboxId: f.mailboxId,
      prospectIds: ['00000000-0000-4000-8000-00000000dead'],
      firstTouchAt: () => new Date(),
    });
    expect(r.refused).toEqual([{ prospectId: '00000000-0000-4000-8000-00000000dead', reason: 'not_found' }]);
  });
});
