import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onFreePort } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { type RedisServerProcess, spawnRedisServer } from './redis-server.js';

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
  const dir = mkdtempSync(join(tmpdir(), 'tb-private-redis-'));
  const start = (port: number): Promise<RedisServerProcess> =>
    spawnRedisServer(port, [
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--maxmemory-policy',
      'noeviction',
      ...args,
    ]);
  let server = await onFreePort(start).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  const url = `redis://127.0.0.1:${server.port}`;
  const withClient = async <T>(fn: (r: Redis) => Promise<T>): Promise<T> => {
    const r = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      return await fn(r);
    } finally {
      r.disconnect();
    }
  };
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
      await server.kill('SIGKILL');
      // The same port: the clients under test reconnect to the URL they were given.
      // Nothing else takes it in between (it is outside the OS's ephemeral range).
      server = await start(server.port);
      return keys;
    },
    async stop() {
      await server.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
