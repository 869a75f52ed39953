import { randomBytes, randomUUID } from 'node:crypto';
import { standardWebhookHeaders } from '@touchbase/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzApiProperty, fuzzWebhookProperty } from '../support/fuzz-properties.js';
import { seed, startTestSystem, type TestSystem } from '../support/test-system.js';

/**
 * Invalid requests at every webhook endpoint and every API route (from the API's own
 * OpenAPI document, so new routes are fuzzed without editing this file): malformed
 * JSON, random bytes, bodies past the limit, deep nesting, wrong types, unicode,
 * missing and wrong headers and tokens. No answer may be a 5xx, the process must
 * survive, and no table may gain or lose a row.
 */
const TOKEN = 'fuzz-endpoint-token-0123456789';
const HTTP_SECRET = `whsec_${Buffer.from('fuzz-http-provider-secret-0123456789').toString('base64')}`;
/**
 * Requests of the property-based runs (two thirds to the API, a third to webhooks);
 * FUZZ_REQUESTS=30000 for a longer hunt, FUZZ_SEED to replay a run fast-check reported.
 */
const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  $ref?: string;
  anyOf?: Schema[];
};
type Case = { what: string; init: RequestInit & { headers?: Record<string, string> }; path?: string };
type Finding = { url: string; method: string; what: string; status: number | string; body?: string };

const json = (body: string): Case['init'] => ({ body, headers: { 'content-type': 'application/json' } });
const UNICODE = [
  '💥\u0000\u202e',
  'ｕｕｉｄ',
  '\ud800',
  'Ω≈ç√∫˜µ≤≥÷',
  '👨‍👩‍👧‍👦'.repeat(50),
  '\u0000'.repeat(10),
];
const deep = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;

/** A value of the wrong type for `schema`. */
function wrongFor(schema: Schema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return 12345;
  if (type === 'number' || type === 'integer') return '١٢٣';
  if (type === 'boolean') return 'ja';
  if (type === 'array') return '𝒶𝓇𝓇𝒶𝓎';
  if (type === 'object') return '🧨';
  return [{ '💥': '\u0000' }];
}

/** Whether any string satisfies `schema` (a free-text field), so unicode there could be valid. */
const freeText = (s: Schema) => s.type === 'string' && !s.enum && !s.format && !s.pattern;

/** Request bodies that are invalid for a route whose JSON body follows `schema`. */
function bodyCases(schema: Schema): Case[] {
  const props = schema.properties ?? {};
  const required = schema.required ?? [];
  if (required.length === 0) return [];
  const cases: Case[] = [
    ...oddJsonCases(),
    { what: 'empty object', init: json('{}') },
    { what: 'array instead of object', init: json('[1,2,3]') },
    { what: 'null', init: json('null') },
    {
      what: 'every field of the wrong type',
      init: json(JSON.stringify(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, wrongFor(s)])))),
    },
    {
      what: 'prototype pollution',
      init: json('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}'),
    },
  ];
  if (!required.every((k) => props[k] && freeText(props[k]))) {
    for (const u of UNICODE.slice(0, 3)) {
      cases.push({
        what: `unicode in every field (${JSON.stringify(u).slice(0, 20)})`,
        init: json(JSON.stringify(Object.fromEntries(Object.keys(props).map((k) => [k, u])))),
      });
    }
  }
  return cases;
}

/** Invalid whatever the route: bad syntax, bytes, wrong or missing content type. */
function genericBodyCases(): Case[] {
  return [
    { what: 'malformed JSON', init: json('{"name": "x", "steps": [') },
    { what: 'trailing garbage', init: json('{"a":1}}}}') },
    {
      what: 'random bytes as JSON',
      init: { body: randomBytes(2048), headers: { 'content-type': 'application/json' } },
    },
    { what: 'no content type', init: { body: new Uint8Array(randomBytes(64)) } },
    {
      what: 'form encoded',
      init: { body: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    },
  ];
}

/** Well-formed JSON that no route with a required field accepts: depth, lone surrogates. */
function oddJsonCases(): Case[] {
  return [
    { what: 'JSON nested 20,000 deep', init: json(deep(20_000)) },
    { what: 'lone surrogates', init: json('{"name":"\\ud800\\udc00\\ud800"}') },
  ];
}

const HUGE = `{"x":"${'a'.repeat(25 * 1024 * 1024)}"}`;

async function send(url: string, method: string, c: Case, findings: Finding[]): Promise<number> {
  try {
    const res = await fetch(url, { method, ...c.init, signal: AbortSignal.timeout(20_000) });
    const text = await res.text();
    if (res.status >= 500)
      findings.push({ url, method, what: c.what, status: res.status, body: text.slice(0, 300) });
    return res.status;
  } catch (err) {
    // A reset instead of an answer: only acceptable for a body past the limit, which
    // the server may refuse before reading it all.
    if (c.what !== 'body past the limit')
      findings.push({ url, method, what: c.what, status: `no answer: ${(err as Error).message}` });
    return 0;
  }
}

async function rowCounts(sys: TestSystem): Promise<Record<string, number>> {
  const { rows } = await sys.rt.db.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    const r = await sys.rt.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}"`);
    counts[table_name] = r.rows[0]!.n;
  }
  return counts;
}

