import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { createTestRedisPrefix, waitFor } from '@touchbase/testing';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedis,
  createWorker,
  TOUCH_EVENTS_MAX_LEN,
  TouchQueue,
  touchJobId,
  touchKeyOfJobId,
} from '../src/index.js';

describe('touch job ids', () => {
  it('round-trip every touch key and are 22 characters plus the step and attempt', () => {
    for (const key of [
      touchKey(randomUUID(), 1),
      touchKey(randomUUID(), 12, 3),
      touchKey(randomUUID(), 2, 2),
    ]) {
      const id = touchJobId(key);
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}(\.\d+){1,2}$/);
      expect(touchKeyOfJobId(id)).toBe(key);
    }
  });

  it('refuse what is not a touch key', () => {
    expect(() => touchJobId('not-a-key')).toThrow(/not a touch key/);
    expect(() => touchJobId(randomUUID())).toThrow(/not a touch key/);
    expect(() => touchKeyOfJobId('abc.1')).toThrow(/not a touch job id/);
  });
});

/** The worker's logs are not what these tests look at. */
const silent = { warn: () => {}, error: () => {} };

describe('the touches queue on Redis', () => {
  let redis: Redis;
  let env: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let queue: TouchQueue;

  beforeAll(async () => {
    env = await createTestRedisPrefix('queues');
    redis = createRedis(env.url, 'producer');
    queue = new TouchQueue(redis, env.prefix, silent);
  });
  afterAll(async () => {
    await queue.close();
    await redis.quit();
    await env.cleanup();
  });

  it('keeps every field of a pending job within 64 bytes, the compact hash limit of a default Redis', async () => {
    // The largest pending job: a two-digit step, a resend's attempt, due in a year.
    const e = randomUUID();
    await queue.schedule([
      { enrollmentId: e, step: 12, attempt: 3, dueAt: new Date(Date.now() + 366 * 86_400_000) },
    ]);
    const hash = await redis.hgetall(`${env.prefix}:touches:${touchJobId(touchKey(e, 12, 3))}`);
    expect(Object.keys(hash)).toContain('opts');
    const tooLong = Object.entries(hash).filter(([, value]) => Buffer.byteLength(value) > 64);
    expect(tooLong).toEqual([]);
    expect(await queue.existing([touchKey(e, 12, 3)])).toEqual(new Set([touchKey(e, 12, 3)]));
    expect(await queue.delayedUntil(touchKey(e, 12, 3))).toBeGreaterThan(Date.now() + 365 * 86_400_000);
    await queue.cancel([{ enrollmentId: e, step: 12, attempt: 3 }]);
    expect(await queue.existing([touchKey(e, 12, 3)])).toEqual(new Set());
  });

  it('retries a failing job on the worker with the same id, counting in the payload, then fails it', async () => {
    const worker = createRedis(env.url, 'worker');
    const flaky = randomUUID();
    const broken = randomUUID();
    const runs = new Map<string, { id: string; r: number | undefined }[]>();
    const retried: number[] = [];
    const w = createWorker(
      'touch.send',
      async (payload, job: Job) => {
        runs.set(payload.e, [...(runs.get(payload.e) ?? []), { id: job.id as string, r: payload.r }]);
        if (payload.e === broken || (payload.r ?? 0) < 2) throw new Error('provider 503');
        return 'sent';
      },
      {
        connection: worker,
        prefix: env.prefix,
        logger: silent,
        retry: { attempts: 4, delayMs: 20, jitter: 0.5 },
        onRetry: (_job, _err, delayMs) => retried.push(delayMs),
      },
    );
    try {
      await queue.schedule([
        { enrollmentId: flaky, step: 1, dueAt: new Date() },
        { enrollmentId: broken, step: 1, dueAt: new Date() },
      ]);
      await waitFor('the flaky job to succeed and the broken one to fail', async () =>
        (runs.get(flaky)?.length ?? 0) === 3 && (runs.get(broken)?.length ?? 0) === 4 ? true : null,
      );
      const id = touchJobId(touchKey(flaky, 1));
      expect(runs.get(flaky)).toEqual([
        { id, r: undefined },
        { id, r: 1 },
        { id, r: 2 },
      ]);
      await waitFor('the broken job to be failed', async () =>
        (await queue.queue.getJobState(touchJobId(touchKey(broken, 1)))) === 'failed' ? true : null,
      );
      // Exponential: 20, 40, 80 ms less up to half, for the broken job; 20, 40 for the flaky one.
      expect(retried).toHaveLength(5);
      for (const d of retried) expect(d).toBeGreaterThanOrEqual(10);
      expect(Math.max(...retried)).toBeLessThanOrEqual(80);
    } finally {
      await w.close();
      await worker.quit();
    }
  });

  it('keeps its events stream short: nothing reads it, and every touch writes about five entries', async () => {
    const worker = createRedis(env.url, 'worker');
    const ids = Array.from({ length: 600 }, () => randomUUID());
    let done = 0;
    const w = createWorker(
      'touch.send',
      async () => {
        done++;
        return 'sent';
      },
      { connection: worker, prefix: env.prefix, logger: silent, concurrency: 50 },
    );
    try {
      await queue.schedule(ids.map((e) => ({ enrollmentId: e, step: 1, dueAt: new Date() })));
      await waitFor('every touch job to run', async () => (done >= ids.length ? true : null));
      await waitFor('the jobs to be finished', async () =>
        (await queue.counts('active', 'wait', 'delayed')).active === 0 ? true : null,
      );
      expect(await redis.hget(`${env.prefix}:touches:meta`, 'opts.maxLenEvents')).toBe(
        String(TOUCH_EVENTS_MAX_LEN),
      );
      // Trimmed approximately, by whole stream nodes (100 entries): about 3,000 entries were written.
      expect(await redis.xlen(`${env.prefix}:touches:events`)).toBeLessThanOrEqual(
        TOUCH_EVENTS_MAX_LEN + 200,
      );
    } finally {
      await w.close();
      await worker.quit();
    }
  });
});
