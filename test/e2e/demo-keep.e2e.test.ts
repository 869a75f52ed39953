import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createTestRedisPrefix, freePort, waitFor } from '@touchbase/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverUrl = process.env.TEST_DATABASE_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Whether nothing listens on the port any more (we can take it ourselves). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

describe('npm run demo -- --keep, stopped by the pid the user sees (npm)', () => {
  const dbName = `touchbase_test_demo_${randomBytes(4).toString('hex')}`;
  let redis: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  afterAll(async () => {
    await redis?.cleanup();
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(dbName)} WITH (FORCE)`);
    await client.end();
  });

  it('SIGTERM to npm stops every service: its ports are free afterwards', async () => {
    redis = await createTestRedisPrefix('demo');
    const databaseUrl = new URL(serverUrl);
    databaseUrl.pathname = `/${dbName}`;
    const ports = {
      API_PORT: await freePort(),
      INGEST_PORT: await freePort(),
      SANDBOX_PORT: await freePort(),
    };
    const npm = spawn(
      'npm',
      [
        'run',
        'demo',
        '--',
        '--keep',
        '--count',
        '10',
        '--database-url',
        databaseUrl.toString(),
        '--redis-prefix',
        redis.prefix,
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          REDIS_URL: redis.url,
          TIME_SCALE: '172800',
          ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    npm.stdout.on('data', (d) => {
      out += String(d);
    });
    npm.stderr.on('data', (d) => {
      out += String(d);
    });
    const exited = new Promise<void>((r) => npm.once('exit', () => r()));
    await waitFor(
      'the demo to finish its campaign and keep running',
      () => out.includes('still running (--keep)'),
      {
        timeoutMs: 120_000,
        intervalMs: 200,
      },
    );
    expect(out).toMatch(/reply rate +\d/);
    // The console's URL, printed and answering (open: the demo's fresh database has no key).
    const consoleUrl = await waitFor(
      'the console line',
      () => /operator console: (http:\/\/\S+\/console) /.exec(out)?.[1] ?? null,
      { timeoutMs: 5_000, intervalMs: 100 },
    );
    const page = await fetch(consoleUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/console/assets/console.js');
    for (const port of Object.values(ports)) expect(await isFree(port)).toBe(false);

    npm.kill('SIGTERM');
    await exited;
    await waitFor(
      'every port of the demo to be free',
      async () => (await Promise.all(Object.values(ports).map(isFree))).every(Boolean),
      { timeoutMs: 15_000, intervalMs: 200 },
    );
  }, 150_000);
});
