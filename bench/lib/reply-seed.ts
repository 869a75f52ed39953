import { randomUUID } from 'node:crypto';
import { createDatabase, createRepositories, type Database, type Repositories } from '@touchbase/db';
import { standardWebhookHeaders } from '@touchbase/providers';
import { createRedis, TouchQueue } from '@touchbase/queues';
import { createLogger } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix } from '@touchbase/testing';
import { startPrivateRedis } from '../../test/support/private-redis.js';

/**
 * `count` active enrollments in PostgreSQL (one mailbox, a one-step sequence, a
 * prospect each at `bench-<n>@<domain>`), each with its delayed job in Redis, as a
 * running campaign has them; analysed, as a running database is. @returns the
 * enrollment ids in id order and the pending jobs Redis holds.
 */
export async function seedPendingEnrollments(
  db: Database,
  repos: Repositories,
  touchQueue: TouchQueue,
  count: number,
  domain: string,
): Promise<{ enrollments: string[]; pendingJobs: number }> {
  const mailbox = await repos.mailboxes.create({ provider: 'sandbox', address: `sdr@${domain}` });
  const sequence = await repos.sequences.create({
    name: 'bench',
    steps: [{ channel: 'email', subject: 'Hello', body: 'Touch', wait: '3d' }],
  });
  await db.pool.query(
    `INSERT INTO prospect (id, email) SELECT gen_random_uuid(), 'bench-' || g || '@' || $2 FROM generate_series(1, $1) g`,
    [count, domain],
  );
  await db.pool.query(
    `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step, next_touch_at)
     SELECT gen_random_uuid(), id, $1, $2, $3, 'active', 1, now() + interval '1 day' FROM prospect`,
    [sequence.id, sequence.version.id, mailbox.id],
  );
  // A running database has planner statistics; a table filled a moment ago has none.
  await db.pool.query('ANALYZE');
  const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM enrollment ORDER BY id');
  const enrollments = rows.map((r) => r.id);
  const due = new Date(Date.now() + 86_400_000);
  for (let i = 0; i < enrollments.length; i += 2_000) {
    await touchQueue.schedule(
      enrollments.slice(i, i + 2_000).map((id) => ({ enrollmentId: id, step: 1, dueAt: due })),
    );
  }
  return { enrollments, pendingJobs: await touchQueue.queue.getDelayedCount() };
}

/** A signed `reply` webhook of the generic HTTP provider naming `enrollmentId` (a decline), for undici's `request`. */
export function replyWebhook(secret: string, enrollmentId: string) {
  const raw = JSON.stringify({
    type: 'reply',
    occurred_at: new Date().toISOString(),
    enrollment_id: enrollmentId,
    text: 'No thanks, not interested.',
  });
  return {
    method: 'POST' as const,
    path: '/webhooks/http',
    headers: {
      'content-type': 'application/json',
      ...standardWebhookHeaders(secret, `msg_${randomUUID()}`, raw),
    },
    body: raw,
  };
}

/**
 * What a replies bench runs on: a private redis-server, a database of its own with
 * the migrations, a Redis key prefix, a pool of `poolSize` and the touch queue's
 * producer. `close` takes it all down (after the bench's own processes).
 */
export async function startReplyRig(label: string, poolSize: number) {
  const privateRedis = await startPrivateRedis();
  const tdb = await createTestDatabase(label.replaceAll('-', '_'));
  const redisPrefix = await createTestRedisPrefix(label, privateRedis.url);
  const db = createDatabase(tdb.url, { poolSize });
  const repos = createRepositories(db);
  const redis = createRedis(redisPrefix.url, 'producer');
  const touchQueue = new TouchQueue(
    redis,
    redisPrefix.prefix,
    createLogger({ name: 'bench', level: 'silent' }),
  );
  return {
    privateRedis,
    tdb,
    redisPrefix,
    db,
    repos,
    touchQueue,
    async close() {
      await touchQueue.close();
      redis.disconnect();
      await db.close();
      await redisPrefix.cleanup();
      await tdb.drop();
      await privateRedis.stop();
    },
  };
}
