import { waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  allExhausted,
  enrollTwoChannel,
  expectOneBranchEach,
  TWO_CHANNEL_ENV,
} from './graph-fault-support.js';

/** Deletes every key of the prefix at one instant (see redis-flush.e2e.test.ts); never FLUSHALL: the Redis is shared. */
const FLUSH_PREFIX = `
local keys = redis.call('KEYS', ARGV[1] .. ':*')
for i = 1, #keys, 1000 do redis.call('DEL', unpack(keys, i, math.min(i + 999, #keys))) end
return #keys`;

/**
 * Invariant 3 on a branching, two-channel sequence: Redis loses every key (the
 * schedule, the LinkedIn and mailbox buckets) while enrollments wait on both
 * branches; the reconciler rebuilds the jobs from PostgreSQL (the node each
 * enrollment sits at), the buckets are re-seeded from the touches recorded. Every
 * enrollment still takes exactly one branch, no action or e-mail goes out twice.
 */
describe('Redis loses its data while a branching sequence runs', () => {
  let sys: TestSystem;
  let redis: Redis;
  beforeAll(async () => {
    sys = await startTestSystem('redisflush_graph', {
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
      ...TWO_CHANNEL_ENV,
    });
    redis = new Redis(sys.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await sys?.stop();
  });

  it('every enrollment takes one branch and ends; nothing twice', async () => {
    const N = 60;
    const { sequenceId, enrollmentIds } = await enrollTwoChannel(sys, 'flush', N);
    // Flush once every invitation is out: enrollments wait for acceptances, messages and e-mails.
    await waitFor('every invitation', () => sys.sandbox.linkedin.actions().length >= N, {
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    const deleted = (await redis.eval(FLUSH_PREFIX, 0, sys.env.REDIS_PREFIX!)) as number;
    await allExhausted(sys, sequenceId, N, 60_000);
    const branches = await expectOneBranchEach(sys, sequenceId, enrollmentIds);
    console.log(JSON.stringify({ test: 'redis-flush-graph', keysDeleted: deleted, ...branches }));
  }, 120_000);
});
