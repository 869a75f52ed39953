import { waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startTestSystem, type TestSystem } from '../support/test-system.js';

const ENROLLMENTS = 300;
const STEPS = 3;

/** Deletes every key of the prefix, as a Redis that restarted empty would have lost them. */
async function flushPrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

describe('Redis loses every key mid-run (invariant 3: Postgres is the truth)', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    // The reconciler runs every second so the rebuild is quick; the rest as `touchbase start`.
    sys = await startTestSystem('redisflush', { SCHEDULER_RECONCILE_INTERVAL_MS: '1000' });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('the reconciler rebuilds the schedule: no touch lost, none sent twice', async () => {
    const emails = Array.from({ length: ENROLLMENTS }, (_, i) => `p${i}@flush.example`);
    // 3 days between touches, 0.9 s here: the flush lands while most enrollments wait.
    const ids = await seed(sys, { steps: STEPS, prospects: emails, wait: '3d' });
    const res = await sys.api('POST', '/v1/enrollments', {
      sequenceId: ids.sequenceId,
      mailboxId: ids.mailboxId,
      prospectIds: ids.prospectIds,
    });
    expect(res.body.enrolled).toHaveLength(ENROLLMENTS);

    await waitFor('a third of the touches', () => sys.sandbox.deliveries().length >= ENROLLMENTS, {
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    const atFlush = sys.sandbox.deliveries().length;
    const deleted = await flushPrefix(sys.env.REDIS_URL!, sys.env.REDIS_PREFIX!);
    const pendingAfterFlush = await sys.rt.touchQueue.queue.getJobCounts('delayed', 'waiting', 'active');

    const stats = await waitFor(
      'every enrollment to end',
      async () => {
        const s = (await sys.api('GET', `/v1/stats?sequenceId=${ids.sequenceId}`)).body;
        return (s.byStatus.exhausted ?? 0) === ENROLLMENTS ? s : null;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );

    const deliveries = sys.sandbox.deliveries();
    const keys = deliveries.map((d) => `${d.enrollmentId}-${d.step}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(deliveries).toHaveLength(ENROLLMENTS * STEPS);
    expect(stats.sentByStep).toEqual({ '1': ENROLLMENTS, '2': ENROLLMENTS, '3': ENROLLMENTS });
    const repaired = (await sys.rt.metrics.registry.getSingleMetric('touchbase_scheduler_reconcile_repairs_total')?.get())
      ?.values[0]?.value;
    expect(repaired ?? 0).toBeGreaterThan(0);
    console.log(
      JSON.stringify({
        test: 'redis-flush',
        deliveriesAtFlush: atFlush,
        keysDeleted: deleted,
        pendingRightAfterFlush: pendingAfterFlush,
        jobsRecreatedByReconciler: repaired,
        deliveries: deliveries.length,
        providerRequests: sys.sandbox.stats().requests,
      }),
    );
  }, 100_000);
});
