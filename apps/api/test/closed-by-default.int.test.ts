import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@touchbase/config';
import { loadRuntimeConfig, openRuntime } from '@touchbase/runtime';
import { createLogger } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix, type TestDatabase } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideBinding, isLoopback } from '../src/auth/bind-policy.js';
import { createApiKey, startApi } from '../src/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('decideBinding', () => {
  it('lets the API leave loopback only with a credential', () => {
    expect(decideBinding({ host: '127.0.0.1', hasAdminToken: false, activeKeys: 0 })).toEqual({
      host: '127.0.0.1',
      open: true,
    });
    expect(decideBinding({ host: '0.0.0.0', hasAdminToken: true, activeKeys: 0 }).open).toBe(false);
    expect(decideBinding({ host: '0.0.0.0', hasAdminToken: false, activeKeys: 1 }).open).toBe(false);
    expect(decideBinding({ host: '127.0.0.1', hasAdminToken: false, activeKeys: 2 }).open).toBe(false);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'api.internal']) {
      const refuse = () => decideBinding({ host, hasAdminToken: false, activeKeys: 0 });
      expect(refuse, host).toThrow(ConfigError);
      expect(refuse, host).toThrow(/API_HOST: .*ADMIN_TOKEN/s);
    }
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', '127.0.0.1.example', 'localhost.example'])
      expect(isLoopback(host), host).toBe(false);
  });
});

describe('startApi: closed by default', () => {
  let tdb: TestDatabase;
  let redis: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  beforeAll(async () => {
    tdb = await createTestDatabase('closed_default');
    redis = await createTestRedisPrefix('closed_default');
  });
  afterAll(async () => {
    await redis?.cleanup();
    await tdb?.drop();
  });

  const runtime = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadRuntimeConfig({
      DATABASE_URL: tdb.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      API_PORT: '0',
      ...env,
    });
    const rt = await openRuntime({ name: 'api', config, logger: createLogger({ name: 'api', destination }) });
    return { rt, lines };
  };

  it('without a key or ADMIN_TOKEN: listens on loopback and says so; refuses 0.0.0.0 naming the variables', async () => {
    const loopback = await runtime({ API_HOST: '127.0.0.1' });
    try {
      const app = await startApi(loopback.rt);
      expect((app.server.address() as { address: string }).address).toBe('127.0.0.1');
      const warning = loopback.lines.map((l) => JSON.parse(l)).find((l) => l.msg.includes('loopback only'));
      expect(warning).toMatchObject({ level: 40, host: '127.0.0.1' });
    } finally {
      await loopback.rt.shutdown.run();
    }

    const everywhere = await runtime({ API_HOST: '0.0.0.0' });
    try {
      const refused = await startApi(everywhere.rt).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toContain('API_HOST');
      expect((refused as Error).message).toContain('ADMIN_TOKEN');
    } finally {
      await everywhere.rt.shutdown.run();
    }
  });

  it('a service started alone with API_HOST=0.0.0.0 and no credential exits 1 with a message, no stack', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: tdb.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        API_HOST: '0.0.0.0',
        API_PORT: '0',
        ADMIN_TOKEN: '',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += String(d);
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('API_HOST: 0.0.0.0 is not a loopback address');
    expect(stderr).toContain('ADMIN_TOKEN');
    expect(stderr).not.toContain('    at ');
  });

  it('with a key in the database (or ADMIN_TOKEN) it listens where it is told', async () => {
    const withToken = await runtime({ API_HOST: '0.0.0.0', ADMIN_TOKEN: 'closed-default-token-0123' });
    try {
      const app = await startApi(withToken.rt);
      expect((app.server.address() as { address: string }).address).toBe('0.0.0.0');
    } finally {
      await withToken.rt.shutdown.run();
    }
    const withKey = await runtime({ API_HOST: '0.0.0.0' });
    try {
      await createApiKey({ repos: withKey.rt.repos }, { name: 'ops', scope: 'admin', actor: 'test' });
      const app = await startApi(withKey.rt);
      expect((app.server.address() as { address: string }).address).toBe('0.0.0.0');
      // Not on loopback: /metrics and /docs need a key (API_OPS_ACCESS=auto).
      expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
      expect((await app.inject({ url: '/docs/json' })).statusCode).toBe(401);
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await withKey.rt.shutdown.run();
    }
  });
});
