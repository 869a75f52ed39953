import { randomBytes, randomUUID } from 'node:crypto';
import { signHubspot, standardWebhookHeaders } from '@touchbase/providers';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  hostileString,
  inboundMessageOf,
  type JsonSchema,
  paramOf,
  schemaValue,
  WEBHOOK_TEMPLATES,
  webhookBodyOf,
} from './fuzz-arbitraries.js';
import type { TestSystem } from './test-system.js';

/**
 * The property-based fuzz runs: requests drawn by fast-check for every operation of
 * the API's OpenAPI document and every webhook endpoint, each checked as it is
 * answered: never a 5xx, and a refused request (4xx) records nothing.
 */

type Operation = {
  method: string;
  template: string;
  parameters: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  body?: JsonSchema;
  consumes: string[];
};
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Operation['parameters'];
        requestBody?: { content: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
};
type Drawn = { op: Operation; url: string; body?: string; contentType?: string };

/** Never fuzzed: creating a key would end the open mode every later request relies on. */
const SKIPPED = new Set(['POST /v1/keys']);

/**
 * One statement that counts the rows of every table: what a refused request must leave
 * alone. Not the domain rollup (`domain_stat_delta`, `domain_daily_stat`): the domain
 * guard folds it in the background whatever the requests do.
 */
