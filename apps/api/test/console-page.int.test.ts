import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

// The console's page and assets: inside the guarded scope, served from the bundle the install step builds.
describe('the console is served under /console behind the login', () => {
  let f: ApiFixture;
  let empty: ApiFixture;
  let reader: string;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'console-dist-'));
    await writeFile(join(dir, 'console.js'), 'console.log("app")');
    await writeFile(join(dir, 'console.css'), 'body{}');
    f = await apiFixture('console_page', { consoleDir: dir });
    reader = await f.key('read', 'console-page-reader');
    empty = await apiFixture('console_unbuilt', { consoleDir: join(dir, 'missing') });
    await empty.key('read');
  });
  afterAll(async () => {
    await f?.close();
    await empty?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (fx: ApiFixture, url: string, headers: Record<string, string> = {}) =>
    fx.app.inject({ method: 'GET', url, headers });

  it('answers a browser without a session with the login form, coming back to the same page', async () => {
    const res = await get(f, '/console/campaigns', { accept: 'text/html' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('name="next" value="/console/campaigns"');
    expect((await get(f, '/console/assets/console.js')).statusCode).toBe(401);
    // Every spelling the router resolves is guarded too.
    expect((await get(f, '/%63onsole/assets/console.js')).statusCode).toBe(401);
  });

  it('serves the page for every path of the app, with a strict CSP, and its two assets', async () => {
    const auth = { authorization: `Bearer ${reader}` };
    for (const url of [
      '/console',
      '/console/people',
      '/console/enrollments/0b9f1c1e-6a3e-4b8e-9a57-2f0f3d1f6a11',
    ]) {
      const res = await get(f, url, auth);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<script type="module" src="/console/assets/console.js">');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    const js = await get(f, '/console/assets/console.js', auth);
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('text/javascript');
    expect(js.body).toBe('console.log("app")');
    expect((await get(f, '/console/assets/console.css', auth)).headers['content-type']).toContain('text/css');
    // Only the bundle's files: nothing else of the directory, no path out of it.
    expect((await get(f, '/console/assets/other.js', auth)).statusCode).toBe(404);
    expect((await get(f, '/console/assets/..%2F..%2Fpackage.json', auth)).statusCode).toBe(404);
  });

  it('says how to build the console when the bundle is missing', async () => {
    const res = await empty.app.inject({
      method: 'GET',
      url: '/console',
      headers: { authorization: `Bearer ${await empty.key('read')}` },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'console_not_built' });
    expect(res.json().detail).toContain('npm run setup');
  });
});
