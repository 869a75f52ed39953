import { touchKey } from '@touchbase/core';
import { countCapViolations, MailboxThrottle, type SandboxDelivery } from '@touchbase/providers';
import { TouchQueue, touchJobId } from '@touchbase/queues';
import { createLogger } from '@touchbase/telemetry';
import {
  createTestDatabase,
  createTestRedisPrefix,
  freePort,
  type TestDatabase,
  waitFor,
} from '@touchbase/testing';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busiestWindows, certainCapViolations } from '../support/cap-checks.js';
import { ReplicaFleet } from '../support/replica-fleet.js';
import { RoundRobinProxy } from '../support/round-robin-proxy.js';

// TIME_SCALE 720: a day lasts 120 s, an hour 5 s, a minute 83 ms.
const TIME_SCALE = 720;
const PER_MAILBOX = 25;
const STEPS = 3;
// Tight caps: the hourly one binds all run long, the minute one in the bursts after
// each hour rolls, and the last mailbox runs out of its day before its campaign ends.
const CAPS = { perMinute: 3, perHour: 25, perDay: 10_000, minSpacingMs: 0 };
const DAY_CAPPED = { ...CAPS, perDay: 20 };
const LIMITS = [CAPS, CAPS, CAPS, DAY_CAPPED];
const FINAL = ['replied', 'bounced', 'exhausted'];
const PENDING = ['delayed', 'waiting', 'active', 'prioritized', 'waiting-children'];

type Mailbox = { id: string; address: string; limits: typeof CAPS };

/**
 * Past one machine (docs/architecture.md#past-one-machine): 3 sender, 2 ingest and
 * 2 scheduler processes, one api and the sandbox provider, each its own process, on
 * one PostgreSQL database and one Redis prefix. The sandbox's webhooks reach the
 * two ingest replicas through a round-robin balancer (the sandbox posts to one URL,
 * as a provider does). Mid-run one replica of each is killed with SIGKILL: the
 * sender and the scheduler stay dead (the survivors take over their jobs and their
 * ticks), the ingest replica is restarted on its port (the balancer skips it while
 * it is down). Then: caps held across the senders, the reply fence held, no touch
 * went out twice and none was lost.
 */
