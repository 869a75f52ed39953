import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture, documentedOperations } from './support/api-fixture.js';

const TOKEN = 'path-tricks-admin-token-0123456789';

/** Routes the OpenAPI document hides but the guard covers: Bull Board and the docs UI. */
const HIDDEN_GUARDED = [
  { method: 'GET', url: '/admin/queues' },
  { method: 'GET', url: '/admin/queues/api/queues' },
  { method: 'GET', url: '/admin/queues/static/index.html' },
  { method: 'PUT', url: '/admin/queues/api/queues/touches/clean/completed' },
  { method: 'GET', url: '/docs' },
  { method: 'GET', url: '/docs/json' },
];

/** Every way to spell a path that a server or a proxy might read as the same one. */
function spellings(url: string): string[] {
  const segments = url.split('/').slice(1);
  const first = segments[0] ?? '';
  const rest = url.slice(first.length + 1);
  const encode = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  const out = new Set<string>([url]);
  // One percent-encoded letter in each segment in turn (/%761/sequences, /v1/%73equences).
  segments.forEach((segment, i) => {
    const at = segment.search(/[a-z]/i);
    if (at < 0) return;
    const encoded = [...segments];
    encoded[i] = segment.slice(0, at) + encode(segment[at] as string) + segment.slice(at + 1);
    out.add(`/${encoded.join('/')}`);
  });
  // Every letter encoded, upper-case hex.
  out.add(url.replace(/[a-z]/gi, (c) => encode(c).toUpperCase()));
  out.add(`/${url}`); // //v1/...
  out.add(`/.${url}`); // /./v1/...
  out.add(`/${first}/..${url}`); // /v1/../v1/...
  out.add(`/${first}//${rest.slice(1)}`); // /v1//sequences
  out.add(`/${first}%2F${rest.slice(1)}`); // /v1%2Fsequences
  out.add(url.toUpperCase());
  out.add(`/${first.toUpperCase()}${rest}`); // /V1/...
  out.add(`/${first};x=1${rest}`); // /v1;x=1/sequences
  out.add(`${url};jsessionid=1`);
  out.add(`${url}/`);
  out.add(`${url}?x=1`);
  out.add(`${url}#frag`);
  return [...out];
}

type Answer = { status: number; contentType: string; body: string };

/** A refusal, not a handler's answer: 401 from the guard, or 404 from the router. */
function expectRefused(what: string, res: Answer, method: string): void {
  expect([401, 404], what).toContain(res.status);
  if (method === 'HEAD') return;
  if (res.status === 401 && res.contentType.startsWith('text/html')) {
    expect(res.body, what).toContain('action="/login"');
    return;
  }
  expect(res.contentType, what).toContain('application/problem+json');
  expect(JSON.parse(res.body).code, what).toBe(res.status === 401 ? 'unauthorized' : 'route_not_found');
}

