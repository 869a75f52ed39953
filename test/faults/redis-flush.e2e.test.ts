import { waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertExactlyOnce } from '../support/exactly-once.js';
import { type PrivateRedis, startPrivateRedis } from '../support/private-redis.js';
import { enrollAll, seed, startTestSystem, type TestSystem } from '../support/test-system.js';

describe('Redis loses its data mid-run (invariant 3: Postgres is the truth)', () => {
  let sys: TestSystem;
  // A redis-server of the test's own, killed and lost below (never the shared one).
  let server: PrivateRedis;
  let redis: Redis;
  beforeAll(async () => {
    server = await startPrivateRedis();
    // The reconciler runs every second so a rebuild is quick; the rest as `touchbase start`.
    sys = await startTestSystem(
      'redisflush',
      { SCHEDULER_RECONCILE_INTERVAL_MS: '1000' },
      { redisUrl: server.url },
    );
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await sys?.stop();
    await server?.stop();
  });

  async function enroll(prefix: string, n: number, steps: number, wait: string) {
    const emails = Array.from({ length: n }, (_, i) => `${prefix}${i}@flush.example`);
    const ids = await seed(sys, { steps, prospects: emails, wait });
    await enrollAll(sys, ids);
    return ids;
  }

  const exhausted = (sequenceId: string, n: number, timeoutMs: number) =>
    waitFor(
      `all ${n} enrollments of the sequence to be exhausted`,
      async () => {
        const s = (await sys.api('GET', `/v1/stats?sequenceId=${sequenceId}`)).body;
        return (s.byStatus.exhausted ?? 0) === n ? s : null;
      },
      { timeoutMs, intervalMs: 200 },
    );

  const deliveriesOf = (sequenceEnrollments: Set<string>) =>
    sys.sandbox.deliveries().filter((d) => sequenceEnrollments.has(d.enrollmentId));

  async function enrollmentIds(sequenceId: string): Promise<Set<string>> {
    const { rows } = await sys.rt.db.pool.query<{ id: string }>(
      'SELECT id FROM enrollment WHERE sequence_id = $1',
      [sequenceId],
    );
    return new Set(rows.map((r) => r.id));
  }

  it('a partial loss (job hashes left without their place in the schedule) is repaired', async () => {
    const N = 50;
    // 10 days between touches, 3 s here: every step-2 job waits while the schedule is lost.
    const ids = await enroll('orphan', N, 2, '10d');
    await waitFor('every first touch', () => sys.sandbox.deliveries().length >= N, { timeoutMs: 20_000 });
    const lost = await redis.zcard(`${sys.env.REDIS_PREFIX}:touches:delayed`);
    await redis.del(`${sys.env.REDIS_PREFIX}:touches:delayed`);
    await exhausted(ids.sequenceId, N, 40_000);
    const ds = deliveriesOf(await enrollmentIds(ids.sequenceId));
    assertExactlyOnce(ds);
    expect(ds).toHaveLength(N * 2);
    console.log(
      JSON.stringify({ test: 'redis-partial-loss', scheduledJobsLost: lost, deliveries: ds.length }),
    );
  }, 70_000);

  it('the reconciler rebuilds the schedule after a flush: no touch lost, none sent twice', async () => {
    const N = 300;
    const STEPS = 3;
    const before = sys.sandbox.deliveries().length;
    // 3 days between touches, 0.9 s here: the flush lands while most enrollments wait.
    const ids = await enroll('flush', N, STEPS, '3d');
    await waitFor('a third of the touches', () => sys.sandbox.deliveries().length - before >= N, {
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    const atFlush = sys.sandbox.deliveries().length - before;
    // kill -9 of the Redis, back at once without persistence (no AOF): every key is gone at one
    // instant and every connection drops.
    const deleted = await server.killAndRestartEmpty();
    const stats = await exhausted(ids.sequenceId, N, 40_000);

    const ds = deliveriesOf(await enrollmentIds(ids.sequenceId));
    assertExactlyOnce(ds);
    expect(ds).toHaveLength(N * STEPS);
    expect(stats.sentByStep).toEqual({ '1': N, '2': N, '3': N });
    const repaired = (
      await sys.rt.metrics.registry.getSingleMetric('touchbase_scheduler_reconcile_repairs_total')?.get()
    )?.values[0]?.value;
    expect(repaired ?? 0).toBeGreaterThan(0);
    console.log(
      JSON.stringify({
        test: 'redis-flush',
        deliveriesAtFlush: atFlush,
        keysDeleted: deleted,
        jobsRecreatedByReconcilerSoFar: repaired,
        deliveries: ds.length,
      }),
    );
  }, 80_000);
});