async function rowCountQuery(sys: TestSystem): Promise<() => Promise<string>> {
  const { rows } = await sys.rt.db.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
       AND table_name NOT IN ('domain_stat_delta', 'domain_daily_stat')`,
  );
  const sql = rows.map((r) => `SELECT '${r.table_name}' AS t, count(*)::int AS n FROM "${r.table_name}"`);
  return async () => {
    const r = await sys.rt.db.pool.query<{ t: string; n: number }>(sql.join(' UNION ALL '));
    return r.rows.map((x) => `${x.t}=${x.n}`).join(',');
  };
}

function operationsOf(doc: Doc): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops)
      .filter(([method]) => !SKIPPED.has(`${method.toUpperCase()} ${template}`))
      .map(([method, op]) => {
        const content = op.requestBody?.content ?? {};
        return {
          method: method.toUpperCase(),
          template,
          parameters: op.parameters ?? [],
          ...(content['application/json']?.schema ? { body: content['application/json'].schema } : {}),
          consumes: Object.keys(content),
        };
      }),
  );
}

const csvOf: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('a@b.example', 'A@B.example', 'c@d.example'),
        fc.emailAddress(),
        hostileString(50),
      ),
      hostileString(50),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map(
    (rows) => `email,first_name\n${rows.map((r) => r.map((v) => JSON.stringify(v)).join(',')).join('\n')}\n`,
  );

/** A request for one operation: parameters and body derived from its schemas, with hostile values mixed in. */
function requestOf(op: Operation, base: string, resolve: (s: JsonSchema) => JsonSchema): fc.Arbitrary<Drawn> {
  const params = (where: string) => op.parameters.filter((p) => p.in === where);
  const pathArb = fc.tuple(...params('path').map((p) => paramOf(p.schema ?? {}, resolve)));
  const queryArb = fc.tuple(
    ...params('query').map((p) =>
      // A manual domain-health run waits up to `wait` seconds: never long here.
      p.name === 'wait'
        ? fc.constant('wait=0')
        : fc
            .option(paramOf(p.schema ?? {}, resolve), { nil: undefined })
            .map((v) => (v === undefined ? '' : `${p.name}=${v}`)),
    ),
  );
  const bodyArb: fc.Arbitrary<{ body?: string; contentType?: string }> = op.consumes.includes('text/csv')
    ? csvOf.map((body) => ({ body, contentType: 'text/csv' }))
    : op.body
      ? schemaValue(op.body, resolve).map((v) => ({
          body: JSON.stringify(v) ?? 'null',
          contentType: 'application/json',
        }))
      : fc.constant({});
  return fc.tuple(pathArb, queryArb, bodyArb).map(([pathValues, query, b]) => {
    let i = 0;
    const path = op.template.replace(/\{[^}]+\}/g, () => pathValues[i++] ?? randomUUID());
    const qs = query.filter(Boolean).join('&');
    return { op, url: `${base}${path}${qs ? `?${qs}` : ''}`, ...b };
  });
}

/**
 * `runs` requests over every operation of the API's OpenAPI document.
 * @returns how many requests were sent and how they were answered (by status class).
 */
export async function fuzzApiProperty(sys: TestSystem, runs: number, seed?: number) {
  const doc = (await (await fetch(`${sys.apiUrl}/docs/json`)).json()) as Doc;
  const resolve = (s: JsonSchema): JsonSchema =>
    s.$ref ? resolve(doc.components?.schemas?.[s.$ref.split('/').pop()!] ?? {}) : s;
  const ops = operationsOf(doc).filter((o) => o.template.startsWith('/v1/'));
  expect(ops.length).toBeGreaterThan(30);
  const counts = await rowCountQuery(sys);
  const answered: Record<string, number> = {};
  const arb = fc.constantFrom(...ops).chain((op) => requestOf(op, sys.apiUrl, resolve));
  await fc.assert(
    fc.asyncProperty(arb, async (r) => {
      const write = r.op.method !== 'GET' && r.op.method !== 'HEAD';
      const before = write ? await counts() : '';
      const res = await fetch(r.url, {
        method: r.op.method,
        ...(r.body !== undefined ? { body: r.body, headers: { 'content-type': r.contentType! } } : {}),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      const what = `${r.op.method} ${r.url.slice(0, 200)} ${String(r.body).slice(0, 300)}`;
      answered[`${Math.floor(res.status / 100)}xx`] =
        (answered[`${Math.floor(res.status / 100)}xx`] ?? 0) + 1;
      expect(res.status, `${what} -> ${text.slice(0, 300)}`).toBeLessThan(500);
      if (write && res.status >= 400) {
        const after = await counts();
        const changed = after.split(',').filter((c) => !before.split(',').includes(c));
        expect(changed, `refused (${res.status}) but recorded: ${what} ${text.slice(0, 200)}`).toEqual([]);
      }
    }),
    { numRuns: runs, ...(seed !== undefined ? { seed } : {}), endOnFailure: true },
  );
  return { operations: ops.length, requests: runs, answered };
}

/** How a webhook is authenticated in the fuzz run: the secrets the system was started with. */
export type WebhookSecrets = { standard: Record<string, string>; token: string; hubspot: string };

/**
 * `runs` signed (or token-carrying) deliveries over every webhook endpoint, bodies
 * from each provider's fields with hostile values mixed in, sometimes bytes that are
 * not UTF-8. Each is authenticated, so a 401 would mean the signature was checked
 * over something else than the bytes sent.
 */
export async function fuzzWebhookProperty(
  sys: TestSystem,
  sources: string[],
  secrets: WebhookSecrets,
  runs: number,
  seed?: number,
) {
  const events = async () =>
    (await sys.rt.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM event')).rows[0]!.n;
  const answered: Record<string, number> = {};
  const bodyFor = (source: string): fc.Arbitrary<Buffer> =>
    fc
      .oneof(
        {
          arbitrary:
            source === 'inbound'
              ? inboundMessageOf
              : webhookBodyOf(WEBHOOK_TEMPLATES[source] ?? WEBHOOK_TEMPLATES.sandbox!).map(
                  (v) => JSON.stringify(v) ?? 'null',
                ),
          weight: 8,
        },
        { arbitrary: fc.constant(null), weight: 1 },
      )
      .map((text) =>
        text === null
          ? Buffer.concat([Buffer.from('{"id":"'), randomBytes(32), Buffer.from('"}')])
          : Buffer.from(text),
      );
  const arb = fc
    .constantFrom(...sources)
    .chain((source) => fc.record({ source: fc.constant(source), body: bodyFor(source) }));
  await fc.assert(
    fc.asyncProperty(arb, async ({ source, body }) => {
      const base = `${sys.ingestUrl}/webhooks/${source}`;
      let url = `${base}/${secrets.token}`;
      const headers: Record<string, string> = {
        'content-type': source === 'inbound' ? 'message/rfc822' : 'application/json',
      };
      const standard = secrets.standard[source];
      if (standard) {
        url = base;
        Object.assign(headers, standardWebhookHeaders(standard, `msg_${randomUUID()}`, body));
      } else if (source === 'hubspot') {
        url = base;
        const ts = String(Date.now());
        headers['x-hubspot-request-timestamp'] = ts;
        headers['x-hubspot-signature-v3'] = signHubspot(secrets.hubspot, 'POST', base, body, ts).toString(
          'base64',
        );
      }
      const before = await events();
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(20_000) });
      const text = await res.text();
      const what = `${source} ${body.toString('utf8').slice(0, 300)} -> ${res.status} ${text.slice(0, 300)}`;
      answered[`${source} ${res.status}`] = (answered[`${source} ${res.status}`] ?? 0) + 1;
      expect(res.status, what).toBeLessThan(500);
      expect(res.status, `authenticated but refused as unauthenticated: ${what}`).not.toBe(401);
      if (res.status >= 400) expect(await events(), `refused but recorded: ${what}`).toBe(before);
    }),
    { numRuns: runs, ...(seed !== undefined ? { seed } : {}), endOnFailure: true },
  );
  return { sources, requests: runs, answered };
}
