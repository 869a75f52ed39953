import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiScope } from '../src/auth/api-scope.js';
import { Authenticator } from '../src/auth/authenticator.js';
import { decorateAuth, guardedScope } from '../src/plugins/auth.plugin.js';
import { type ApiFixture, apiFixture, documentedOperations } from './support/api-fixture.js';

const TOKEN = 'scopes-admin-token-0123456789';
const WEAKER: Record<ApiScope, ApiScope[]> = { read: [], write: ['read'], admin: ['read', 'write'] };
/** Routes whose effect reaches past one entity: the whole sending domain, access itself. */
const ADMIN_ROUTES = ['POST /v1/domains/{id}/pause', 'POST /v1/domains/{id}/resume', 'GET /v1/keys'];

describe('API keys and scopes', () => {
  let f: ApiFixture;
  const keys = {} as Record<ApiScope, string>;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    f = await apiFixture('auth_scopes', { adminToken: TOKEN, auth: () => ({ opsOpen: false }) });
    for (const scope of ['read', 'write', 'admin'] as const) keys[scope] = await f.key(scope, `${scope}-bot`);
  });
  afterAll(async () => {
    await f?.close();
  });

  const READ_POSTS = ['POST /v1/simulations'];

  it('every guarded route of the document declares a scope: read for reads, write or admin for changes', () => {
    const ops = documentedOperations(f.app).filter((op) => !['/healthz', '/readyz'].includes(op.path));
    expect(ops.length).toBeGreaterThan(40);
    for (const op of ops) {
      const what = `${op.method} ${op.path}`;
      expect(op.scope, what).toBeDefined();
      if (op.method === 'GET') expect(op.scope, what).toBe(ADMIN_ROUTES.includes(what) ? 'admin' : 'read');
      // A dry run is a POST (its input is a body) that changes nothing: a read.
      else if (READ_POSTS.includes(what)) expect(op.scope, what).toBe('read');
      else expect(['write', 'admin'], what).toContain(op.scope);
    }
    const scopeOf = (what: string) => ops.find((op) => `${op.method} ${op.path}` === what)?.scope;
    for (const what of ADMIN_ROUTES) expect(scopeOf(what), what).toBe('admin');
    expect(scopeOf('POST /v1/keys')).toBe('admin');
  });

  it('each route of the document refuses a key without its scope: 403 problem+json naming the scope', async () => {
    let refused = 0;
    for (const op of documentedOperations(f.app)) {
      if (!op.scope) continue;
      for (const weaker of WEAKER[op.scope]) {
        for (const method of op.method === 'GET' ? ['GET', 'HEAD'] : [op.method]) {
          const res = await f.app.inject({
            method: method as 'GET',
            url: op.url,
            headers: bearer(keys[weaker]),
            ...(method === 'GET' || method === 'HEAD' ? {} : { payload: {} }),
          });
          const what = `${method} ${op.path} with a ${weaker} key`;
          expect(res.statusCode, what).toBe(403);
          expect(res.headers['www-authenticate'], what).toContain(`scope="${op.scope}"`);
          if (method === 'HEAD') continue;
          expect(res.headers['content-type'], what).toContain('application/problem+json');
          expect(res.json(), what).toMatchObject({
            status: 403,
            code: 'insufficient_scope',
            requiredScope: op.scope,
            grantedScope: weaker,
          });
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(20);
  });

  it('each route lets a key with its scope through (whatever the handler then answers)', async () => {
    for (const op of documentedOperations(f.app)) {
      if (!op.scope) continue;
      // A manual guard run waits for a worker this test has not; wait=0 answers at once.
      const url = op.path === '/v1/domains/health/run' ? `${op.url}?wait=0` : op.url;
      const res = await f.app.inject({
        method: op.method as 'GET',
        url,
        headers: bearer(keys[op.scope]),
        ...(op.method === 'GET' ? {} : { payload: {} }),
      });
      expect([401, 403], `${op.method} ${op.path}`).not.toContain(res.statusCode);
    }
  });

  it('refuses to start when a guarded route declares no scope, naming it', async () => {
    const app = Fastify();
    decorateAuth(app);
    await app.register(guardedScope, {
      authenticator: new Authenticator(f.repos.apiKeys, TOKEN),
      routes: async (scope) => {
        scope.get('/v1/declared', { config: { scope: 'read' } }, async () => ({}));
        scope.get('/ui/forgotten', async () => ({}));
      },
    });
    await expect(app.ready()).rejects.toThrow(/declare config\.scope.*GET \/ui\/forgotten/);
    await app.close();
  });

  it('guards /metrics and /docs with the read scope when they are not open', async () => {
    expect((await f.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await f.app.inject({ url: '/docs/json' })).statusCode).toBe(401);
    expect((await f.app.inject({ url: '/metrics', headers: bearer(keys.read) })).statusCode).toBe(200);
    expect((await f.app.inject({ url: '/docs/json', headers: bearer(keys.read) })).statusCode).toBe(200);
  });

  it('Bull Board needs the admin scope; ADMIN_TOKEN is an admin key', async () => {
    for (const url of ['/admin/queues', '/admin/queues/api/queues']) {
      expect((await f.app.inject({ url, headers: bearer(keys.write) })).statusCode, url).toBe(403);
      expect((await f.app.inject({ url, headers: bearer(keys.admin) })).statusCode, url).toBe(200);
      expect((await f.app.inject({ url, headers: bearer(TOKEN) })).statusCode, url).toBe(200);
    }
  });

  it("writes the key's name as the actor of the audit log (admin for ADMIN_TOKEN)", async () => {
    const add = (key: string, value: string) =>
      f.app.inject({
        method: 'POST',
        url: '/v1/suppressions',
        headers: bearer(key),
        payload: { kind: 'email', value },
      });
    const byKey = await add(keys.write, 'actor-key@scopes.example');
    expect(byKey.statusCode).toBe(201);
    const byToken = await add(TOKEN, 'actor-token@scopes.example');
    expect(byToken.statusCode).toBe(201);
    const { rows } = await f.db.pool.query(
      `SELECT entity_id AS "entityId", actor FROM audit_log WHERE action = 'suppression.added'`,
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { entityId: byKey.json().id, actor: 'write-bot' },
        { entityId: byToken.json().id, actor: 'admin' },
      ]),
    );
  });

  it('manages keys over /v1/keys: shown once, listed without secret, revoked at once', async () => {
    const created = await f.app.inject({
      method: 'POST',
      url: '/v1/keys',
      headers: bearer(keys.admin),
      payload: { name: 'importer', scope: 'write' },
    });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json() as { id: string; key: string };
    expect(key).toMatch(/^tb_[A-Za-z0-9_-]{43}$/);
    const list = await f.app.inject({ url: '/v1/keys', headers: bearer(keys.admin) });
    expect(list.body).not.toContain(key);
    expect(list.json().items.map((k: { name: string }) => k.name)).toContain('importer');
    const { rows } = await f.db.pool.query('SELECT key_hash FROM api_key WHERE id = $1', [id]);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].key_hash).not.toContain(key);

    expect((await f.app.inject({ url: '/v1/sequences', headers: bearer(key) })).statusCode).toBe(200);
    const again = await f.app.inject({
      method: 'POST',
      url: '/v1/keys',
      headers: bearer(keys.admin),
      payload: { name: 'importer', scope: 'read' },
    });
    expect(again.statusCode).toBe(409);
    const reserved = await f.app.inject({
      method: 'POST',
      url: '/v1/keys',
      headers: bearer(keys.admin),
      payload: { name: 'admin', scope: 'read' },
    });
    expect(reserved.statusCode).toBe(400);
    const revoked = await f.app.inject({
      method: 'POST',
      url: `/v1/keys/${id}/revoke`,
      headers: bearer(keys.admin),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await f.app.inject({ url: '/v1/sequences', headers: bearer(key) })).statusCode).toBe(401);
    const audit = await f.db.pool.query(
      `SELECT action, actor FROM audit_log WHERE entity_type = 'api_key' AND entity_id = $1 ORDER BY id`,
      [id],
    );
    expect(audit.rows).toEqual([
      { action: 'api_key.created', actor: 'admin-bot' },
      { action: 'api_key.revoked', actor: 'admin-bot' },
    ]);
  });

  it('lists keys in pages: every key once across the pages, a bad cursor a 400 naming it', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const res = await f.app.inject({
        url: `/v1/keys?limit=2&includeRevoked=true${after ? `&after=${after}` : ''}`,
        headers: bearer(keys.admin),
      });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { items: { id: string }[]; next: string | null };
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...body.items.map((k) => k.id));
      after = body.next;
    } while (after);
    const { rows } = await f.db.pool.query<{ id: string }>('SELECT id FROM api_key ORDER BY id');
    expect(seen).toEqual(rows.map((r) => r.id));
    const bad = await f.app.inject({ url: '/v1/keys?after=not-a-uuid', headers: bearer(keys.admin) });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('querystring.after');
  });
});

