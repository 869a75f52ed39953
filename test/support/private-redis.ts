import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@touchbase/testing';
import { Redis } from 'ioredis';

/** Whether `redis-server` is on PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A redis-server of the caller's own; see {@link startPrivateRedis}. */
export type PrivateRedis = {
  url: string;
  /**
   * FLUSHALL: every key is gone at one instant, as on a Redis that restarted empty
   * (the clients keep their connections). Answers how many keys there were.
   */
  flushAll(): Promise<number>;
  /**
   * SIGKILL, then the same server again on the same port, without persistence: it
   * comes back empty and every client sees its connection drop and reconnects, as
   * after a crash of a Redis without AOF. Answers how many keys were lost.
   */
  killAndRestartEmpty(): Promise<number>;
  stop(): Promise<void>;
};

/**
 * A redis-server on a free loopback port, without persistence, started with `args`
 * (e.g. `['--hash-max-listpack-value', '256']`): for a fault test that loses or
 * kills Redis (never the shared one), or a bench whose figures depend on server
 * settings or would be blurred by others using the shared Redis.
 */
export async function startPrivateRedis(args: string[] = []): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tb-private-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  const start = (): ChildProcess =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--maxmemory-policy',
        'noeviction',
        ...args,
      ],
      { stdio: 'ignore' },
    );
  const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;
  const kill = (c: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (exited(c)) return resolve();
      c.once('exit', () => resolve());
      c.kill(signal);
    });
  const withClient = async <T>(fn: (r: Redis) => Promise<T>): Promise<T> => {
    const r = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      return await fn(r);
    } finally {
      r.disconnect();
    }
  };
  let child = start();
  await answering(url, port);
  return {
    url,
    flushAll: () =>
      withClient(async (r) => {
        // One MULTI: no key written between the count and the flush is missed by the count.
        const res = await r.multi().dbsize().flushall().exec();
        if (!res || res[0]![0]) throw new Error(`FLUSHALL on ${url} failed: ${String(res?.[0]?.[0])}`);
        return res[0]![1] as number;
      }),
    async killAndRestartEmpty() {
      const keys = await withClient((r) => r.dbsize());
      await kill(child, 'SIGKILL');
      child = start();
      await answering(url, port);
      return keys;
    },
    async stop() {
      await kill(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function answering(url: string, port: number): Promise<void> {
  for (let i = 0; ; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch {
      // Not listening yet (or the old process still holds the port): asked again below.
      if (i > 200) throw new Error(`redis-server on port ${port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      probe.disconnect();
    }
  }
}