describe('fuzz: invalid requests at every webhook endpoint and API route', () => {
  let sys: TestSystem;
  const findings: Finding[] = [];
  beforeAll(async () => {
    sys = await startTestSystem(
      'fuzz',
      {
        HTTP_PROVIDER_WEBHOOK_SECRET: HTTP_SECRET,
        SMARTLEAD_WEBHOOK_TOKEN: TOKEN,
        LEMLIST_WEBHOOK_TOKEN: TOKEN,
        LINKEDIN_WEBHOOK_TOKEN: TOKEN,
        INBOUND_WEBHOOK_TOKEN: TOKEN,
        HUBSPOT_CLIENT_SECRET: TOKEN,
      },
      { withoutSender: true },
    );
    // Something to aim at: a mailbox, a sequence, prospects and an active enrollment.
    const ids = await seed(sys, { steps: 2, prospects: ['fuzz@prospect.example'], wait: '30d' });
    await sys.api('POST', '/v1/enrollments', {
      sequenceId: ids.sequenceId,
      mailboxId: ids.mailboxId,
      prospectIds: ids.prospectIds,
    });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('webhook endpoints: no 5xx, nothing recorded', async () => {
    const before = await rowCounts(sys);
    const events = async () =>
      (await sys.rt.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM event')).rows[0]!.n;
    const recordedFrom: string[] = [];
    /** Sends and notes any event the request recorded. */
    const probe = async (url: string, c: Case, source: string) => {
      const n = await events();
      const status = await send(url, 'POST', c, findings);
      if ((await events()) !== n) recordedFrom.push(`${source}: ${c.what} (${status})`);
      return status;
    };
    let sources = ['sandbox'];
    const ingest = (await import('@touchbase/ingest')) as {
      webhookProvidersFrom?: (c: unknown) => { source: string }[];
    };
    if (ingest.webhookProvidersFrom)
      sources = ingest.webhookProvidersFrom(sys.rt.config).map((p) => p.source);
    const secrets: Record<string, string> = {
      sandbox: sys.rt.config.SANDBOX_WEBHOOK_SECRET,
      http: HTTP_SECRET,
    };
    let requests = 0;
    for (const source of sources) {
      const base = `${sys.ingestUrl}/webhooks/${source}`;
      const cases: Case[] = [
        ...genericBodyCases(),
        ...oddJsonCases(),
        { what: 'no headers, JSON body', init: { body: '{"id":"evt_1","type":"reply"}' } },
        { what: 'wrong signature', init: json('{}') },
        { what: 'body past the limit', init: json(HUGE) },
      ];
      for (const c of cases) {
        requests++;
        const status = await probe(base, c, source);
        // Unauthenticated: refused before the body is read (401), or for its size (413) or syntax (400/415).
        if (status !== 0) expect([400, 401, 404, 413, 415], `${source}: ${c.what}`).toContain(status);
      }
      // Past the signature or token, with bodies that are not events.
      const signedCases = [
        ...[...genericBodyCases(), ...oddJsonCases()].filter((c) => typeof c.init.body === 'string'),
        {
          what: 'wrong types',
          init: json('{"id":12,"type":["reply"],"occurred_at":true,"email":{},"message_id":null}'),
        },
        {
          what: 'unknown event type',
          init: json(
            '{"id":"evt_fuzz","type":"telepathy","occurred_at":"2026-01-01T00:00:00Z","email":"a@b.example","message_id":"<x>"}',
          ),
        },
        {
          what: 'unicode everywhere',
          init: json(
            JSON.stringify({
              id: UNICODE[0],
              type: UNICODE[1],
              occurred_at: UNICODE[2],
              email: UNICODE[3],
              message_id: UNICODE[4],
            }),
          ),
        },
        { what: 'array of garbage', init: json(JSON.stringify([1, 'x', null, { type: 5 }])) },
        { what: 'number', init: json('42') },
      ];
      for (const c of signedCases) {
        const body = String(c.init.body);
        const headers = { ...(c.init.headers ?? {}) };
        let url = base;
        if (secrets[source])
          Object.assign(headers, standardWebhookHeaders(secrets[source], `msg_${randomUUID()}`, body));
        else url = `${base}/${TOKEN}`;
        requests++;
        await probe(url, { what: `authenticated ${c.what}`, init: { ...c.init, headers } }, source);
      }
      for (const token of [encodeURIComponent(UNICODE[0]!), 'x'.repeat(5000), '..%2F..%2Fetc%2Fpasswd']) {
        requests++;
        await send(
          `${base}/${token}`,
          'POST',
          { what: `bad path token ${token.slice(0, 12)}`, init: json('{}') },
          findings,
        );
      }
    }
    for (const path of ['/webhooks/', '/webhooks/%F0%9F%92%A5', '/u/garbage', `/u/${'z'.repeat(3000)}`]) {
      requests++;
      await send(`${sys.ingestUrl}${path}`, 'POST', { what: 'unknown endpoint', init: json('{}') }, findings);
      await send(`${sys.ingestUrl}${path}`, 'GET', { what: 'unknown endpoint', init: {} }, findings);
    }
    expect(findings, 'webhook requests answered 5xx or not at all').toEqual([]);
    expect((await fetch(`${sys.ingestUrl}/healthz`)).status).toBe(200);
    expect(recordedFrom, 'invalid webhooks that recorded an event').toEqual([]);
    expect(await rowCounts(sys)).toEqual(before);
    console.log(JSON.stringify({ test: 'fuzz-webhooks', sources, requests }));
  }, 90_000);

  it('API routes: no 5xx, every invalid write refused with a 4xx, nothing recorded', async () => {
    const before = await rowCounts(sys);
    const doc = (await (await fetch(`${sys.apiUrl}/docs/json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string }[];
            requestBody?: { content: Record<string, { schema: Schema }> };
          }
        >
      >;
      components?: { schemas?: Record<string, Schema> };
    };
    const resolve = (s: Schema): Schema =>
      s.$ref ? resolve(doc.components?.schemas?.[s.$ref.split('/').pop()!] ?? {}) : s;
    let requests = 0;
    let huge = 0;
    const wrong: Finding[] = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const M = method.toUpperCase();
        const write = M !== 'GET' && M !== 'HEAD';
        const params = op.parameters ?? [];
        const pathVariants = params.some((p) => p.in === 'path')
          ? [randomUUID(), encodeURIComponent(UNICODE[0]!), 'not-a-uuid', 'x'.repeat(3000), '%00']
          : [null];
        for (const v of pathVariants) {
          const path = template.replace(/\{[^}]+\}/g, v ?? '');
          const url = `${sys.apiUrl}${path}`;
          const cases: Case[] = [];
          if (write) {
            cases.push(...genericBodyCases());
            const schema = op.requestBody?.content['application/json']?.schema;
            if (schema && v === null) cases.push(...bodyCases(resolve(schema)));
            if (path.endsWith('/import')) {
              cases.push(
                {
                  what: 'CSV of random bytes',
                  init: { body: randomBytes(4096), headers: { 'content-type': 'text/csv' } },
                },
                {
                  what: 'CSV without an email column',
                  init: { body: 'name,company\nA,B\n', headers: { 'content-type': 'text/csv' } },
                },
                {
                  what: 'CSV with a bad address',
                  init: { body: `email\n${UNICODE[0]}\n`, headers: { 'content-type': 'text/csv' } },
                },
              );
            }
            if (huge < 3 && v === null && schema) {
              huge++;
              cases.push({ what: 'body past the limit', init: json(HUGE) });
            }
          } else {
            cases.push({ what: 'plain', init: {} });
            const query = params.filter((p) => p.in === 'query');
            for (const bad of ['-1', encodeURIComponent(UNICODE[1]!), 'x'.repeat(4000), '%00']) {
              if (query.length === 0) break;
              const qs = query.map((p) => `${p.name}=${bad}`).join('&');
              cases.push({ what: `query ${bad.slice(0, 10)}`, init: {}, path: `${path}?${qs}` });
            }
          }
          for (const c of cases) {
            requests++;
            const status = await send(c.path ? `${sys.apiUrl}${c.path}` : url, M, c, findings);
            if (write && status !== 0 && (status < 400 || status >= 500))
              wrong.push({ url: url.slice(0, 120), method: M, what: c.what, status });
          }
        }
      }
    }
    for (const [method, path] of [
      ['DELETE', '/v1/sequences'],
      ['PATCH', '/v1/enrollments'],
      ['POST', '/v1/%F0%9F%92%A5'],
      ['GET', `/v1/${'a/'.repeat(500)}`],
    ] as const) {
      requests++;
      const init = method === 'GET' ? {} : json('{}');
      await send(`${sys.apiUrl}${path}`, method, { what: 'no such route', init }, findings);
    }
    expect(findings, 'API requests answered 5xx or not at all').toEqual([]);
    expect(wrong, 'invalid writes not refused with a 4xx').toEqual([]);
    expect((await fetch(`${sys.apiUrl}/healthz`)).status).toBe(200);
    expect(await rowCounts(sys)).toEqual(before);
    console.log(JSON.stringify({ test: 'fuzz-api', routes: Object.keys(doc.paths).length, requests }));
  }, 120_000);

  // After the tests above, which need the tables as the seed left them: valid
  // requests drawn here may create rows.
  it('property: a signed webhook with NUL and lone surrogates in its ids, address and diagnostic is recorded, made safe', async () => {
    const id = `evt_\u0000${randomUUID()}\ud800`;
    const body = JSON.stringify({
      id,
      type: 'bounce',
      occurred_at: new Date().toISOString(),
      message_id: '<m\u0000@x>',
      email: 'nul\u0000@prospect.example',
      bounce: { hard: true, status: '5.1.1', diagnostic: 'no\u0000such \udc00user' },
    });
    const headers = {
      'content-type': 'application/json',
      ...standardWebhookHeaders(sys.rt.config.SANDBOX_WEBHOOK_SECRET, `msg_${randomUUID()}`, body),
    };
    const res = await fetch(`${sys.ingestUrl}/webhooks/sandbox`, { method: 'POST', headers, body });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, duplicate: false });
    const { rows } = await sys.rt.db.pool.query<{ externalId: string }>(
      `SELECT external_id AS "externalId" FROM event WHERE source = 'sandbox' AND external_id LIKE 'evt_%'`,
    );
    expect(rows.map((r) => r.externalId)).toContain(
      id.replace('\u0000', '\ufffd').replace('\ud800', '\ufffd'),
    );
    // Delivered again (the provider's retry): acknowledged as the same event.
    const again = await fetch(`${sys.ingestUrl}/webhooks/sandbox`, {
      method: 'POST',
      headers: {
        ...headers,
        ...standardWebhookHeaders(sys.rt.config.SANDBOX_WEBHOOK_SECRET, `msg_${randomUUID()}`, body),
      },
      body,
    });
    expect(await again.json()).toMatchObject({ received: true, duplicate: true });
  });

  it('property: every webhook endpoint, bodies from its fields with hostile values, bytes not UTF-8', async () => {
    const ingest = (await import('@touchbase/ingest')) as {
      webhookProvidersFrom: (c: unknown) => { source: string }[];
    };
    const sources = ingest.webhookProvidersFrom(sys.rt.config).map((p) => p.source);
    const stats = await fuzzWebhookProperty(
      sys,
      sources,
      {
        standard: { sandbox: sys.rt.config.SANDBOX_WEBHOOK_SECRET, http: HTTP_SECRET },
        token: TOKEN,
        hubspot: TOKEN,
      },
      Math.ceil(FUZZ_REQUESTS / 3),
      FUZZ_SEED,
    );
    expect((await fetch(`${sys.ingestUrl}/healthz`)).status).toBe(200);
    console.log(JSON.stringify({ test: 'fuzz-webhooks-property', ...stats }));
  }, 300_000);

  it('property: every operation of the OpenAPI document, from its schemas plus hostile values: no 5xx, a refusal records nothing', async () => {
    const stats = await fuzzApiProperty(sys, Math.ceil((FUZZ_REQUESTS * 2) / 3), FUZZ_SEED);
    expect((await fetch(`${sys.apiUrl}/healthz`)).status).toBe(200);
    console.log(JSON.stringify({ test: 'fuzz-api-property', ...stats }));
  }, 300_000);
});
