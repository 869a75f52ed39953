import type { ChildProcess } from 'node:child_process';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, spawnService } from '../support/child-service.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { seed, startTestSystem, type TestSystem } from '../support/test-system.js';

const ENROLLMENTS = 300;
const STEPS = 3;
const OUTAGE_MS = 10_000;
const TERMINAL = ['replied', 'bounced', 'exhausted'];

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
    const emails = Array.from({ length: ENROLLMENTS }, (_, i) => `p${i}@pgdown.example`);
    const ids = await seed(sys, { steps: STEPS, prospects: emails, wait: '3d' });
    const res = await sys.api('POST', '/v1/enrollments', {
      sequenceId: ids.sequenceId,
      mailboxId: ids.mailboxId,
      prospectIds: ids.prospectIds,
    });
    expect(res.body.enrolled).toHaveLength(ENROLLMENTS);
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
    // While it is down: the API answers (an error, not a hang or a crash) and nothing dies.
    const during = await fetch(`${sys.apiUrl}/v1/enrollments?limit=1`, {
      signal: AbortSignal.timeout(8_000),
    });
    const readyz = await fetch(`${sys.apiUrl}/readyz`, { signal: AbortSignal.timeout(8_000) });
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - cutAt))));
    const duringOutage = sys.sandbox.deliveries().length - atCut;
    expect(senderExit).toBeNull();
    proxy.restore();
    const restoredAt = sys.sandbox.deliveries().length;

    const final = await waitFor(
      'every enrollment to end',
      async () => {
        const { rows } = await sys.rt.db.pool.query<{ status: string; n: number }>(
          'SELECT status::text, count(*)::int AS n FROM enrollment WHERE sequence_id = $1 GROUP BY status',
          [ids.sequenceId],
        );
        const ended = rows.filter((r) => TERMINAL.includes(r.status)).reduce((a, r) => a + r.n, 0);
        return ended === ENROLLMENTS ? Object.fromEntries(rows.map((r) => [r.status, r.n])) : null;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await sys.sandbox.settled();
    expect(senderExit).toBeNull();

    const deliveries = sys.sandbox.deliveries();
    const keys = deliveries.map((d) => `${d.enrollmentId}-${d.step}`);
    expect(new Set(keys).size).toBe(keys.length);
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
