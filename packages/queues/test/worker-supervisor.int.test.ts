import { createTestRedisPrefix, waitFor } from '@touchbase/testing';
import { Queue, type Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedis,
  createWorker,
  QUEUE,
  type QueueLayout,
  queuePrefix,
  type RedisClient,
  startWorker,
  WorkerSupervisor,
} from '../src/index.js';

/**
 * The supervisor on the real Redis. A worker whose fetch loop never came back from
 * a failover takes no job and raises no error; a worker made without `autorun`
 * behaves the same way from outside (it never asks Redis for a job), so it stands in
 * for the stuck one. The layout says cluster so the queues carry the cluster's
 * hash-tagged prefixes, which one Redis serves as well.
 */
describe('WorkerSupervisor', () => {
  let env: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let connection: RedisClient;
  let producer: RedisClient;
  let layout: QueueLayout;
  const logged: { obj: Record<string, unknown>; msg: string }[] = [];
  const logger = {
    warn: (obj: object, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }),
    error: (obj: object, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }),
  };
  beforeAll(async () => {
    env = await createTestRedisPrefix('supervisor');
    connection = createRedis(env.url, 'worker');
    producer = createRedis(env.url, 'producer');
    layout = { prefix: env.prefix, cluster: true, touchPartitions: 1 };
  });
  afterAll(async () => {
    await Promise.all([connection?.quit(), producer?.quit()]);
    await env?.cleanup();
  });

  const schedulerQueue = () =>
    new Queue(QUEUE.scheduler, { connection: producer, prefix: queuePrefix(layout, QUEUE.scheduler) });

  it('replaces a worker that takes no job while its queue has one due, and the new one takes it', async () => {
    const queue = schedulerQueue();
    const ran: string[] = [];
    const made: Worker[] = [];
    const make = () => {
      const worker = createWorker(
        'schedule.reconcile',
        async (_payload, job) => {
          ran.push(String(job.id));
        },
        // The first worker never fetches: the stuck one.
        { connection, prefix: layout, logger, autorun: made.length > 0 },
      );
      made.push(worker);
      return worker;
    };
    const running = startWorker(make, queue, layout, logger, { stallMs: 300, checkEveryMs: 100 });
    expect(running).toBeInstanceOf(WorkerSupervisor);
    const supervisor = running as WorkerSupervisor;
    try {
      await queue.add('schedule.reconcile', {}, { jobId: 'due-1' });
      await waitFor('the job to run on a new worker', async () => (ran.includes('due-1') ? true : null));
      expect(supervisor.restarts).toBe(1);
      expect(made).toHaveLength(2);
      expect(supervisor.current).toBe(made[1]);
      // The stuck worker was closed, not left beside the new one.
      await waitFor('the stuck worker to close', async () => (made[0]!.closing ? true : null));
      const warning = logged.find((l) => l.msg === 'Worker idle while its queue has due jobs; replaced');
      expect(warning?.obj).toMatchObject({ queue: 'scheduler', restarts: 1 });
      // The new one keeps taking jobs; nothing more is replaced.
      await queue.add('schedule.reconcile', {}, { jobId: 'due-2' });
      await waitFor('the next job', async () => (ran.includes('due-2') ? true : null));
      expect(supervisor.restarts).toBe(1);
    } finally {
      await supervisor.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('leaves an idle worker alone while nothing is due (a delayed job not yet due included)', async () => {
    const queue = schedulerQueue();
    let made = 0;
    const running = startWorker(
      () => {
        made++;
        return createWorker('schedule.reconcile', async () => 'ran', { connection, prefix: layout, logger });
      },
      queue,
      layout,
      logger,
      { stallMs: 200, checkEveryMs: 50 },
    );
    const supervisor = running as WorkerSupervisor;
    try {
      await queue.add('schedule.reconcile', {}, { jobId: 'later', delay: 60_000 });
      await new Promise((r) => setTimeout(r, 800));
      expect(supervisor.restarts).toBe(0);
      expect(made).toBe(1);
    } finally {
      await supervisor.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('starts a bare worker on one Redis', async () => {
    const queue = new Queue(QUEUE.scheduler, { connection: producer, prefix: env.prefix });
    const running = startWorker(
      () => createWorker('schedule.reconcile', async () => 'ran', { connection, prefix: env.prefix, logger }),
      queue,
      env.prefix,
      logger,
    );
    try {
      expect(running).not.toBeInstanceOf(WorkerSupervisor);
      await queue.add('schedule.reconcile', {}, { jobId: 'bare' });
      await waitFor('the job to run', async () =>
        (await queue.getJobState('bare')) === 'completed' ? true : null,
      );
    } finally {
      await running.close();
      await queue.close();
    }
  });
});
