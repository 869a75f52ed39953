import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { createTestRedisPrefix, waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, createWorker, TouchJobRemovalError, TouchQueue, touchJobId } from '../src/index.js';

/** The connection's loss in the first test is this file's doing; nothing else fails here. */
const silent = { warn: () => {}, error: () => {} };
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('cancelling touch jobs', () => {
  let env: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let admin: Redis;

  beforeAll(async () => {
    env = await createTestRedisPrefix('cancel');
    admin = new Redis(env.url);
  });
  afterAll(async () => {
    await admin.quit();
    await env.cleanup();
  });

  it('rejects, naming the touches, when Redis drops the connection before the removal', async () => {
    // A connection of its own that does not reconnect, killed by Redis itself: a real
    // connection loss that leaves the shared Redis untouched for everyone else.
    const redis = createRedis(env.url, 'producer', { retryStrategy: () => null });
    const connectionErrors: Error[] = [];
    redis.on('error', (err) => connectionErrors.push(err));
    const queue = new TouchQueue(redis, env.prefix, silent);
    const a = randomUUID();
    const b = randomUUID();
    try {
      await queue.schedule([
        { enrollmentId: a, step: 1, dueAt: inAnHour() },
        { enrollmentId: b, step: 2, attempt: 2, dueAt: inAnHour() },
      ]);
      const id = await redis.client('ID');
      const closed = new Promise((resolve) => redis.once('end', resolve));
      await admin.client('KILL', 'ID', String(id));
      await closed;

      const err = await queue
        .cancel([
          { enrollmentId: a, step: 1 },
          { enrollmentId: b, step: 2, attempt: 2 },
        ])
        .then(
          () => null,
          (e: unknown) => e,
        );

      expect(err).toBeInstanceOf(TouchJobRemovalError);
      const removal = err as TouchJobRemovalError;
      expect([...removal.touchKeys].sort()).toEqual([touchKey(a, 1), touchKey(b, 2, 2)].sort());
      expect(removal.jobIds).toContain(touchJobId(touchKey(a, 1)));
      expect(removal.message).toContain(touchKey(a, 1));
      // The jobs are still there: nothing claimed they were removed.
      expect(await admin.zscore(`${env.prefix}:touches:delayed`, touchJobId(touchKey(a, 1)))).not.toBeNull();
    } finally {
      // Closing a queue whose connection Redis killed rejects too; that is this test's doing.
      await queue.close().catch(() => undefined);
      redis.disconnect();
    }
  });

  it('removals asked at the same time go out in one pipelined round trip per partition, and remove their jobs', async () => {
    const producer = createRedis(env.url, 'producer');
    const queue = new TouchQueue(
      producer,
      {
        prefix: `${env.prefix}:parts`,
        cluster: false,
        touchPartitions: 2,
      },
      silent,
    );
    const ids = Array.from({ length: 20 }, () => randomUUID());
    let pipelines = 0;
    const pipeline = producer.pipeline.bind(producer);
    (producer as { pipeline: unknown }).pipeline = (...args: Parameters<typeof pipeline>) => {
      pipelines++;
      return pipeline(...args);
    };
    try {
      await queue.schedule(ids.map((id) => ({ enrollmentId: id, step: 1, dueAt: inAnHour() })));
      const partitions = new Set(ids.map((id) => queue.queueOf(id)));
      expect(partitions.size).toBe(2);
      pipelines = 0;
      // As the replies of one batched stop ask: each its own enrollment, at once.
      await Promise.all(ids.map((id) => queue.cancel([{ enrollmentId: id, step: 1 }])));
      expect(pipelines).toBe(2);
      expect((await queue.existing(ids.map((id) => touchKey(id, 1)))).size).toBe(0);
      for (const q of queue.partitions) expect(await q.getDelayedCount()).toBe(0);
    } finally {
      await queue.close();
      await producer.quit();
    }
  });

  it("resolves on BullMQ's expected answers: a job that is missing, or locked by a worker", async () => {
    const producer = createRedis(env.url, 'producer');
    const worker = createRedis(env.url, 'worker');
    const queue = new TouchQueue(producer, env.prefix, silent);
    const taken = randomUUID();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    const w = createWorker(
      'touch.send',
      async (payload) => {
        started.push(payload.e);
        await held;
      },
      { connection: worker, prefix: env.prefix, logger: silent },
    );
    try {
      await queue.schedule([{ enrollmentId: taken, step: 1, dueAt: new Date() }]);
      await waitFor('the worker to take the job', async () => (started.includes(taken) ? true : null));

      await expect(
        queue.cancel([
          { enrollmentId: taken, step: 1 },
          { enrollmentId: randomUUID(), step: 3 },
        ]),
      ).resolves.toBeUndefined();
      // The locked job stays (the sender's claim fences it), still active.
      expect(await queue.queue.getJobState(touchJobId(touchKey(taken, 1)))).toBe('active');
    } finally {
      release();
      await w.close();
      await queue.close();
      await Promise.all([producer.quit(), worker.quit()]);
    }
  });

  it('removeUnlessActive removes pending jobs and names the ones a worker holds, which stay', async () => {
    const producer = createRedis(env.url, 'producer');
    const worker = createRedis(env.url, 'worker');
    const queue = new TouchQueue(producer, env.prefix, silent);
    const taken = randomUUID();
    const waiting = randomUUID();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    const w = createWorker(
      'touch.send',
      async (payload) => {
        started.push(payload.e);
        await held;
      },
      { connection: worker, prefix: env.prefix, logger: silent },
    );
    try {
      await queue.schedule([
        { enrollmentId: taken, step: 2, dueAt: new Date() },
        { enrollmentId: waiting, step: 1, dueAt: inAnHour() },
      ]);
      await waitFor('the worker to take the job', async () => (started.includes(taken) ? true : null));
      const active = await queue.removeUnlessActive([
        { enrollmentId: taken, step: 2 },
        { enrollmentId: waiting, step: 1 },
        { enrollmentId: randomUUID(), step: 4 },
      ]);
      expect([...active]).toEqual([touchKey(taken, 2)]);
      expect(await queue.queue.getJobState(touchJobId(touchKey(taken, 2)))).toBe('active');
      expect((await queue.existing([touchKey(waiting, 1)])).size).toBe(0);
    } finally {
      release();
      await w.close();
      await queue.close();
      await Promise.all([producer.quit(), worker.quit()]);
    }
  });
});
