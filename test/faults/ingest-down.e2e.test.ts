import type { ChildProcess } from 'node:child_process';
import { loadRuntimeConfig } from '@touchbase/runtime';
import { freePort, waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRecover } from '../../cli/src/commands/recover.command.js';
import { createMailbox, importProspects } from '../e2e/ingest-support.js';
import { killHard, spawnService } from '../support/child-service.js';
import { startTestSystem, steps, type TestSystem } from '../support/test-system.js';

const PROSPECTS = 60;
/** Enrolled once ingest is back: answers that must come through by webhook again. */
const LATE_PROSPECTS = 10;
// One day of a sequence lasts 300 ms (TIME_SCALE 288000). First touches one per
// 100 ms slot: the answers flow for about 6 s, past ingest's restart.
const PACING_MS = 100 * 288_000;

/** What the sandbox answers each prospect with, by its index: every kind, at steps 1 and 2. */
function scriptOf(i: number): { outcome: 'reply' | 'bounce' | 'out_of_office'; afterStep: number } | null {
  switch (i % 5) {
    case 0:
      return { outcome: 'reply', afterStep: 1 };
    case 1:
      return { outcome: 'reply', afterStep: 2 };
    case 2:
      return { outcome: 'bounce', afterStep: 1 };
    case 3:
      return { outcome: 'out_of_office', afterStep: 2 };
    default:
      return null;
  }
}

type EnrollmentRow = {
  id: string;
  email: string;
  status: string;
  current_step: number;
  stop_reason: string | null;
  next_touch_at: Date | null;
};

/**
 * Ingest (its own process) is killed with SIGKILL while the sandbox answers a
 * running campaign with replies, bounces and out-of-office mails, and stays down
 * until the sandbox has given up on some webhooks (3 pushes over ~300 ms here,
 * SANDBOX_WEBHOOK_*). Once it is back, `touchbase recover --provider sandbox` walks
 * the sandbox's event stream from the stored cursor: every event is then recorded
 * exactly once and applied, and recovering again changes nothing.
 *
 * The sender's pre-send look at the provider is off, so that recovery, not the
 * sender, is what ends the enrollments whose webhooks were lost; the last step
 * waits 300 days, so no enrollment is exhausted before its lost reply is recovered.
 */
