import { createDatabase, createRepositories, type Database, type Repositories } from '@touchbase/db';
import { createRedis, TouchQueue } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix, type TestDatabase, waitFor } from '@touchbase/testing';
import { applyVersionMigration, planVersionMigration } from '@touchbase/use-cases';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScheduler } from '../src/index.js';

describe("the scheduler's tick resumes a migration a crash left applying", () => {
  let tdb: TestDatabase;
  let db: Database;
  let repos: Repositories;
  let redis: Redis;
  let worker: Redis;
  let prefix: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let touchQueue: TouchQueue;
  const logger = createLogger({ name: 'test', level: 'silent' });

  beforeAll(async () => {
    tdb = await createTestDatabase('migration_resume');
    db = createDatabase(tdb.url);
    repos = createRepositories(db);
    prefix = await createTestRedisPrefix('migration_resume');
    redis = createRedis(prefix.url, 'producer');
    worker = createRedis(prefix.url, 'worker');
    touchQueue = new TouchQueue(redis, prefix.prefix, logger);
  });
  afterAll(async () => {
    await touchQueue?.close();
    redis?.disconnect();
    worker?.disconnect();
    await prefix?.cleanup();
    await db?.close();
    await tdb?.drop();
  });

  it('moves every planned enrollment on the next reconcile', async () => {
    const step = { channel: 'email' as const, subject: 'a', body: 'b', wait: '1d' };
    const seq = await repos.sequences.create({ name: 's', steps: [step, step] });
    const v2 = await repos.sequences.addVersion(seq.id, [step, { ...step, body: 'new' }]);
    const mailbox = await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@resume.example' });
    const prospects = await repos.prospects.upsertMany(
      Array.from({ length: 30 }, (_, i) => ({ email: `r${i}@resume.example` })),
    );
    await repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId: mailbox.id,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(Date.now() + 3_600_000),
    });
    const deps = { repos, touchQueue, logger, timeScale: 1, batchSize: 7 };
    const plan = await planVersionMigration(deps, {
      sequenceId: seq.id,
      from: 1,
      to: 2,
      mapping: { 'step-1': 'step-1', 'step-2': 'step-2' },
      reason: 'resume test',
      actor: 'test',
    });
    // Applied, and the process died before moving anyone.
    const applying = await applyVersionMigration(deps, {
      sequenceId: seq.id,
      planId: plan.planId,
      actor: 'test',
    });
    expect(applying.status).toBe('applying');

    const scheduler = await buildScheduler({
      enrollments: repos.enrollments,
      touchQueue,
      connection: worker,
      producer: redis,
      prefix: prefix.prefix,
      logger,
      metrics: new Metrics({ defaultMetrics: false }),
      reconcileEveryMs: 3_600_000,
      migrations: deps,
    });
    try {
      await scheduler.runNow();
      const done = await waitFor('the migration to complete', async () => {
        const m = await repos.sequenceMigrations.get(plan.planId);
        return m?.status === 'completed' ? m : null;
      });
      expect(done.progress).toMatchObject({ total: 30, moved: 30, pending: 0 });
      const { rows } = await db.pool.query<{ v: string }>(
        'SELECT DISTINCT sequence_version_id AS v FROM enrollment WHERE sequence_id = $1',
        [seq.id],
      );
      expect(rows).toEqual([{ v: v2.id }]);
    } finally {
      await scheduler.worker.close();
      await scheduler.queue.close();
    }
  });
});