describe('replicas: 3 senders, 2 ingest, 2 schedulers, one of each killed mid-run', () => {
  let db: TestDatabase;
  let redisPrefix: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let fleet: ReplicaFleet;
  let balancer: RoundRobinProxy;
  let pool: pg.Pool;
  let redis: Redis;
  let touchQueue: TouchQueue;

  beforeAll(async () => {
    db = await createTestDatabase('replicas');
    redisPrefix = await createTestRedisPrefix('replicas');
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
    redis = new Redis(redisPrefix.url);
    touchQueue = new TouchQueue(redis, redisPrefix.prefix, createLogger({ name: 'test', level: 'silent' }));
  });
  afterAll(async () => {
    await fleet?.stopAll();
    await balancer?.close();
    await pool?.end();
    await touchQueue?.close();
    redis?.disconnect();
    await redisPrefix?.cleanup();
    await db?.drop();
  });

  it('caps hold, the fence holds, no touch twice, none lost', async () => {
    const ingestPorts = [await freePort(), await freePort()];
    const sandboxPort = await freePort();
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    balancer = new RoundRobinProxy(ingestPorts.map((port) => ({ host: '127.0.0.1', port })));
    await balancer.start();
    fleet = new ReplicaFleet({
      DATABASE_URL: db.url,
      REDIS_URL: redisPrefix.url,
      REDIS_PREFIX: redisPrefix.prefix,
      TIME_SCALE: String(TIME_SCALE),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // Few connections each: nine processes share one PostgreSQL server with other tests.
      DATABASE_POOL_SIZE: '4',
      SANDBOX_REPLY_RATE: '0.15',
      SANDBOX_BOUNCE_RATE: '0.05',
      SANDBOX_OOO_RATE: '0',
      // Answers come 2.5-7.5 s after a touch, around when the next step falls due.
      SANDBOX_EVENT_DELAY_MS: '3600000',
      SANDBOX_SEED: '17',
      SANDBOX_WEBHOOK_URL: `${balancer.url}/webhooks/sandbox`,
      SCHEDULER_PACING_MS: '0',
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
      SENDER_CONCURRENCY: '20',
      SENDER_LOCK_DURATION_MS: '3000',
      SENDER_STALLED_INTERVAL_MS: '1500',
      // Only our own fence may stop a touch: no asking the sandbox before each send.
      SENDER_PROVIDER_RECHECK: 'false',
      SANDBOX_URL: sandboxUrl,
    });
    await fleet.start('sandbox', 'sandbox', {}, sandboxPort);
    const [api] = await Promise.all([
      fleet.start('api', 'api'),
      ...ingestPorts.map((port, i) => fleet.start(`ingest-${i}`, 'ingest', {}, port)),
      fleet.start('scheduler-0', 'scheduler'),
      fleet.start('scheduler-1', 'scheduler'),
    ]);
    const senders = await Promise.all([0, 1, 2].map((i) => fleet.start(`sender-${i}`, 'sender')));
    const ingests = fleet.members.filter((m) => m.app === 'ingest');
    const schedulers = fleet.members.filter((m) => m.app === 'scheduler');
    const call = apiClient(`http://127.0.0.1:${api!.port}`);

    const mailboxes: Mailbox[] = [];
    for (const [i, limits] of LIMITS.entries()) {
      const address = `sdr${i}@replicas.example`;
      const res = await call('POST', '/v1/mailboxes', {
        provider: 'sandbox',
        address,
        windowDays: [],
        ...limits,
      });
      expect(res.status).toBe(201);
      mailboxes.push({ id: res.body.id, address, limits });
    }
    const sequence = await call('POST', '/v1/sequences', {
      name: 'replicas',
      steps: Array.from({ length: STEPS }, (_, i) => ({
        subject: `Step ${i + 1}`,
        body: 'Hello',
        wait: '1h',
      })),
    });
    const total = PER_MAILBOX * mailboxes.length;
    const prospects = await call('POST', '/v1/prospects', {
      prospects: Array.from({ length: total }, (_, i) => ({
        email: `p${i}@fleet.example`,
        firstName: `P${i}`,
      })),
    });
    const prospectIds = (prospects.body.prospects as { id: string }[]).map((p) => p.id);
    for (const [i, m] of mailboxes.entries()) {
      const res = await call('POST', '/v1/enrollments', {
        sequenceId: sequence.body.id,
        mailboxId: m.id,
        prospectIds: prospectIds.slice(i * PER_MAILBOX, (i + 1) * PER_MAILBOX),
      });
      expect(res.body.enrolled).toHaveLength(PER_MAILBOX);
    }

    // Grants as the senders took them; a day lasts 120 s, so older ones would be trimmed.
    const grants = new Map<string, Map<string, number>>(mailboxes.map((m) => [m.id, new Map()]));
    // The most the day-capped mailbox's day ever held (see dayEntries), read at every poll:
    // its day slides, so by the end of a slow run its first grants have left the window
    // and the places they free wait for the next waiter's hint.
    let dayPeak = { grants: 0, pastHints: 0, futureHints: 0 };
    const readGrants = async () => {
      for (const m of mailboxes) {
        const flat = await redis.zrange(`${redisPrefix.prefix}:throttle:{${m.id}}`, 0, -1, 'WITHSCORES');
        for (let i = 0; i < flat.length; i += 2)
          if (flat[i]!.startsWith('g:')) grants.get(m.id)!.set(flat[i]!.slice(2), Number(flat[i + 1]));
      }
      const day = await dayEntries(mailboxes[3]!.id);
      if (day.grants + day.pastHints > dayPeak.grants + dayPeak.pastHints) dayPeak = day;
    };
    // What the throttle counts in the capped mailbox's day: grants, and the places of
    // waiters whose time has come (a waiter whose sender died keeps its place until the
    // window passes it: stricter, never looser).
    const dayEntries = async (mailboxId: string) => {
      const flat = await redis.zrange(`${redisPrefix.prefix}:throttle:{${mailboxId}}`, 0, -1, 'WITHSCORES');
      const now = Number((await redis.time())[0]) * 1000;
      const out = { grants: 0, pastHints: 0, futureHints: 0 };
      for (let i = 0; i < flat.length; i += 2) {
        if (flat[i]!.startsWith('g:')) out.grants++;
        else if (Number(flat[i + 1]) <= now) out.pastHints++;
        else out.futureHints++;
      }
      return out;
    };
    const deliveries = async () =>
      ((await (await fetch(`${sandboxUrl}/v1/deliveries`)).json()) as { deliveries: SandboxDelivery[] })
        .deliveries;
    const afterDeliveries = (n: number) =>
      waitFor(
        `${n} deliveries`,
        async () => {
          await readGrants();
          return (await deliveries()).length >= n;
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );

    // One replica of each kind killed in turn while touches go out and answers come in.
    const kills: Record<string, number> = {};
    await afterDeliveries(40);
    await fleet.kill(senders[0]!);
    kills.sender = (await deliveries()).length;
    await afterDeliveries(60);
    await fleet.kill(schedulers[0]!);
    kills.scheduler = (await deliveries()).length;
    await afterDeliveries(80);
    await fleet.kill(ingests[0]!);
    kills.ingest = (await deliveries()).length;
    await new Promise((r) => setTimeout(r, 1_000));
    await fleet.restart(ingests[0]!);

    // The end: every enrollment final, except on the day-capped mailbox, which ends
    // with its day used up and its waiting touches delayed to the next; every one
    // that is not final has its job (the reconciler rebuilds a lost one).
    const dayCapped = mailboxes[3]!;
    let last: Record<string, unknown> = {};
    const lost = await waitFor(
      'every enrollment final or with its job',
      async () => {
        await readGrants();
        const { rows } = await pool.query<{
          id: string;
          mailbox: string;
          status: string;
          step: number;
          attempt: number;
        }>(
          `SELECT id, mailbox_id AS mailbox, status::text, current_step AS step, current_attempt AS attempt FROM enrollment`,
        );
        const sending = await pool.query<{
          key: string;
          mailbox: string;
          status: string;
          step: number;
          attempt: number;
          eid: string;
        }>(
          `SELECT t.idempotency_key AS key, e.mailbox_id AS mailbox, e.status::text, t.step, t.attempt, e.id AS eid
             FROM touch t JOIN enrollment e ON e.id = t.enrollment_id WHERE t.status = 'sending'`,
        );
        const open = rows.filter((e) => !FINAL.includes(e.status));
        const without: string[] = [];
        for (const e of open) {
          const state = await touchQueue.queue.getJobState(touchJobId(touchKey(e.id, e.step, e.attempt)));
          if (!PENDING.includes(state)) without.push(`${e.id}-${e.step}: ${e.status}, job ${state}`);
        }
        const elsewhere = open.filter((e) => e.mailbox !== dayCapped.id || e.status !== 'active');
        last = {
          sending: sending.rows.length,
          // A touch in doubt (its sender killed after the hand-over) and what may settle it.
          inDoubt: await Promise.all(
            sending.rows.slice(0, 5).map(async (t) => ({
              key: t.key,
              dayCapped: t.mailbox === dayCapped.id,
              enrollment: t.status,
              job: await touchQueue.queue.getJobState(touchJobId(touchKey(t.eid, t.step, t.attempt))),
            })),
          ),
          open: open.length,
          elsewhere: elsewhere.length,
          dayCapped: await dayEntries(dayCapped.id),
          without,
        };
        if (sending.rows.length > 0 || elsewhere.length > 0) return null;
        return without.length === 0 ? { open: open.length, total: rows.length } : null;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(last)}`);
    });
    await readGrants();

    const log = await deliveries();
    const { rows: touches } = await pool.query<{
      key: string;
      status: string;
      sent: Date | null;
      created: Date;
      mailbox: string;
      enrollment: string;
    }>(
      `SELECT t.idempotency_key AS key, t.status::text, t.sent_at AS sent, t.created_at AS created, e.mailbox_id AS mailbox, e.id AS enrollment
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id`,
    );
    const { rows: statuses } = await pool.query<{ status: string; n: number }>(
      'SELECT status::text, count(*)::int AS n FROM enrollment GROUP BY status',
    );

    // No touch twice: one delivery per idempotency key and per (enrollment, step).
    const keys = log.map((d) => d.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(log.map((d) => `${d.enrollmentId}-${d.step}`)).size).toBe(log.length);
    // Every delivery recorded as sent; nothing left in doubt.
    const touchOf = new Map(touches.map((t) => [t.key, t]));
    expect(
      log.filter((d) => touchOf.get(d.idempotencyKey)?.status !== 'sent').map((d) => d.idempotencyKey),
    ).toEqual([]);
    expect(touches.filter((t) => t.status === 'sent')).toHaveLength(log.length);

    // Caps: on the grant log, exactly; on the delivery log and on touch.sent_at, every
    // send had a token and no window shows a certain excess.
    const throttle = new MailboxThrottle(redis, { prefix: redisPrefix.prefix, timeScale: TIME_SCALE });
    const caps: {
      mailbox: string;
      withoutGrant: number;
      grantViolations: number;
      deliveryLogViolations: number;
      sentAtViolations: number;
    }[] = [];
    for (const m of mailboxes) {
      const windows = throttle.windows(m.limits);
      const granted = grants.get(m.id)!;
      const grantOf = (key: string, at: number) => {
        const times = [...granted].filter(([member]) => member.startsWith(`${key}.`)).map(([, t]) => t);
        const before = times.filter((t) => t <= at + 5);
        return before.length > 0 ? Math.max(...before) : times.length > 0 ? Math.min(...times) : undefined;
      };
      const sent = log.filter((d) => d.from === m.address);
      const recorded = touches.filter((t) => t.mailbox === m.id && t.sent);
      const withoutGrant = sent.filter((d) => grantOf(d.idempotencyKey, Date.parse(d.at)) === undefined);
      const timed = (key: string, at: number) => ({ at, lagMs: at - (grantOf(key, at) ?? at) });
      const fromLog = sent.map((d) => timed(d.idempotencyKey, Date.parse(d.at)));
      const fromDb = recorded.map((t) => timed(t.key, t.sent!.getTime()));
      const report = {
        mailbox: m.address,
        limits: [m.limits.perMinute, m.limits.perHour, m.limits.perDay],
        grants: granted.size,
        delivered: sent.length,
        withoutGrant: withoutGrant.length,
        grantViolations: countCapViolations([...granted.values()], windows),
        deliveryLogViolations: certainCapViolations(fromLog, windows),
        sentAtViolations: certainCapViolations(fromDb, windows),
        busiestDeliveryWindows: busiestWindows(
          fromLog.map((s) => s.at),
          windows,
        ),
        maxLagMs: Math.round(Math.max(0, ...fromLog.map((s) => s.lagMs))),
      };
      caps.push(report);
    }
    // Reply fence: after the balancer passed a stop's 2xx back to the sandbox, no touch
    // of that prospect was claimed or handed to the provider.
    const ackAt = new Map<string, number>();
    for (const a of balancer.acknowledged) {
      const e = JSON.parse(a.body) as { type: string; enrollment_id: string; bounce?: { hard: boolean } };
      if (e.type !== 'reply' && !(e.type === 'bounce' && e.bounce?.hard)) continue;
      if (!ackAt.has(e.enrollment_id) || a.at < ackAt.get(e.enrollment_id)!) ackAt.set(e.enrollment_id, a.at);
    }
    const deliveredAfterAck = log.filter((d) => Date.parse(d.at) > (ackAt.get(d.enrollmentId) ?? Infinity));
    const claimedAfterAck = touches.filter(
      (t) => t.created.getTime() > (ackAt.get(t.enrollment) ?? Infinity),
    );

    const report = {
      test: 'replicas',
      enrollments: lost.total,
      leftWaitingForTheNextDay: lost.open,
      dayCappedMailbox: await dayEntries(dayCapped.id),
      dayCappedMailboxAtPeak: dayPeak,
      statuses: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
      deliveries: log.length,
      deliveriesAtKill: kills,
      stopsAcknowledged: ackAt.size,
      webhooksServedByIngest: balancer.served,
      webhooksRefusedByIngest: balancer.refused,
      webhooksBrokenByIngest: balancer.broken,
      lastErrorByIngest: balancer.lastError,
      deliveredAfterAck: deliveredAfterAck.length,
      claimedAfterAck: claimedAfterAck.length,
      caps,
    };
    console.log(JSON.stringify(report));

    for (const c of caps) {
      expect(c.withoutGrant, c.mailbox).toBe(0);
      expect(c.grantViolations, c.mailbox).toBe(0);
      expect(c.deliveryLogViolations, c.mailbox).toBe(0);
      expect(c.sentAtViolations, c.mailbox).toBe(0);
    }
    // The day cap bound: the capped mailbox used its whole day, and no more.
    // (Grants, not deliveries: a grant taken by a killed sender is used up too; and the
    // place of a waiter whose sender died counts until the window passes it.) Read at
    // the day's fullest: its day slides, and a place freed when the first grants leave
    // it stays empty until the next waiter's hint comes round, longer when the waiter
    // the place was meant for was stopped by a reply in between.
    expect(report.dayCappedMailbox.grants).toBeLessThanOrEqual(dayCapped.limits.perDay);
    expect(dayPeak.grants).toBeLessThanOrEqual(dayCapped.limits.perDay);
    expect(dayPeak.grants + dayPeak.pastHints).toBeGreaterThanOrEqual(dayCapped.limits.perDay);

    expect(report.deliveredAfterAck).toBe(0);
    expect(report.claimedAfterAck).toBe(0);
    expect(ackAt.size).toBeGreaterThan(0);
    // Both ingest replicas took webhooks.
    expect(balancer.served.every((n) => n > 0)).toBe(true);
    // None lost: every enrollment final, or waiting for its mailbox's next day with its job.
    expect(Object.keys(report.statuses).every((s) => FINAL.includes(s) || s === 'active')).toBe(true);
  }, 240_000);
});

function apiClient(base: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read by the assertions
    return { status: res.status, body: text ? (JSON.parse(text) as any) : null };
  };
}