describe('the guard holds for every spelling of every route (app.inject)', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    // Guarded /metrics and /docs (as when bound to 0.0.0.0), so they are tried too.
    f = await apiFixture('path_tricks', { adminToken: TOKEN, auth: () => ({ opsOpen: false }) });
  });
  afterAll(async () => {
    await f?.close();
  });

  const targets = () => {
    const open = new Set(['/healthz', '/readyz']);
    const documented = documentedOperations(f.app).filter((op) => !open.has(op.path));
    return [...documented, ...HIDDEN_GUARDED];
  };

  it('reads the routes from the OpenAPI document (a vacuous pass would try none)', () => {
    const urls = targets().map((t) => t.url);
    expect(urls).toEqual(expect.arrayContaining(['/v1/sequences', '/v1/suppressions', '/metrics']));
    expect(urls.length).toBeGreaterThan(40);
  });

  it('answers 401 or 404, never a 2xx, a 3xx or a handler, to each trick without a key', async () => {
    let tried = 0;
    for (const target of targets()) {
      for (const url of spellings(target.url)) {
        const attempts: { method: string; headers: Record<string, string> }[] = [
          { method: target.method, headers: {} },
          { method: target.method, headers: { accept: 'text/html' } },
          { method: target.method, headers: { authorization: 'Bearer not-a-key' } },
          {
            method: target.method,
            headers: { cookie: 'touchbase_session=eyJrIjoiYWRtaW4tdG9rZW4ifQ.forged' },
          },
          { method: 'HEAD', headers: {} },
          { method: 'OPTIONS', headers: {} },
          ...['GET', 'POST'].flatMap((carrier) =>
            ['x-http-method-override', 'x-http-method', 'x-method-override'].map((h) => ({
              method: carrier,
              headers: { [h]: target.method },
            })),
          ),
        ];
        for (const attempt of attempts) {
          const res = await f.app.inject({
            method: attempt.method as 'GET',
            url,
            headers: attempt.headers,
            ...(['POST', 'PUT'].includes(attempt.method) ? { payload: {} } : {}),
          });
          tried++;
          expectRefused(
            `${attempt.method} ${url} ${JSON.stringify(attempt.headers)}`,
            {
              status: res.statusCode,
              contentType: String(res.headers['content-type'] ?? ''),
              body: res.body,
            },
            attempt.method,
          );
        }
      }
    }
    expect(tried).toBeGreaterThan(5000);
  });

  it('routes the encoded spellings to the real route: with the key they answer, so the 401 above was the guard', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await f.app.inject({ url: '/%761/sequences', headers: auth })).statusCode).toBe(200);
    expect((await f.app.inject({ url: '/%761/sequences' })).statusCode).toBe(401);
    expect((await f.app.inject({ url: '/%61dmin/queues/api/queues', headers: auth })).statusCode).toBe(200);
    expect((await f.app.inject({ url: '/%61dmin/queues/api/queues' })).statusCode).toBe(401);
    expect((await f.app.inject({ url: '/./v1/sequences', headers: auth })).statusCode).toBe(200);
  });

  it('leaves /healthz and /readyz open', async () => {
    expect((await f.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await f.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});

/** One request on a fresh socket, the request-target sent byte for byte as given. */
function rawRequest(port: number, method: string, target: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      const contentType = /^content-type:\s*(.*)$/im.exec(head)?.[1] ?? '';
      resolve({ status, contentType, body });
    });
    const hasBody = method === 'POST' || method === 'PUT';
    socket.write(
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n` +
        (hasBody ? 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}' : '\r\n'),
    );
  });
}

describe('the guard holds on a real socket, where nothing normalises the path first', () => {
  let f: ApiFixture;
  let port: number;
  beforeAll(async () => {
    f = await apiFixture('path_tricks_raw', { adminToken: TOKEN, auth: () => ({ opsOpen: false }) });
    await f.app.listen({ host: '127.0.0.1', port: 0 });
    port = (f.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await f?.close();
  });

  it('answers 401 or 404 to the percent-encoded and dotted spellings of every route', async () => {
    const targets = [
      ...documentedOperations(f.app).filter((op) => !['/healthz', '/readyz'].includes(op.path)),
      ...HIDDEN_GUARDED,
    ];
    let tried = 0;
    for (const target of targets) {
      const [first = ''] = target.url.split('/').slice(1);
      const rest = target.url.slice(first.length + 1);
      const encodedFirst = `/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${rest}`;
      for (const url of [
        target.url,
        encodedFirst,
        target.url.replace(/[a-z]/gi, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
        `/${target.url}`,
        `/.${target.url}`,
        `/${first}/..${target.url}`,
        `/${first};x=1${rest}`,
      ]) {
        const res = await rawRequest(port, target.method, url);
        tried++;
        expectRefused(`${target.method} ${url} (socket)`, res, target.method);
      }
    }
    expect(tried).toBeGreaterThan(250);
  });

  it('the spellings of the issue: /%761/sequences, POST /%761/suppressions, /%61dmin/queues/api/queues', async () => {
    for (const [method, url] of [
      ['GET', '/%761/sequences'],
      ['POST', '/%761/suppressions'],
      ['GET', '/%61dmin/queues/api/queues'],
    ] as const) {
      const res = await rawRequest(port, method, url);
      expect(res.status, url).toBe(401);
    }
    const { rows } = await f.db.pool.query('SELECT count(*)::int AS n FROM suppression');
    expect(rows[0].n).toBe(0);
  });
});
