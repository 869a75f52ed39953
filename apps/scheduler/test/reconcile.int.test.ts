import { createDatabase, createRepositories, type Database, type Repositories } from '@touchbase/db';
import { createRedis, TouchQueue } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix, type TestDatabase } from '@touchbase/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../src/index.js';

describe('invariant 3: the reconciler rebuilds the schedule from PostgreSQL', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repos: Repositories;
  let redis: Redis;
  let prefix: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let touchQueue: TouchQueue;
  const logger = createLogger({ name: 'test', level: 'silent' });
  /** One reconciler pass over this test's database and queue, on the real clock. */
  const reconcileOnce = (metrics: Metrics, opts: { pageSize?: number; strandedAfterMs?: number } = {}) =>
    reconcile({
      enrollments: repos.enrollments,
      touchQueue,
      logger,
      metrics,
      clock: () => new Date(),
      ...opts,
    });

  beforeAll(async () => {
    tdb = await createTestDatabase('reconcile');
    db = createDatabase(tdb.url);
    repos = createRepositories(db);
    prefix = await createTestRedisPrefix('reconcile');
    redis = createRedis(prefix.url, 'producer');
    touchQueue = new TouchQueue(redis, prefix.prefix, logger);
  });
  afterAll(async () => {
    await touchQueue?.close();
    redis?.disconnect();
    await prefix?.cleanup();
    await db?.close();
    await tdb?.drop();
  });

  it('re-creates exactly the missing jobs, at their due time, and nothing for ended enrollments', async () => {
    const seq = await repos.sequences.create({
      name: 's',
      steps: [{ channel: 'email', subject: 'a', body: 'b', wait: '1d' }],
    });
    const mailbox = await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@reconcile.example' });
    const prospects = await repos.prospects.upsertMany(
      Array.from({ length: 120 }, (_, i) => ({ email: `r${i}@reconcile.example` })),
    );
    const due = new Date(Date.now() + 3_600_000);
    const { enrolled } = await repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId: mailbox.id,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => due,
    });
    // Only the first 100 got their job (as if the process died after the commit) ...
    await touchQueue.schedule(
      enrolled.slice(0, 100).map((e) => ({ enrollmentId: e.id, step: 1, dueAt: due })),
    );
    // ... and 10 enrollments ended meanwhile.
    for (const e of enrolled.slice(110)) await repos.enrollments.stop(e.id, 'cancelled', 'manual');

    const metrics = new Metrics({ defaultMetrics: false });
    const first = await reconcileOnce(metrics, { pageSize: 7 });
    expect(first).toEqual({ checked: 110, repaired: 10, stranded: 0, reactivations: 0 });
    const keys = enrolled.slice(0, 110).map((e) => `${e.id}-1`);
    expect((await touchQueue.existing(keys)).size).toBe(110);
    expect((await touchQueue.existing(enrolled.slice(110).map((e) => `${e.id}-1`))).size).toBe(0);
    const job = await touchQueue.job(`${enrolled[105]!.id}-1`);
    expect(job!.timestamp + job!.opts.delay!).toBeGreaterThanOrEqual(due.getTime() - 1000);

    // Redis loses everything: all of it comes back, once.
    await prefix.cleanup();
    expect(await reconcileOnce(metrics)).toEqual({
      checked: 110,
      repaired: 110,
      stranded: 0,
      reactivations: 0,
    });
    expect(await reconcileOnce(metrics)).toEqual({
      checked: 110,
      repaired: 0,
      stranded: 0,
      reactivations: 0,
    });
  });

  it('gives a touch left in doubt its job back once its enrollment has ended, so the sender settles it', async () => {
    const seq = await repos.sequences.create({
      name: 'stranded',
      steps: [{ channel: 'email', subject: 'a', body: 'b', wait: '1d' }],
    });
    const mailbox = await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@stranded.example' });
    const prospects = await repos.prospects.upsertMany(
      ['a', 'b', 'c'].map((x) => ({ email: `${x}@stranded.example` })),
    );
    const { enrolled } = await repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId: mailbox.id,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    const [ended, recent, live] = enrolled.map((e) => e.id) as [string, string, string];
    // Three touches handed to the provider whose record never came (the database
    // went away), and whose jobs are gone (a reply's cancel removed them).
    for (const id of [ended, recent, live]) {
      const claim = await repos.touches.claim(id, 1, `${id}-1`, `${id}@stranded.example`);
      expect(claim.kind).toBe('claimed');
    }
    await db.pool.query(
      `UPDATE touch SET created_at = now() - interval '5 minutes' WHERE enrollment_id = ANY($1::uuid[])`,
      [[ended, live]],
    );
    // Two of the enrollments end; one of them was claimed just now.
    await repos.enrollments.stop(ended, 'replied', 'reply');
    await repos.enrollments.stop(recent, 'replied', 'reply');

    const metrics = new Metrics({ defaultMetrics: false });
    const run = () => reconcileOnce(metrics, { strandedAfterMs: 60_000 });
    // The live enrollment gets its job from the active pass; the old stranded touch
    // gets its own, due now; the one claimed a moment ago is left to its sender.
    const before = Date.now();
    expect(await run()).toMatchObject({ repaired: 1, stranded: 1 });
    expect(await touchQueue.existing([`${ended}-1`, `${recent}-1`, `${live}-1`])).toEqual(
      new Set([`${ended}-1`, `${live}-1`]),
    );
    const job = await touchQueue.job(`${ended}-1`);
    expect(job!.timestamp).toBeGreaterThanOrEqual(before);
    expect(job!.opts.delay ?? 0).toBe(0);
    // Its job exists now: the next pass adds nothing.
    expect(await run()).toMatchObject({ repaired: 0, stranded: 0, reactivations: 0 });
  });
});
