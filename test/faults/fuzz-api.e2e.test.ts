import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSystem } from '../support/test-system.js';
import {
  bodyCases,
  type Case,
  type Finding,
  genericBodyCases,
  HUGE,
  json,
  rowCounts,
  type Schema,
  send,
  startFuzzSystem,
  UNICODE,
} from './fuzz-support.js';

/**
 * Invalid requests at every webhook endpoint and every API route (from the API's own
 * OpenAPI document, so new routes are fuzzed without editing this file): malformed
 * JSON, random bytes, bodies past the limit, deep nesting, wrong types, unicode,
 * missing and wrong headers and tokens. No answer may be a 5xx, the process must
 * survive, and no table may gain or lose a row.
 */
describe('fuzz: invalid requests at every API route', () => {
  let sys: TestSystem;
  const findings: Finding[] = [];
  beforeAll(async () => {
    sys = await startFuzzSystem('fuzz_api');
  });
  afterAll(async () => {
    await sys?.stop();
  });

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
});
