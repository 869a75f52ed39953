import { randomBytes } from 'node:crypto';
import { seed, startTestSystem, type TestSystem } from '../support/test-system.js';

/**
 * Invalid requests at every webhook endpoint and every API route (from the API's own
 * OpenAPI document, so new routes are fuzzed without editing this file): malformed
 * JSON, random bytes, bodies past the limit, deep nesting, wrong types, unicode,
 * missing and wrong headers and tokens. No answer may be a 5xx, the process must
 * survive, and no table may gain or lose a row.
 */
export const TOKEN = 'fuzz-endpoint-token-0123456789';
export const HTTP_SECRET = `whsec_${Buffer.from('fuzz-http-provider-secret-0123456789').toString('base64')}`;

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  $ref?: string;
  anyOf?: Schema[];
};
export type Case = { what: string; init: RequestInit & { headers?: Record<string, string> }; path?: string };
export type Finding = { url: string; method: string; what: string; status: number | string; body?: string };

export const json = (body: string): Case['init'] => ({
  body,
  headers: { 'content-type': 'application/json' },
});
export const UNICODE = [
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
export function bodyCases(schema: Schema): Case[] {
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
export function genericBodyCases(): Case[] {
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
export function oddJsonCases(): Case[] {
  return [
    { what: 'JSON nested 20,000 deep', init: json(deep(20_000)) },
    { what: 'lone surrogates', init: json('{"name":"\\ud800\\udc00\\ud800"}') },
  ];
}

export const HUGE = `{"x":"${'a'.repeat(25 * 1024 * 1024)}"}`;

export async function send(url: string, method: string, c: Case, findings: Finding[]): Promise<number> {
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

export async function rowCounts(sys: TestSystem): Promise<Record<string, number>> {
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

/** The whole system (without the sender) with every webhook endpoint open, and an active enrollment to aim at. */
export async function startFuzzSystem(label: string): Promise<TestSystem> {
  const sys = await startTestSystem(
    label,
    {
      HTTP_PROVIDER_WEBHOOK_SECRET: HTTP_SECRET,
      SMARTLEAD_WEBHOOK_TOKEN: TOKEN,
      LEMLIST_WEBHOOK_TOKEN: TOKEN,
      LINKEDIN_WEBHOOK_TOKEN: TOKEN,
      UNIPILE_WEBHOOK_TOKEN: TOKEN,
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
  return sys;
}
