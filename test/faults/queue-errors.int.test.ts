import {
  AlertQueue,
  createRedis,
  DomainHealthQueue,
  ReactivationQueue,
  SchedulerQueue,
  TouchQueue,
} from '@touchbase/queues';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '../support/private-redis.js';

/**
 * Each producer's BullMQ queue re-emits its Redis connection's errors. When Redis
 * dies, every queue logs the error with its queue and prefix through the logger it
 * was given, and none goes unhandled (BullMQ then prints Node's "Unhandled error"
 * to the console, without any id).
 */
describe.runIf(hasRedisServer())('producer queues when their Redis is killed', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    // Stopped by the test already when it got that far; stopping again is a no-op.
    await redis?.stop();
  });

  it('log the error with their ids; nothing reaches the console', async () => {
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const logger = {
      warn: (obj: object, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }),
      error: (obj: object, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }),
    };
    const consoleError = vi.spyOn(console, 'error');
    const connection = createRedis(redis.url, 'producer');
    connection.on('error', () => {
      // The runtime logs the connection's own error; this test looks at the queues'.
    });
    const layout = { prefix: 'tbtest-queue-errors', cluster: false, touchPartitions: 2 };
    const touches = new TouchQueue(connection, layout, logger);
    const others = [
      new AlertQueue(connection, layout, logger),
      new ReactivationQueue(connection, layout, logger),
      new SchedulerQueue(connection, layout, logger),
      new DomainHealthQueue(connection, layout, logger),
    ];
    try {
      // Each queue is connected before the kill (BullMQ checks the server on first use).
      await Promise.all(
        [...touches.partitions, ...others.map((p) => p.queue)].map((q) => q.waitUntilReady()),
      );
      await redis.stop();
      const queuesThatLogged = await waitFor('every queue to log the error', () => {
        const seen = new Set(
          logged
            .filter((l) => l.msg === 'Queue error')
            .map((l) => `${String(l.obj.queue)}:${String(l.obj.partition ?? '')}`),
        );
        return seen.size === 6 ? seen : null;
      });
      expect([...queuesThatLogged].sort()).toEqual([
        'alerts:',
        'domain-health:',
        'reactivations:',
        'scheduler:',
        'touches:0',
        'touches:1',
      ]);
      const first = logged.find((l) => l.msg === 'Queue error')!;
      expect(first.obj).toMatchObject({ prefix: expect.stringContaining('tbtest-queue-errors') });
      expect(typeof first.obj.err).toBe('string');
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      connection.disconnect();
      await Promise.allSettled([touches, ...others].map((p) => p.close()));
    }
  });
});
