import { applyMigrations, ensureDatabase } from '@touchbase/db';
import { loadRuntimeConfig, openRuntime, type Runtime } from '@touchbase/runtime';
import { createTestRedisPrefix, freePort } from '@touchbase/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../apps/api/src/start.js';
import { type ReplicaPair, startReplicaPair } from '../support/pg-replica-pair.js';
import { steps } from '../support/test-system.js';

type Answer = { status: number; body: any };

async function one<T>(url: string, sql: string, params: unknown[] = []): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows[0] as T;
  } finally {
    await c.end();
  }
}

/**
 * DATABASE_REPLICA_URL against a real streaming replica: a primary (initdb +
 * postgres) and a hot standby (pg_basebackup -R) the test starts on free ports.
 * Ownership is proven by freezing the standby's replay: a row written through the
 * API then exists on the primary only, so a list that lacks it was answered by the
 * replica, and a mutating route that shows it read its own write on the primary.
 */
describe('read replica (DATABASE_REPLICA_URL)', () => {
  let pair: ReplicaPair;
  let rt: Runtime;
  let app: FastifyInstance;
  let redis: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let env: Record<string, string>;
  const api = async (method: string, url: string, body?: unknown): Promise<Answer> => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
  };

  beforeAll(async () => {
    pair = await startReplicaPair('touchbase', async (url) => {
      await ensureDatabase(url);
      await applyMigrations({ databaseUrl: url });
      await one(url, 'CREATE EXTENSION pg_stat_statements');
    });
    redis = await createTestRedisPrefix('replica');
    env = {
      DATABASE_URL: pair.primaryUrl,
      DATABASE_REPLICA_URL: pair.replicaUrl,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      API_PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_POOL_SIZE: '4',
    };
    rt = await openRuntime({ name: 'api', config: loadRuntimeConfig(env) });
    app = await startApi(rt, { pacingMs: 0 });
  }, 120_000);

  afterAll(async () => {
    await rt?.shutdown.run();
    await redis?.cleanup();
    await pair?.stop();
  });

  it('the replica is a read-only standby of the primary', async () => {
    expect(await one(pair.replicaUrl, 'SELECT pg_is_in_recovery() AS r')).toEqual({ r: true });
    expect(await one(pair.primaryUrl, 'SELECT pg_is_in_recovery() AS r')).toEqual({ r: false });
    expect(rt.replica).toBeDefined();
    expect(rt.reads).not.toBe(rt.repos);
  });

  it('lists and stats answer from the replica; writes and their read-backs from the primary', async () => {
    const mailbox = await api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'sdr@replica.example',
      windowDays: [],
    });
    expect(mailbox.status).toBe(201);
    const sequence = await api('POST', '/v1/sequences', { name: 'replica', steps: steps(2, '3d') });
    expect(sequence.status).toBe(201);
    const first = await api('POST', '/v1/prospects', { prospects: [{ email: 'first@acme.example' }] });
    const firstId = first.body.prospects[0].id as string;
    const enrolled = await api('POST', '/v1/enrollments', {
      sequenceId: sequence.body.id,
      mailboxId: mailbox.body.id,
      prospectIds: [firstId],
    });
    expect(enrolled.status).toBe(201);
    await pair.caughtUp();
    const statsBefore = await api('GET', `/v1/stats?sequenceId=${sequence.body.id}`);
    expect(statsBefore.status).toBe(200);
    const funnelBefore = await api('GET', `/v1/sequences/${sequence.body.id}/funnel`);
    expect(funnelBefore.body.total.enrolled).toBe(1);

    // From here the replica is frozen: whatever the API writes exists on the primary only.
    await pair.pauseReplay();
    const marker = await api('POST', '/v1/suppressions', { kind: 'email', value: 'marker@replica.example' });
    expect(marker.status).toBe(201);
    const second = await api('POST', '/v1/prospects', { prospects: [{ email: 'second@acme.example' }] });
    const secondId = second.body.prospects[0].id as string;
    const enrolledLate = await api('POST', '/v1/enrollments', {
      sequenceId: sequence.body.id,
      mailboxId: mailbox.body.id,
      prospectIds: [secondId],
    });
    expect(enrolledLate.status).toBe(201);
    const lateId = enrolledLate.body.enrolled[0].id as string;

    // Read-your-writes on the primary: a mutating route's answer, a by-id read, the safety check.
    const paused = await api('POST', `/v1/enrollments/${lateId}/pause`, { reason: 'replica test' });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: lateId, status: 'paused' });
    expect((await api('GET', `/v1/enrollments/${lateId}`)).body.status).toBe('paused');
    expect((await api('GET', `/v1/prospects/${secondId}`)).status).toBe(200);
    const check = await api('GET', '/v1/suppressions/check?email=marker@replica.example');
    expect(check.body.suppressed).toBe(true);
    // A waiting reason for an enrollment the replica has not seen yet is asked of the primary.
    const waiting = await api('GET', `/v1/enrollments/${lateId}/waiting`);
    expect(waiting.status).toBe(200);
    expect(waiting.body.waiting).toMatchObject({ reason: 'paused' });

    // Lists and stats: the replica's view, without what was written since the freeze.
    const values = (r: Answer) => (r.body.items as { value: string }[]).map((s) => s.value);
    expect(values(await api('GET', '/v1/suppressions'))).not.toContain('marker@replica.example');
    const prospectIds = (await api('GET', '/v1/prospects')).body.items.map((p: { id: string }) => p.id);
    expect(prospectIds).toEqual([firstId]);
    expect((await api('GET', `/v1/enrollments?prospectId=${secondId}`)).body.items).toEqual([]);
    expect((await api('GET', `/v1/stats?sequenceId=${sequence.body.id}`)).body).toEqual(statsBefore.body);
    expect((await api('GET', `/v1/sequences/${sequence.body.id}/funnel`)).body.total.enrolled).toBe(1);
    const summary = await api('GET', `/v1/enrollments/waiting/summary?sequenceId=${sequence.body.id}`);
    expect(summary.body.total).toBe(1);
    const audit = await api('GET', '/v1/audit?entityType=enrollment');
    expect(audit.body.items.map((a: { entityId: string }) => a.entityId)).not.toContain(lateId);

    // Replay resumes: the same lists catch up with the primary.
    await pair.resumeReplay();
    await pair.caughtUp();
    expect(values(await api('GET', '/v1/suppressions'))).toContain('marker@replica.example');
    expect((await api('GET', `/v1/enrollments?prospectId=${secondId}`)).body.items).toHaveLength(1);
    expect((await api('GET', `/v1/sequences/${sequence.body.id}/funnel`)).body.total.enrolled).toBe(2);
    const after = await api('GET', `/v1/enrollments/waiting/summary?sequenceId=${sequence.body.id}`);
    expect(after.body.byReason.paused).toBe(1);
  });

  it("pg_stat_statements: the list's statement ran on the replica, never on the primary", async () => {
    // Counted per server, at each statement's end; the extension was created on the
    // primary before the base backup, so both servers have the view.
    // The prospect list's statement (a page, with the optional search), by two of its parts.
    const LIST = [
      '%FROM prospect%WHERE merged_into IS NULL AND ($1::uuid IS NULL OR id > $1)%',
      '%ORDER BY id LIMIT $2',
    ];
    const calls = (url: string) =>
      one<{ n: number }>(
        url,
        'SELECT COALESCE(sum(calls), 0)::int AS n FROM pg_stat_statements WHERE query LIKE $1 AND query LIKE $2',
        LIST,
      ).then((r) => r.n);
    const [replica0, primary0] = [await calls(pair.replicaUrl), await calls(pair.primaryUrl)];
    const READS = 25;
    for (let i = 0; i < READS; i++) expect((await api('GET', '/v1/prospects?limit=5')).status).toBe(200);
    expect((await calls(pair.replicaUrl)) - replica0).toBe(READS);
    expect((await calls(pair.primaryUrl)) - primary0).toBe(0);
  });

  it('with the replica down, its reads answer 503 problem+json and writes still work', async () => {
    await pair.stopStandby();
    const list = await app.inject({ method: 'GET', url: '/v1/prospects' });
    expect(list.statusCode).toBe(503);
    expect(list.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(list.headers['retry-after'])).toBeGreaterThan(0);
    const write = await api('POST', '/v1/prospects', { prospects: [{ email: 'third@acme.example' }] });
    expect(write.status).toBe(200);
    expect((await api('GET', `/v1/prospects/${write.body.prospects[0].id}`)).status).toBe(200);
  });

  it('refuses to start when DATABASE_REPLICA_URL leads nowhere, naming the variable', async () => {
    const nowhere = `postgresql://postgres@127.0.0.1:${await freePort()}/touchbase`;
    const bad = await openRuntime({
      name: 'api',
      config: loadRuntimeConfig({ ...env, DATABASE_REPLICA_URL: nowhere }),
    });
    try {
      await expect(startApi(bad)).rejects.toThrow(/DATABASE_REPLICA_URL/);
    } finally {
      await bad.shutdown.run();
    }
  });
});
