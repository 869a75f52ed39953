import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, createTestRedisPrefix, waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnService } from '../support/child-service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('services at boot and shutdown', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let redis: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  beforeAll(async () => {
    db = await createTestDatabase('boot');
    redis = await createTestRedisPrefix('boot');
  });
  afterAll(async () => {
    await redis?.cleanup();
    await db?.drop();
  });

  it('a bad variable stops start-up with a message naming it', async () => {
    const result = await exitOf(
      spawnService(
        'api',
        { DATABASE_URL: db.url, REDIS_URL: 'http://not-redis', API_PORT: 'many' },
        { expectFailure: true },
      ),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('REDIS_URL');
    expect(result.stderr).toContain('API_PORT');
    expect(result.stderr).not.toContain('    at ');
  });

  it('an unreachable Redis says so and how to get it', async () => {
    const result = await exitOf(
      spawnService(
        'scheduler',
        { DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1' },
        { expectFailure: true },
      ),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Could not connect to Redis at 127.0.0.1:1');
    expect(result.stderr).toContain('docker compose up -d redis');
  });

  it('an unreachable PostgreSQL says so and how to get it', async () => {
    const result = await exitOf(
      spawnService(
        'sender',
        { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/x', REDIS_URL: redis.url },
        { expectFailure: true },
      ),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Could not connect to PostgreSQL at 127.0.0.1:1');
    expect(result.stderr).toContain('docker compose up -d postgres');
  });

  it('the API starts alone, answers /readyz, and shuts down in order on SIGTERM', async () => {
    const port = String(20_000 + Math.floor(Math.random() * 20_000));
    const child = spawnService('api', {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      API_PORT: port,
      LOG_LEVEL: 'info',
    });
    const exited = exitOf(child);
    await waitFor(
      'the API to be ready',
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    child.kill('SIGTERM');
    const result = await exited;
    expect(result.code).toBe(0);
  });

  it('the build bundles a service that plain node runs (no tsx), migrations included', async () => {
    execFileSync(process.execPath, ['../../scripts/build-app.mjs', 'src/main.ts'], {
      cwd: `${root}apps/api`,
    });
    execFileSync(process.execPath, ['../scripts/build-app.mjs', 'src/main.ts'], { cwd: `${root}cli` });
    const fresh = await createTestDatabase('built');
    try {
      const migrate = execFileSync(process.execPath, ['cli/dist/main.mjs', 'migrate'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: fresh.url },
      }).toString();
      expect(migrate).toContain('database is up to date');
      const port = String(20_000 + Math.floor(Math.random() * 20_000));
      const child = spawn(process.execPath, ['apps/api/dist/main.mjs'], {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: fresh.url,
          REDIS_URL: redis.url,
          REDIS_PREFIX: redis.prefix,
          API_PORT: port,
        },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      await waitFor(
        'the built API to be ready',
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
        {
          timeoutMs: 30_000,
          intervalMs: 100,
        },
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await fresh.drop();
    }
  });
});
