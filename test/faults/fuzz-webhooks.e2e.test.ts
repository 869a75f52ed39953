import { randomUUID } from 'node:crypto';
import { standardWebhookHeaders } from '@touchbase/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSystem } from '../support/test-system.js';
import {
  type Case,
  type Finding,
  genericBodyCases,
  HTTP_SECRET,
  HUGE,
  json,
  oddJsonCases,
  rowCounts,
  send,
  startFuzzSystem,
  TOKEN,
  UNICODE,
} from './fuzz-support.js';

/**
 * Invalid requests at every webhook endpoint and every API route (from the API's own
 * OpenAPI document, so new routes are fuzzed without editing this file): malformed
 * JSON, random bytes, bodies past the limit, deep nesting, wrong types, unicode,
 * missing and wrong headers and tokens. No answer may be a 5xx, the process must
 * survive, and no table may gain or lose a row.
 */
describe('fuzz: invalid requests at every webhook endpoint', () => {
  let sys: TestSystem;
  const findings: Finding[] = [];
  beforeAll(async () => {
    sys = await startFuzzSystem('fuzz');
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
});
