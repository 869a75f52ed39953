import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { standardWebhookHeaders } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, spawnService } from '../support/child-service.js';
import { assertExactlyOnce } from '../support/exactly-once.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { enrollAll, seed, startTestSystem, type TestSystem, waitForEnded } from '../support/test-system.js';

const ENROLLMENTS = 300;
const STEPS = 3;
const OUTAGE_MS = 10_000;

/** Asserts an RFC 9457 answer saying the database is unavailable, with Retry-After. */
async function expectDatabaseUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ title: 'Database unavailable', status: 503, code: 'database_unavailable' });
  expect(body.type).toEqual(expect.any(String));
  expect(body.detail).toMatch(/database is unavailable/);
}

/**
 * PostgreSQL goes away for 10 s mid-run. The services reach the shared server
 * through a TCP proxy this test owns; cutting it resets every connection and
 * refuses new ones, as a stopped server does. The sender runs as its own process,
 * so a crash shows as its exit; the rest run in this one, where a crash fails the run.
 */
describe('PostgreSQL down for 10 seconds mid-run', () => {
  let sys: TestSystem;
  let proxy: TcpProxy;
  let sender: ChildProcess | undefined;
  beforeAll(async () => {
    const direct = new URL(
      process.env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    );
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const port = await proxy.start();
    sys = await startTestSystem(
      'pgoutage',
      // Some prospects answer, so webhooks arrive during the outage too.
      { SCHEDULER_RECONCILE_INTERVAL_MS: '1000', SANDBOX_REPLY_RATE: '0.1', DATABASE_POOL_SIZE: '10' },
      {
        withoutSender: true,
        databaseUrl: (url) => {
          const u = new URL(url);
          u.port = String(port);
          return u.toString();
        },
      },
    );
  });
  afterAll(async () => {
    if (sender) await killHard(sender);
    proxy?.restore();
    await sys?.stop();
    await proxy?.close();
  });

  it('services neither crash nor lose work; touches continue afterwards, none twice', async () => {
    // A webhook ingest cannot record while the database is away: an out-of-office
    // mail from someone outside the campaign (triaged, it changes no enrollment).
    const webhook = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: 'out_of_office',
      occurred_at: new Date().toISOString(),
      message_id: `<${randomUUID()}@elsewhere.example>`,
      email: 'away@stranger.example',
      text: 'I am out of the office.',
    });
    const postWebhook = () =>
      fetch(`${sys.ingestUrl}/webhooks/sandbox`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...standardWebhookHeaders(sys.rt.config.SANDBOX_WEBHOOK_SECRET, JSON.parse(webhook).id, webhook),
        },
        body: webhook,
        signal: AbortSignal.timeout(8_000),
      });
    const emails = Array.from({ length: ENROLLMENTS }, (_, i) => `p${i}@pgdown.example`);
    const ids = await seed(sys, { steps: STEPS, prospects: emails, wait: '3d' });
    await enrollAll(sys, ids);
    let senderExit: string | null = null;
    sender = spawnService('sender', {
      ...sys.env,
      SANDBOX_URL: sys.sandbox.url,
      SENDER_CONCURRENCY: '20',
    });
    sender.once('exit', (code, signal) => {
      senderExit = `${signal ?? code}`;
    });

    await waitFor(
      'a quarter of the touches',
      () => sys.sandbox.deliveries().length >= (ENROLLMENTS * STEPS) / 4,
      { timeoutMs: 40_000, intervalMs: 5 },
    );
    const atCut = sys.sandbox.deliveries().length;
    proxy.cutOff();
    const cutAt = Date.now();
    // While it is down: the API and ingest answer 503 problem+json with Retry-After
    // (not a hang, a 500 or a crash), so clients and the provider try again.
    const during = await fetch(`${sys.apiUrl}/v1/enrollments?limit=1`, {
      signal: AbortSignal.timeout(8_000),
    });
    await expectDatabaseUnavailable(during);
    await expectDatabaseUnavailable(await postWebhook());
    const readyz = await fetch(`${sys.apiUrl}/readyz`, { signal: AbortSignal.timeout(8_000) });
    // Not ready, and says why, as problem+json.
    expect(readyz.status).toBe(503);
    expect(readyz.headers.get('content-type')).toContain('application/problem+json');
    const notReady = (await readyz.json()) as { checks: Record<string, string>; detail: string };
    expect(notReady).toMatchObject({ status: 503, code: 'not_ready', checks: { redis: 'ok' } });
    expect(notReady.checks.postgres).not.toBe('ok');
    expect(notReady.detail).toMatch(/^postgres: /);
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - cutAt))));
    const duringOutage = sys.sandbox.deliveries().length - atCut;
    expect(senderExit).toBeNull();
    proxy.restore();
    const restoredAt = sys.sandbox.deliveries().length;
    // Back: 2xx again, and the webhook the provider redelivers is recorded, once.
    await waitFor(
      'the API to answer 200',
      async () => (await fetch(`${sys.apiUrl}/v1/enrollments?limit=1`)).status === 200,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const redelivered = await waitFor(
      'ingest to take the webhook',
      async () => {
        const res = await postWebhook();
        return res.status === 200 ? res : null;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(await redelivered.json()).toMatchObject({ received: true, duplicate: false });
    const redeliveredAgain = await postWebhook();
    expect(redeliveredAgain.status).toBe(200);
    expect(await redeliveredAgain.json()).toMatchObject({ received: true, duplicate: true });

    const final = await waitForEnded(sys, ids.sequenceId, ENROLLMENTS, { timeoutMs: 60_000 });
    await sys.sandbox.settled();
    expect(senderExit).toBeNull();
    // A touch handed over just before the cut whose record the cut refused stays in
    // doubt until its job's retry asks the provider; its enrollment may have ended
    // meanwhile (a reply). Wait for those to settle before comparing.
    const inDoubt = await waitFor(
      'touches in doubt to be settled',
      async () => {
        const { rows } = await sys.rt.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
           WHERE e.sequence_id = $1 AND t.status = 'sending'`,
          [ids.sequenceId],
        );
        return rows[0]!.n === 0 ? { settled: true } : null;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(inDoubt.settled).toBe(true);

    const deliveries = sys.sandbox.deliveries();
    assertExactlyOnce(deliveries);
    expect(deliveries.length).toBeGreaterThan(restoredAt);
    // Every delivery is recorded as sent, and every exhausted enrollment got all its touches.
    const sent = await sys.rt.db.pool.query<{ n: number; exhaustedTouches: number; exhausted: number }>(
      `SELECT count(*)::int AS n,
              count(*) FILTER (WHERE e.status = 'exhausted')::int AS "exhaustedTouches",
              count(DISTINCT e.id) FILTER (WHERE e.status = 'exhausted')::int AS exhausted
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE e.sequence_id = $1 AND t.status = 'sent'`,
      [ids.sequenceId],
    );
    const row = sent.rows[0]!;
    if (row.n !== deliveries.length) {
      // Say which delivered touches are not recorded as sent, and as what.
      const { rows: notSent } = await sys.rt.db.pool.query(
        `SELECT t.enrollment_id, t.step, t.attempt, t.status::text, e.status::text AS enrollment FROM touch t
         JOIN enrollment e ON e.id = t.enrollment_id WHERE e.sequence_id = $1 AND t.status <> 'sent'`,
        [ids.sequenceId],
      );
      expect({ sent: row.n, notSent }).toEqual({ sent: deliveries.length, notSent: [] });
    }
    expect(row.n).toBe(deliveries.length);
    expect(row.exhaustedTouches).toBe(row.exhausted * STEPS);
    // Each reply the sandbox sent during or after the outage was recorded once.
    const events = await sys.rt.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM event WHERE source = 'sandbox' AND type = 'reply'",
    );
    expect(events.rows[0]!.n).toBe(final.replied ?? 0);
    console.log(
      JSON.stringify({
        test: 'postgres-outage',
        outageMs: OUTAGE_MS,
        apiStatusDuringOutage: during.status,
        readyzDuringOutage: readyz.status,
        deliveriesBeforeCut: atCut,
        deliveriesDuringOutage: duringOutage,
        deliveriesAfterRestore: deliveries.length - restoredAt,
        final,
        providerRequests: sys.sandbox.stats().requests,
      }),
    );
  }, 120_000);
});
