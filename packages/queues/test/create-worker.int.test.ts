import { createTestRedisPrefix, waitFor } from '@touchbase/testing';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, createWorker, QUEUE } from '../src/index.js';

describe('a worker made by createWorker', () => {
  let env: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  beforeAll(async () => {
    env = await createTestRedisPrefix('worker');
  });
  afterAll(async () => {
    await env.cleanup();
  });

  it('logs a job that failed for good with its queue, job name and id, without the app attaching anything', async () => {
    const logged: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const logger = {
      warn: (obj: object, msg: string) =>
        logged.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
      error: (obj: object, msg: string) =>
        logged.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
    };
    const connection = createRedis(env.url, 'worker');
    const producer = createRedis(env.url, 'producer');
    // A raw queue on purpose: the producers validate payloads, and this test needs a bad one.
    const queue = new Queue(QUEUE.scheduler, { connection: producer, prefix: env.prefix });
    const worker = createWorker('schedule.reconcile', async () => 'ran', {
      connection,
      prefix: env.prefix,
      logger,
    });
    try {
      await queue.add('schedule.reconcile', { unexpected: true }, { jobId: 'bad-payload', attempts: 3 });
      const failed = await waitFor(
        'the failure to be logged',
        async () => logged.find((l) => l.msg === 'Job failed for good') ?? null,
      );
      expect(failed.level).toBe('error');
      expect(failed.obj).toMatchObject({
        queue: 'scheduler',
        jobName: 'schedule.reconcile',
        jobId: 'bad-payload',
      });
      expect(String(failed.obj.err)).toContain('invalid payload');
    } finally {
      await worker.close();
      await queue.close();
      await Promise.all([connection.quit(), producer.quit()]);
    }
  });
});