describe('ingest down while the sandbox sends events; recovery applies each once', () => {
  let sys: TestSystem;
  let ingest: ChildProcess | null = null;
  let ingestEnv: Record<string, string>;

  beforeAll(async () => {
    sys = await startTestSystem(
      'ingest_down',
      {
        SANDBOX_WEBHOOK_ATTEMPTS: '3',
        SANDBOX_WEBHOOK_BACKOFF_MS: '100',
        SANDBOX_WEBHOOK_MAX_BACKOFF_MS: '200',
        SENDER_PROVIDER_RECHECK: 'false',
      },
      { pacingMs: PACING_MS },
    );
    ingestEnv = { ...sys.env, INGEST_PORT: String(await freePort()) };
    // The in-process ingest stays idle: the sandbox answers the child's.
    sys.sandbox.setWebhookUrl(`http://127.0.0.1:${ingestEnv.INGEST_PORT}/webhooks/sandbox`);
  });
  afterAll(async () => {
    if (ingest) await killHard(ingest);
    await sys?.stop();
  });

  async function startIngest(): Promise<void> {
    ingest = spawnService('ingest', ingestEnv);
    await waitFor(
      'ingest up',
      async () => (await fetch(`http://127.0.0.1:${ingestEnv.INGEST_PORT}/healthz`)).ok,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  }

  const recover = async (): Promise<Record<string, unknown>> => {
    const lines: string[] = [];
    // The sandbox runs in this process on a free port: tell recovery where.
    const config = loadRuntimeConfig({ ...sys.env, SANDBOX_URL: sys.sandbox.url });
    expect(await runRecover(config, { provider: 'sandbox', pageSize: 7 }, (l) => lines.push(l))).toBe(0);
    return JSON.parse(lines[0]!);
  };

  it('every sandbox event recorded exactly once and applied; a second recovery changes nothing', async () => {
    const mailboxId = await createMailbox(sys);
    const sequence = await sys.api('POST', '/v1/sequences', {
      name: 'ingest-down',
      steps: steps(3, '1d').map((s, i) => (i === 2 ? { ...s, wait: '300d' } : s)),
    });
    expect(sequence.status).toBe(201);
    const emails = Array.from({ length: PROSPECTS + LATE_PROSPECTS }, (_, i) => `p${i}@ingest-down.example`);
    emails.forEach((email, i) => {
      const s = scriptOf(i);
      if (s) sys.sandbox.script(email, s.outcome, s.afterStep);
    });
    const prospectIds = await importProspects(
      sys,
      emails.map((email) => ({ email })),
    );

    await startIngest();
    const enroll = async (ids: string[]) => {
      const res = await sys.api('POST', '/v1/enrollments', {
        sequenceId: sequence.body.id,
        mailboxId,
        prospectIds: ids,
      });
      expect(res.body.enrolled).toHaveLength(ids.length);
    };
    await enroll(prospectIds.slice(0, PROSPECTS));

    // Kill it while the answers flow: a few got through, most are still to come.
    await waitFor('some webhooks acknowledged', () => sys.sandbox.stats().webhooksDelivered >= 8, {
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    await killHard(ingest!);
    ingest = null;
    const atKill = sys.sandbox.stats();
    await waitFor('pushes given up', () => sys.sandbox.stats().webhooksGivenUp >= 5, {
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    await startIngest();
    const restartedAt = Date.now();
    await enroll(prospectIds.slice(PROSPECTS));

    // Let the campaign run out: every enrollment stopped, paused, or past its last touch.
    await waitFor(
      'every touch sent or stopped',
      async () => {
        const { rows } = await sys.rt.db.pool.query<{ n: number; sending: number }>(
          `SELECT count(*) FILTER (WHERE NOT (e.status IN ('replied', 'bounced', 'paused')
                                          OR (e.status = 'active' AND e.current_step > 3)))::int AS n,
                  (SELECT count(*)::int FROM touch t JOIN enrollment x ON x.id = t.enrollment_id
                    WHERE x.sequence_id = $1 AND t.status = 'sending') AS sending
           FROM enrollment e WHERE e.sequence_id = $1`,
          [sequence.body.id],
        );
        return rows[0]!.n === 0 && rows[0]!.sending === 0;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    await sys.sandbox.settled();

    // The e-mail track's events (the sandbox logs LinkedIn ones in the same stream).
    const log = sys.sandbox
      .events()
      .flatMap((e) => ('email' in e.payload ? [{ ...e, payload: e.payload }] : []));
    const before = await sys.rt.repos.events.countBySource('sandbox');
    const recordedBefore = new Set(before.map((r) => r.externalId));
    const missing = log.filter((e) => !recordedBefore.has(e.id));
    // What ingest lacks is what the sandbox gave up on (a push that reached ingest just
    // as it died may be recorded although the sandbox never heard back).
    expect(missing.length).toBeGreaterThan(0);
    for (const e of missing) expect(e.push).toBe('given_up');
    // Ingest took webhooks again once back.
    const afterRestart = log.filter((e) => e.deliveredAt && Date.parse(e.deliveredAt) >= restartedAt);
    expect(afterRestart.length).toBeGreaterThan(0);

    const report = await recover();
    const recoveredAt = Date.now();
    expect(report).toMatchObject({
      provider: 'sandbox',
      from: null,
      pulled: log.length,
      recorded: missing.length,
      duplicates: log.length - missing.length,
      rejected: 0,
      cursor: String(log.at(-1)!.seq),
    });

    // Exactly once: every event of the sandbox's log, by its id, once; nothing else.
    const recorded = await sys.rt.repos.events.countBySource('sandbox');
    expect(recorded.map((r) => r.externalId).sort()).toEqual(log.map((e) => e.id).sort());
    expect(recorded.filter((r) => r.n !== 1)).toEqual([]);
    // Applied: replies and bounces stopped the prospect's sequence, out-of-office mails paused it.
    const { rows: outcomes } = await sys.rt.db.pool.query<{ type: string; outcome: string; n: number }>(
      `SELECT type, outcome, count(*)::int AS n FROM event WHERE source = 'sandbox' GROUP BY type, outcome`,
    );
    const byType = (type: string) => log.filter((e) => e.payload.type === type).length;
    expect(Object.fromEntries(outcomes.map((o) => [`${o.type}:${o.outcome}`, o.n]))).toEqual({
      'reply:applied': byType('reply'),
      'bounce:applied': byType('bounce'),
      'out_of_office:paused': byType('out_of_office'),
    });

    // Every enrollment ends as its events say.
    const snapshot = async () =>
      (
        await sys.rt.db.pool.query<EnrollmentRow>(
          `SELECT e.id, p.email, e.status::text AS status, e.current_step, e.stop_reason, e.next_touch_at
           FROM enrollment e JOIN prospect p ON p.id = e.prospect_id WHERE e.sequence_id = $1 ORDER BY p.email`,
          [sequence.body.id],
        )
      ).rows;
    const enrollments = await snapshot();
    const eventsOf = (email: string) => log.filter((e) => e.payload.email === email);
    for (const row of enrollments) {
      const types = new Set(eventsOf(row.email).map((e) => e.payload.type));
      const expected = types.has('reply')
        ? 'replied'
        : types.has('bounce')
          ? 'bounced'
          : types.has('out_of_office')
            ? 'paused'
            : 'active';
      expect({ email: row.email, status: row.status }).toEqual({ email: row.email, status: expected });
      if (expected === 'active') expect(row.current_step).toBe(4);
      if (expected === 'paused') expect(row.stop_reason).toBe('out_of_office');
    }
    // Each scripted prospect got its answer; the rest none.
    for (const [i, email] of emails.entries()) {
      expect([...new Set(eventsOf(email).map((e) => e.payload.type))]).toEqual(
        scriptOf(i) ? [scriptOf(i)!.outcome] : [],
      );
    }

    // The reply fence: no touch of a replied or bounced prospect started after ingest
    // acknowledged its stop, by webhook (when the sandbox heard the 2xx) or by recovery.
    const ackAt = new Map<string, number>();
    for (const e of log) {
      if (e.payload.type === 'out_of_office') continue;
      ackAt.set(e.payload.enrollment_id, e.deliveredAt ? Date.parse(e.deliveredAt) : recoveredAt);
    }
    const { rows: touches } = await sys.rt.db.pool.query<{ enrollment_id: string; created_at: Date }>(
      `SELECT t.enrollment_id, t.created_at FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE e.sequence_id = $1`,
      [sequence.body.id],
    );
    expect(touches.filter((t) => t.created_at.getTime() > (ackAt.get(t.enrollment_id) ?? Infinity))).toEqual(
      [],
    );
    const deliveries = sys.sandbox.deliveries();
    expect(deliveries.filter((d) => Date.parse(d.at) > (ackAt.get(d.enrollmentId) ?? Infinity))).toEqual([]);
    // At most one send per (enrollment, step), as ever.
    const keys = deliveries.map((d) => `${d.enrollmentId}-${d.step}`);
    expect(new Set(keys).size).toBe(keys.length);

    // Recovery again: from the saved cursor, nothing; from the start, all duplicates. No change.
    const eventRows = async () =>
      (await sys.rt.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM event')).rows[0]!.n;
    const eventsAfter = await eventRows();
    expect(await recover()).toMatchObject({
      from: String(log.at(-1)!.seq),
      pulled: 0,
      recorded: 0,
      cursor: String(log.at(-1)!.seq),
    });
    await sys.rt.db.pool.query(`DELETE FROM provider_cursor WHERE provider = 'sandbox'`);
    expect(await recover()).toMatchObject({
      from: null,
      pulled: log.length,
      recorded: 0,
      duplicates: log.length,
      cursor: String(log.at(-1)!.seq),
    });
    expect(await eventRows()).toBe(eventsAfter);
    expect(await snapshot()).toEqual(enrollments);

    console.log(
      JSON.stringify({
        test: 'ingest-down',
        events: log.length,
        webhooksAcknowledgedBeforeKill: atKill.webhooksDelivered,
        webhooksGivenUp: sys.sandbox.stats().webhooksGivenUp,
        webhooksAcknowledgedAfterRestart: afterRestart.length,
        deliveredOnARetry: log.filter((e) => e.push === 'delivered' && e.attempts > 1).length,
        recovered: missing.length,
        deliveries: deliveries.length,
        statuses: enrollments.reduce<Record<string, number>>((a, r) => {
          a[r.status] = (a[r.status] ?? 0) + 1;
          return a;
        }, {}),
      }),
    );
  }, 60_000);
});
