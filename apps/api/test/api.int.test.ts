import { createDatabase, createRepositories, type Database } from '@touchbase/db';
import { AlertQueue, createRedis, DomainHealthQueue, TouchQueue } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix, type TestDatabase } from '@touchbase/testing';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../src/index.js';

const logger = createLogger({ name: 'test', level: 'silent' });

const TOKEN = 'test-admin-token-0123456789';

describe('API surface (app.inject, real PostgreSQL and Redis)', () => {
  let tdb: TestDatabase;
  let db: Database;
  let redis: Redis;
  let prefix: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let touchQueue: TouchQueue;
  let domainHealthQueue: DomainHealthQueue;
  let alertQueue: AlertQueue;
  let app: FastifyInstance;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    tdb = await createTestDatabase('api');
    db = createDatabase(tdb.url);
    prefix = await createTestRedisPrefix('api');
    redis = createRedis(prefix.url, 'producer');
    touchQueue = new TouchQueue(redis, prefix.prefix, logger);
    domainHealthQueue = new DomainHealthQueue(redis, prefix.prefix, logger);
    alertQueue = new AlertQueue(redis, prefix.prefix, logger);
    const repos = createRepositories(db);
    app = await buildApi({
      repos,
      touchQueue,
      domainHealthQueue,
      alertQueue,
      enroll: { repos, touchQueue, clock: () => new Date(), timeScale: 1, pacingMs: 0 },
      providerNames: ['sandbox'],
      logger,
      metrics: new Metrics({ defaultMetrics: false }),
      checks: [{ name: 'postgres', check: () => db.pool.query('SELECT 1') }],
      adminToken: TOKEN,
      queues: [touchQueue.queue],
    });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([touchQueue?.close(), domainHealthQueue?.close(), alertQueue?.close()]);
    redis?.disconnect();
    await prefix?.cleanup();
    await db?.close();
    await tdb?.drop();
  });

  it('guards /v1 and Bull Board with the admin token', async () => {
    expect((await app.inject({ url: '/v1/sequences' })).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/v1/sequences', headers: { authorization: 'Bearer wrong' } })).statusCode,
    ).toBe(401);
    expect((await app.inject({ url: '/admin/queues' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/v1/sequences', headers: auth })).statusCode).toBe(200);
    const board = await app.inject({ url: '/admin/queues', headers: auth });
    expect(board.statusCode).toBe(200);
    expect(board.headers['content-type']).toContain('text/html');
  });

  it('serves health, readiness, metrics and the OpenAPI document', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/metrics' })).body).toContain('touchbase_sender_touches_sent_total');
    const spec = (await app.inject({ url: '/docs/json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/v1/sequences', '/v1/enrollments', '/v1/prospects', '/v1/mailboxes']),
    );
  });

  it('refuses a mailbox of an unknown provider naming the field, and malformed JSON as problem+json', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/mailboxes',
      headers: auth,
      payload: { provider: 'carrier-pigeon', address: 'a@b.example' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('body.provider');
    const malformed = await app.inject({
      method: 'POST',
      url: '/v1/sequences',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"name": "x", "steps": [',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toContain('application/problem+json');
  });

  it('links a prospect to its HubSpot record id, and refuses one that is not digits naming the field', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/prospects',
      headers: auth,
      payload: { prospects: [{ email: 'hs@api.example', hubspotId: 'contact-12' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('body.prospects.0.hubspotId');
    expect(bad.json().errors[0].message).toContain('HubSpot record id');
    const ok = await app.inject({
      method: 'POST',
      url: '/v1/prospects',
      headers: auth,
      payload: { prospects: [{ email: 'hs@api.example', hubspotId: '51' }] },
    });
    expect(ok.statusCode).toBe(200);
    const id = ok.json().prospects[0].id;
    const read = (await app.inject({ url: `/v1/prospects/${id}`, headers: auth })).json();
    expect([read.hubspotId, read.linkedinUrl]).toEqual(['51', null]);
    // A second prospect given the same id does not take it: HubSpot's events keep landing where they did.
    await app.inject({
      method: 'POST',
      url: '/v1/prospects',
      headers: auth,
      payload: { prospects: [{ email: 'other@api.example', hubspotId: '51' }] },
    });
    const { rows } = await db.pool.query(
      `SELECT p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id WHERE i.kind = 'hubspot' AND i.value = '51'`,
    );
    expect(rows).toEqual([{ email: 'hs@api.example' }]);
  });

  it('enrolls in bulk with one delayed job each and reports refusals per prospect', async () => {
    const seq = (
      await app.inject({
        method: 'POST',
        url: '/v1/sequences',
        headers: auth,
        payload: { name: 's', steps: [{ subject: 'a', body: 'b', wait: '1d' }] },
      })
    ).json();
    const mb = (
      await app.inject({
        method: 'POST',
        url: '/v1/mailboxes',
        headers: auth,
        payload: { provider: 'sandbox', address: 'sdr@api.example' },
      })
    ).json();
    const ps = (
      await app.inject({
        method: 'POST',
        url: '/v1/prospects',
        headers: auth,
        payload: {
          prospects: [
            { email: 'One@API.example' },
            { email: 'two@api.example' },
            { email: 'three@blocked.example' },
          ],
        },
      })
    ).json().prospects as { id: string; email: string }[];
    expect(ps[0]!.email).toBe('one@api.example');
    await app.inject({
      method: 'POST',
      url: '/v1/suppressions',
      headers: auth,
      payload: { kind: 'domain', value: 'blocked.example' },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/enrollments',
      headers: auth,
      payload: { sequenceId: seq.id, mailboxId: mb.id, prospectIds: ps.map((p) => p.id) },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { enrolled: { id: string }[]; refused: { reason: string }[] };
    expect(body.enrolled).toHaveLength(2);
    expect(body.refused).toEqual([{ prospectId: ps[2]!.id, reason: 'suppressed' }]);
    expect((await touchQueue.existing(body.enrolled.map((e) => `${e.id}-1`))).size).toBe(2);
    const again = await app.inject({
      method: 'POST',
      url: '/v1/enrollments',
      headers: auth,
      payload: { sequenceId: seq.id, mailboxId: mb.id, prospectIds: [ps[0]!.id] },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('already_enrolled');

    const id = body.enrolled[0]!.id;
    const cancelled = await app.inject({
      method: 'POST',
      url: `/v1/enrollments/${id}/cancel`,
      headers: auth,
      payload: { reason: 'test' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect((await touchQueue.existing([`${id}-1`])).size).toBe(0);
    const twice = await app.inject({
      method: 'POST',
      url: `/v1/enrollments/${id}/cancel`,
      headers: auth,
      payload: {},
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'invalid_state', status: 409 });
  });
});

describe('CSV import', () => {
  let tdb: TestDatabase;
  let db: Database;
  let redis: Redis;
  let prefix: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let app: FastifyInstance;
  beforeAll(async () => {
    tdb = await createTestDatabase('csv');
    db = createDatabase(tdb.url);
    // A prefix of its own, deleted afterwards: a fixed one left its meta keys behind in Redis.
    prefix = await createTestRedisPrefix('csv');
    redis = createRedis(prefix.url, 'producer');
    const touchQueue = new TouchQueue(redis, prefix.prefix, logger);
    const repos = createRepositories(db);
    app = await buildApi({
      repos,
      touchQueue,
      domainHealthQueue: new DomainHealthQueue(redis, 'tbtest-csv-unused', logger),
      alertQueue: new AlertQueue(redis, 'tbtest-csv-unused', logger),
      enroll: { repos, touchQueue, clock: () => new Date(), timeScale: 1, pacingMs: 0 },
      providerNames: ['sandbox'],
      logger,
      metrics: new Metrics({ defaultMetrics: false }),
      checks: [],
      queues: [],
    });
  });
  afterAll(async () => {
    await app?.close();
    redis?.disconnect();
    await prefix?.cleanup();
    await db?.close();
    await tdb?.drop();
  });

  const post = (csv: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/prospects/import',
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });

  it('imports rows with quoted fields, mapping known headers and keeping the rest as attributes', async () => {
    const res = await post(
      '\uFEFFEmail,First Name,Company,Job Title\nada@csv.example,Ada,"Acme, Inc.",CTO\ngrace@csv.example,Grace,,"Rear ""Admiral"""\n',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toBe(2);
    const list = (await app.inject({ url: '/v1/prospects' })).json().items as {
      email: string;
      company: string | null;
      attributes: Record<string, string>;
    }[];
    const ada = list.find((p) => p.email === 'ada@csv.example')!;
    expect(ada.company).toBe('Acme, Inc.');
    expect(ada.attributes).toEqual({ Job_Title: 'CTO' });
  });

  // Streamed import (issue 12): good rows are kept, bad ones reported by line and field.
  it('keeps the good rows and reports each bad one by line and field', async () => {
    const before = (await app.inject({ url: '/v1/prospects' })).json().items.length;
    const res = await post('email,timezone\nok@csv.example,Europe/Berlin\nnot-an-address,Mars/Olympus\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 1, rejected: 1 });
    const fields = res.json().errors.map((e: { line: number; field: string }) => `${e.line}.${e.field}`);
    expect(fields).toEqual(expect.arrayContaining(['3.email', '3.timezone']));
    expect((await app.inject({ url: '/v1/prospects' })).json().items.length).toBe(before + 1);
  });

  it('a file that is not CSV is 400 malformed_csv problem+json, saying where', async () => {
    const res = await post('email,company\nada@csv.example,"Acme\n');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 400, title: 'Malformed CSV', code: 'malformed_csv' });
    expect(res.json().detail).toMatch(/quote/i);
  });
});
