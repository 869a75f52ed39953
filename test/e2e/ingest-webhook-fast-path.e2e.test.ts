import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { startIngest } from '@touchbase/ingest';
import { standardWebhookHeaders } from '@touchbase/providers';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSystem } from '../support/test-system.js';
import { eventCount, startWebhookSystem, WEBHOOK_ENV } from './ingest-support.js';

type Answer = { status: number; type: string; retryAfter: string | null; body: unknown };
type Request = { path: string; body: string; headers: Record<string, string> };

/**
 * Ingest answers the canonical spelling of a webhook route (`POST /webhooks/{source}`)
 * on Node's HTTP server before Fastify routes (the fast path); every other request
 * goes to Fastify, which serves the same endpoints. These tests hold the two to the
 * same answers: each request is sent to the server and, through `inject`, to Fastify
 * alone; and no spelling of a path lets an unsigned delivery through.
 */
describe('ingest: the webhook fast path answers as Fastify does', () => {
  let sys: TestSystem;
  let app: FastifyInstance;
  let target: { host: string; port: number };

  beforeAll(async () => {
    ({ sys } = await startWebhookSystem('ingest_fast_path'));
    // A second ingest on the same runtime: its server to call, and its Fastify to inject into.
    app = await startIngest(sys.rt);
    target = { host: '127.0.0.1', port: (app.server.address() as { port: number }).port };
  });
  afterAll(async () => {
    await sys?.stop();
  });

  // node:http with a path (not a URL) sends it as written; fetch would resolve `/./` first.
  const viaServer = (r: Request): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ ...target, path: r.path, method: 'POST', headers: r.headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'] ?? '',
            retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
            body: text ? JSON.parse(text) : null,
          }),
        );
      });
      req.on('error', reject);
      req.end(r.body);
    });
  const viaFastify = async (r: Request): Promise<Answer> => {
    const res = await app.inject({ method: 'POST', url: r.path, headers: r.headers, payload: r.body });
    return {
      status: res.statusCode,
      type: String(res.headers['content-type'] ?? ''),
      retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
      body: res.body ? JSON.parse(res.body) : null,
    };
  };
  const json = { 'content-type': 'application/json' };
  const signed = (payload: object | string, opts: { id?: string; nowMs?: number; secret?: string } = {}) => {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const headers = standardWebhookHeaders(
      opts.secret ?? WEBHOOK_ENV.HTTP_PROVIDER_WEBHOOK_SECRET,
      opts.id ?? `msg_${randomUUID()}`,
      body,
      opts.nowMs,
    );
    return { body, headers: { ...json, ...headers } };
  };
  const opened = (over: object = {}) => ({
    type: 'opened',
    occurred_at: new Date().toISOString(),
    email: `nobody-${randomUUID()}@fast-path.example`,
    ...over,
  });

  it('refusals: the same status, content type, Retry-After and problem+json from both, nothing recorded', async () => {
    const before = await eventCount(sys);
    const cases: Record<string, Request> = {
      'bad signature': {
        path: '/webhooks/http',
        ...signed(opened(), { secret: 'whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==' }),
      },
      'stale timestamp': { path: '/webhooks/http', ...signed(opened(), { nowMs: Date.now() - 3_600_000 }) },
      'missing headers': { path: '/webhooks/http', body: JSON.stringify(opened()), headers: json },
      'malformed JSON': { path: '/webhooks/http', ...signed('{"type": "opened",') },
      'a bad field': { path: '/webhooks/http', ...signed(opened({ occurred_at: 'yesterday' })) },
      'names nobody': {
        path: '/webhooks/http',
        ...signed({ type: 'opened', occurred_at: new Date().toISOString() }),
      },
      'unknown type': { path: '/webhooks/http', ...signed(opened({ type: 'telepathy' })) },
      'over the limit': { path: '/webhooks/http', ...signed(opened({ text: 'x'.repeat(70_000) })) },
      'charset spelled otherwise': {
        path: '/webhooks/http',
        ...signed(opened({ occurred_at: 'yesterday' })),
        headers: { ...signed(opened()).headers, 'content-type': 'application/json;charset=UTF-8' },
      },
      'a token endpoint without its token': { path: '/webhooks/smartlead', body: '{}', headers: json },
      'a token endpoint with a wrong token header': {
        path: '/webhooks/lemlist',
        body: '{}',
        headers: { ...json, 'x-webhook-token': 'wrong' },
      },
      'an empty body': { path: '/webhooks/http', ...signed('') },
    };
    for (const [what, r] of Object.entries(cases)) {
      const server = await viaServer(r);
      expect(server.status, what).toBeGreaterThanOrEqual(400);
      expect(server.type, what).toMatch(/^application\/problem\+json/);
      expect(server, what).toEqual(await viaFastify(r));
    }
    expect(await eventCount(sys)).toBe(before);
  });

  it('a refusal on the fast path is counted by why, as on the route', async () => {
    const counted = async () => {
      const metric = await sys.rt.metrics.eventsReceived.get();
      return metric.values
        .filter((v) => v.labels.source === 'http' && v.labels.outcome === 'rejected_bad_signature')
        .reduce((n, v) => n + v.value, 0);
    };
    const before = await counted();
    const r = { path: '/webhooks/http', ...signed(opened(), { secret: 'whsec_b3RoZXItc2VjcmV0LXdyb25n' }) };
    expect((await viaServer(r)).status).toBe(401);
    expect(await counted()).toBe(before + 1);
  });

  it('a signed delivery: the same answer from both; a redelivery is a duplicate through either', async () => {
    const withoutIds = (a: Answer) => JSON.parse(JSON.stringify(a).replaceAll(/"[0-9a-f-]{36}"/g, '"id"'));
    const r = { path: '/webhooks/http', ...signed(opened()) };
    const first = await viaServer(r);
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/json; charset=utf-8');
    expect(first.body).toMatchObject({ received: true, duplicate: false, outcome: 'unknown_prospect' });
    const again = await viaFastify(r);
    expect(again.body).toMatchObject({ received: true, duplicate: true });
    expect(await viaServer(r)).toEqual(again);
    // Recorded by Fastify first: the same fresh answer, and a duplicate on the fast path.
    const other = { path: '/webhooks/http', ...signed(opened()) };
    expect(withoutIds(await viaFastify(other))).toEqual(withoutIds(first));
    expect(await viaServer(other)).toEqual(again);
  });

  it('every other spelling of the path goes to Fastify: the same answer, and never an unsigned delivery through', async () => {
    const before = await eventCount(sys);
    const spellings = [
      '/webhooks/%68ttp',
      '/webhooks/%73andbox',
      '/%77ebhooks/http',
      '//webhooks/http',
      '/webhooks//http',
      '/webhooks/http/',
      '/webhooks/HTTP',
      '/WEBHOOKS/http',
      '/webhooks/http?x=1',
      '/webhooks/http;x=1',
      '/webhooks/http%2F',
      '/webhooks/http%00',
    ];
    for (const path of spellings) {
      for (const [what, r] of Object.entries({
        unsigned: { path, body: JSON.stringify(opened()), headers: json },
        'wrongly signed': {
          path,
          ...signed(opened(), { secret: 'whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==' }),
        },
      })) {
        const server = await viaServer(r);
        expect([401, 404], `${what} ${path}`).toContain(server.status);
        expect(server, `${what} ${path}`).toEqual(await viaFastify(r));
      }
    }
    // inject resolves `/./` before Fastify sees it, so this one is held to the rule alone.
    for (const path of ['/webhooks/./http', '/webhooks/../webhooks/http']) {
      const r = { path, body: JSON.stringify(opened()), headers: json };
      expect([401, 404], path).toContain((await viaServer(r)).status);
    }
    expect(await eventCount(sys), 'unsigned deliveries recorded').toBe(before);
    // A spelling Fastify's router resolves to the route is the route: signed, it is taken.
    const encoded = await viaServer({ path: '/webhooks/%68ttp', ...signed(opened()) });
    expect(encoded.status).toBe(200);
    expect(await eventCount(sys)).toBe(before + 1);
  });
});
