import { randomUUID } from 'node:crypto';
import type { CanonicalEvent } from '@touchbase/core';
import { createTestDatabase, type TestDatabase } from '@touchbase/testing';
import { createDatabase, createRepositories, type Database, type Repositories } from '../../src/index.js';

/** A database of its own with a two-step sequence and one sandbox mailbox, for repository tests. */
export type RepositoryFixture = {
  tdb: TestDatabase;
  db: Database;
  repos: Repositories;
  sequenceId: string;
  versionId: string;
  mailboxId: string;
  close(): Promise<void>;
};

export async function repositoryFixture(label: string, mailboxAddress: string): Promise<RepositoryFixture> {
  const tdb = await createTestDatabase(label);
  const db = createDatabase(tdb.url, { poolSize: 10 });
  const repos = createRepositories(db);
  const seq = await repos.sequences.create({
    name: 's',
    steps: [
      { channel: 'email', subject: 'a', body: 'b', wait: '1d' },
      { channel: 'email', subject: 'a', body: 'c', wait: '1d' },
    ],
  });
  const mailboxId = (await repos.mailboxes.create({ provider: 'sandbox', address: mailboxAddress })).id;
  return {
    tdb,
    db,
    repos,
    sequenceId: seq.id,
    versionId: seq.version.id,
    mailboxId,
    async close() {
      await db.close();
      await tdb.drop();
    },
  };
}

/** One prospect enrolled in the fixture's sequence, its first touch due now. */
export async function enrollOne(fixture: RepositoryFixture, email: string) {
  const { repos, sequenceId, versionId, mailboxId } = fixture;
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

/** An event of `type` with a fresh external id, on e-mail, occurred now; `over` sets the rest. */
export const testEvent = (over: Partial<CanonicalEvent> & Pick<CanonicalEvent, 'type'>): CanonicalEvent => ({
  source: 'http',
  externalId: `evt_${randomUUID()}`,
  occurredAt: new Date(),
  channel: 'email',
  data: {},
  ...over,
});
