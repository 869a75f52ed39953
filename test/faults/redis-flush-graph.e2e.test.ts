import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type PrivateRedis, startPrivateRedis } from '../support/private-redis.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  allExhausted,
  enrollTwoChannel,
  expectOneBranchEach,
  TWO_CHANNEL_ENV,
} from './graph-fault-support.js';

/**
 * Invariant 3 on a branching, two-channel sequence: Redis is killed and comes back empty (the
 * schedule, the LinkedIn and mailbox buckets) while enrollments wait on both
 * branches; the reconciler rebuilds the jobs from PostgreSQL (the node each
 * enrollment sits at), the buckets are re-seeded from the touches recorded. Every
 * enrollment still takes exactly one branch, no action or e-mail goes out twice.
 */
describe('Redis loses its data while a branching sequence runs', () => {
  let sys: TestSystem;
  // A redis-server of the test's own, killed below (never the shared one).
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    sys = await startTestSystem(
      'redisflush_graph',
      { SCHEDULER_RECONCILE_INTERVAL_MS: '1000', ...TWO_CHANNEL_ENV },
      { redisUrl: redis.url },
    );
  });
  afterAll(async () => {
    await sys?.stop();
    await redis?.stop();
  });

  it('every enrollment takes one branch and ends; nothing twice', async () => {
    const N = 60;
    const { sequenceId, enrollmentIds } = await enrollTwoChannel(sys, 'flush', N);
    // Flush once every invitation is out: enrollments wait for acceptances, messages and e-mails.
    await waitFor('every invitation', () => sys.sandbox.linkedin.actions().length >= N, {
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    // kill -9 of the Redis, back at once without persistence: the schedule and every bucket are gone.
    const deleted = await redis.killAndRestartEmpty();
    await allExhausted(sys, sequenceId, N, 60_000);
    const branches = await expectOneBranchEach(sys, sequenceId, enrollmentIds);
    console.log(JSON.stringify({ test: 'redis-flush-graph', keysDeleted: deleted, ...branches }));
  }, 120_000);
});