describe('browser sessions (form login)', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await apiFixture('auth_sessions', { adminToken: TOKEN });
  });
  afterAll(async () => {
    await f?.close();
  });

  const login = (key: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    f.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({ key, ...extra }).toString(),
    });
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    String(res.headers['set-cookie']).split(';')[0] as string;

  it('sets a signed, HttpOnly, SameSite=Strict cookie that then opens the guarded routes', async () => {
    const key = await f.key('admin', 'browser-admin');
    const res = await login(key, { next: '/admin/queues' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/queues');
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^touchbase_session=[^;]+\.[^;]+;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toMatch(/Max-Age=\d+/);
    const cookie = cookieOf(res);
    expect((await f.app.inject({ url: '/admin/queues', headers: { cookie } })).statusCode).toBe(200);
    expect((await f.app.inject({ url: '/v1/sequences', headers: { cookie } })).statusCode).toBe(200);
    // A Bearer token, when given, is what counts: a wrong one is a 401 even with a good cookie.
    const wrong = await f.app.inject({
      url: '/v1/sequences',
      headers: { cookie, authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses a forged or tampered cookie, and ends the session at logout and at revocation', async () => {
    const key = await f.key('read', 'browser-reader');
    const cookie = cookieOf(await login(key));
    const [name, value] = cookie.split('=') as [string, string];
    const [payload, signature] = value.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ k: 'admin-token', e: Date.now() + 60_000 })).toString(
      'base64url',
    );
    for (const bad of [
      `${name}=${forged}.${signature}`,
      `${name}=${payload}.${signature}x`,
      `${name}=${payload}`,
    ]) {
      expect((await f.app.inject({ url: '/v1/sequences', headers: { cookie: bad } })).statusCode, bad).toBe(
        401,
      );
    }
    // A read session stays a read session.
    const write = await f.app.inject({
      method: 'POST',
      url: '/v1/suppressions',
      headers: { cookie },
      payload: {},
    });
    expect(write.statusCode).toBe(403);
    const logout = await f.app.inject({ method: 'POST', url: '/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(303);
    expect(String(logout.headers['set-cookie'])).toMatch(
      /touchbase_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/,
    );
    await f.repos.apiKeys.revoke('browser-reader');
    expect((await f.app.inject({ url: '/v1/sequences', headers: { cookie } })).statusCode).toBe(401);
  });

  it('refuses a wrong key, a post from another origin, and a next that leaves the server', async () => {
    const wrong = await login('tb_not-a-key');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).toContain('unknown or revoked');
    const key = await f.key('read', 'browser-origin');
    const foreign = await login(key, {}, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    for (const next of ['//evil.example/x', 'https://evil.example', '/\\evil.example', '/\t/evil.example']) {
      expect((await login(key, { next })).headers.location, next).toBe('/admin/queues');
    }
    expect((await login(TOKEN, { next: '/v1/sequences?limit=1' })).headers.location).toBe(
      '/v1/sequences?limit=1',
    );
  });

  it('shows the login form to a browser that asks for a guarded page, with a 401', async () => {
    const res = await f.app.inject({ url: '/admin/queues', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('name="next" value="/admin/queues"');
    const page = await f.app.inject({ url: '/login?next=/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('action="/login"');
  });
});

describe('per-key rate limit (Redis)', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await apiFixture('auth_rate_limit', {
      adminToken: TOKEN,
      auth: (redis, prefix) => ({ rateLimitPerMinute: 3, redis, redisPrefix: prefix }),
    });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('answers 429 problem+json with Retry-After past the limit, per key, counted in Redis', async () => {
    const busy = await f.key('read', 'busy-bot');
    const calm = await f.key('read', 'calm-bot');
    const get = (key: string) =>
      f.app.inject({ url: '/v1/sequences', headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 3; i++) expect((await get(busy)).statusCode).toBe(200);
    const limited = await get(busy);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toContain('application/problem+json');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ status: 429, code: 'rate_limited' });
    // Another key has its own budget.
    expect((await get(calm)).statusCode).toBe(200);
    const counters = await f.redis.keys(`${f.prefix}:api-rate-limit:*`);
    expect(counters.length).toBe(2);
  });
});

describe('the open mode (no ADMIN_TOKEN, no key: loopback only)', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await apiFixture('auth_open');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('lets requests in as "local" until the first key exists, then needs one', async () => {
    const open = await f.app.inject({
      method: 'POST',
      url: '/v1/suppressions',
      payload: { kind: 'domain', value: 'open.example' },
    });
    expect(open.statusCode).toBe(201);
    const { rows } = await f.db.pool.query(`SELECT actor FROM audit_log WHERE action = 'suppression.added'`);
    expect(rows).toEqual([{ actor: 'local' }]);
    const key = await f.key('read', 'first-key');
    expect((await f.app.inject({ url: '/v1/sequences' })).statusCode).toBe(401);
    expect(
      (await f.app.inject({ url: '/v1/sequences', headers: { authorization: `Bearer ${key}` } })).statusCode,
    ).toBe(200);
    // Revoking every key does not reopen it.
    await f.repos.apiKeys.revoke('first-key');
    expect((await f.app.inject({ url: '/v1/sequences' })).statusCode).toBe(401);
  });
});
