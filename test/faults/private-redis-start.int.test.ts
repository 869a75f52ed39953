import { createServer, type Server, type Socket } from 'node:net';
import { freePort, PortTakenError } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { hasRedisServer, startPrivateRedis } from '../support/private-redis.js';
import { spawnRedisServer } from '../support/redis-server.js';

const sockets = new Set<Socket>();
/** A listener that accepts and never answers, as a port's other owner might. */
const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const srv = createServer((s) => sockets.add(s));
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });

/**
 * Starting a test's own redis-server: a port another process bound first is told
 * apart from any other failure (so the start is retried on another port), the
 * error carries redis-server's own log, and a server of someone else answering
 * on the port is never taken for ours.
 */
describe.runIf(hasRedisServer())('a private redis-server start', () => {
  const held: Server[] = [];
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
  });

  it('throws PortTakenError with redis-server log when its port is taken', async () => {
    const port = await freePort();
    held.push(await listen(port));
    const err = await spawnRedisServer(port, ['--save', '']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortTakenError);
    expect((err as Error).message).toMatch(/Address already in use/);
  });

  it("throws PortTakenError when a cluster node's bus port (port + 10000) is taken", async () => {
    const port = await freePort({ alsoFree: [10_000] });
    held.push(await listen(port + 10_000));
    const err = await spawnRedisServer(port, [
      '--save',
      '',
      '--cluster-enabled',
      'yes',
      '--dir',
      '/tmp',
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortTakenError);
    expect((err as Error).message).toMatch(/\(cluster\), aborting/);
  });

  it('any other failure is a plain error naming the cause from its log', async () => {
    const err = await spawnRedisServer(await freePort(), ['--no-such-option', 'x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PortTakenError);
    expect((err as Error).message).toMatch(/no-such-option/);
  });

  it('is not fooled by another redis-server on its port', async () => {
    const other = await startPrivateRedis();
    const port = Number(new URL(other.url).port);
    try {
      const err = await spawnRedisServer(port, ['--save', '']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PortTakenError);
    } finally {
      await other.stop();
    }
  });

  it('startPrivateRedis answers, and answers again after killAndRestartEmpty, empty', async () => {
    const r = await startPrivateRedis();
    const client = new Redis(r.url, { maxRetriesPerRequest: 1 });
    try {
      await client.set('k', 'v');
      expect(await r.killAndRestartEmpty()).toBe(1);
      expect(await client.get('k')).toBeNull();
    } finally {
      client.disconnect();
      await r.stop();
    }
  });
});
