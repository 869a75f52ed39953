import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, createTestRedisPrefix, freePort } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnService } from '../support/child-service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a port in use stops start-up with one line naming its variable', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let redis: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    db = await createTestDatabase('ports');
    redis = await createTestRedisPrefix('ports');
    port = await freePort();
    taken = createServer();
    await new Promise<void>((r) => taken.listen(port, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise<void>((r) => taken.close(() => r()));
    await redis?.cleanup();
    await db?.drop();
  });

  it('the API alone: API_PORT', async () => {
    const result = await exitOf(
      spawnService(
        'api',
        { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, API_PORT: String(port) },
        { expectFailure: true },
      ),
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `api: API_PORT: port ${port} on 127.0.0.1 is already in use (another touchbase still running, or another program); stop it or set API_PORT to a free port`,
    );
  });

  it('touchbase start: SANDBOX_PORT, before anything else starts', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/src/main.ts', 'start'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        SANDBOX_PORT: String(port),
        API_PORT: String(await freePort()),
        INGEST_PORT: String(await freePort()),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const result = await exitOf(child);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^touchbase: SANDBOX_PORT: port ${port} on 127\\.0\\.0\\.1 is already in use`),
      ),
    ]);
  });
});
