import { touchKey } from '@touchbase/core';
import { createDatabase, createRepositories, type Database, type Repositories } from '@touchbase/db';
import { createRedis, TouchQueue } from '@touchbase/queues';
import { createLogger } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix, type TestDatabase } from '@touchbase/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TouchBatches } from '../src/processors/touch-batches.js';

/**
 * The stray next-step job: the sender records touch 1 (the enrollment moves to step
 * 2), a reply commits and ingest removes step 2's job, which does not exist yet,
 * then the sender adds it. The sender reads the enrollments again after adding and
 * takes back what is no longer current, so no stray is left pending.
 */
describe('the sender adds next jobs in batches and takes back strays (real PostgreSQL and Redis)', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repos: Repositories;
  let redisEnv: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let redis: Redis;
  let queue: TouchQueue;

  beforeAll(async () => {
    tdb = await createTestDatabase('sender_batches');
    db = createDatabase(tdb.url, { poolSize: 5 });
    repos = createRepositories(db);
    redisEnv = await createTestRedisPrefix('sender-batches');
    redis = createRedis(redisEnv.url, 'producer');
    queue = new TouchQueue(redis, redisEnv.prefix, createLogger({ name: 'test', level: 'silent' }));
  });
  afterAll(async () => {
    await queue?.close();
    await redis?.quit();
    await redisEnv?.cleanup();
    await db?.close();
    await tdb?.drop();
  });

  it('a reply that lands between the record and the add leaves no pending job; the others keep theirs', async () => {
    const seq = await repos.sequences.create({
      name: 's',
      steps: [
        { channel: 'email', subject: 'a', body: 'b', wait: '1d' },
        { channel: 'email', subject: 'a', body: 'c', wait: '1d' },
      ],
    });
    const mailboxId = (await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@strays.example' }))
      .id;
    const prospects = await repos.prospects.upsertMany([
      { email: 'replied@strays.example' },
      { email: 'quiet@strays.example' },
    ]);
    const { enrolled } = await repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    const [replied, quiet] = enrolled.map((e) => e.id);
    const batches = new TouchBatches(repos.touches, queue);
    const due = new Date(Date.now() + 86_400_000);
    for (const [i, e] of [replied!, quiet!].entries()) {
      expect(
        await batches.claim({
          enrollmentId: e,
          step: 1,
          attempt: 1,
          idempotencyKey: touchKey(e, 1),
          email: prospects[i]!.email,
          variant: 0,
        }),
      ).toEqual({ kind: 'claimed' });
      expect(
        await batches.recordSent({
          enrollmentId: e,
          step: 1,
          messageId: `<${e}>`,
          conversationId: 'c',
          nextTouchAt: due,
        }),
      ).toBe(1);
    }
    // The reply commits now, and ingest removes the job of the step it stopped at: none yet.
    const stopped = await repos.enrollments.stopForProspect(db.pool, prospects[0]!.id, 'replied', 'reply');
    expect(stopped).toEqual([{ id: replied, currentStep: 2, currentAttempt: 1 }]);
    await queue.cancel([{ enrollmentId: replied!, step: 2 }]);

    await Promise.all([
      batches.schedule({ enrollmentId: replied!, step: 2, dueAt: due }),
      batches.schedule({ enrollmentId: quiet!, step: 2, dueAt: due }),
    ]);
    expect(await queue.existing([touchKey(replied!, 2), touchKey(quiet!, 2)])).toEqual(
      new Set([touchKey(quiet!, 2)]),
    );
  });
});
