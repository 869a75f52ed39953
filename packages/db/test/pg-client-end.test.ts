import { createServer, type Socket } from 'node:net';
import { freePort } from '@touchbase/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { assertDatabaseReachable, DatabaseUnavailableError, DatabaseUnreachableError } from '../src/index.js';
import { connectPostgres } from '../src/migrate/postgres-connect.js';

/** A loopback TCP server that accepts connections and never answers: a connect that times out. */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {}).on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/touchbase`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `assertDatabaseReachable` and `connectPostgres` close a client whose connect failed and
 * then report the connect's error. They await `end()` without a catch because pg's
 * `Client.end()` never rejects: these pin that, so a pg upgrade that changes it fails here.
 */
describe("pg's Client.end() after a failed connect (no server, a silent one)", () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('resolves when nothing listens (connection refused)', async () => {
    const client = new pg.Client({
      connectionString: `postgresql://postgres@127.0.0.1:${await freePort()}/x`,
    });
    client.on('error', () => {}); // the connect below rejects with the same failure
    await expect(client.connect()).rejects.toThrow();
    await expect(client.end()).resolves.toBeUndefined();
  });

  it('resolves when the connect timed out', async () => {
    const server = await silentServer();
    servers.push(server);
    const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 200 });
    client.on('error', () => {}); // the connect below rejects with the same failure
    await expect(client.connect()).rejects.toThrow(/timeout/i);
    await expect(client.end()).resolves.toBeUndefined();
  });

  it('lets the probe and the migration connect report the connect failure', async () => {
    const url = `postgresql://postgres@127.0.0.1:${await freePort()}/touchbase`;
    await expect(assertDatabaseReachable(url, false)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(connectPostgres(url)).rejects.toBeInstanceOf(DatabaseUnreachableError);
  });
});
