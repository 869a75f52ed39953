import { createServer, type Server } from 'node:http';
import type { HealthSettings } from '@touchbase/core';
import { CanonicalEventSchema } from '@touchbase/core';
import { createDatabase, createRepositories } from '@touchbase/db';
import { LogAlertChannel, WebhookAlertChannel } from '@touchbase/providers';
import { AlertQueue, createRedis, createWorker, TouchQueue } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix, waitFor } from '@touchbase/testing';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliverAlertProcessor } from '../src/processors/deliver-alert.processor.js';
import { type DomainHealthDeps, domainHealthTick } from '../src/use-cases/domain-health-tick.js';
import { seedSends } from './support/seed-sends.js';

const settings: HealthSettings = {
  bounceThreshold: 0.03,
  bounceWarnRatio: 0.8,
  minSends: 50,
  complaintAlert: 0.001,
  complaintPause: 0.003,
  complaintMinSends: 1000,
  windowDays: 7,
};
const logger = createLogger({ name: 'test', level: 'silent' });
const HOUR = 3_600_000;
const SECRET = 'whsec_dG91Y2hiYXNlLWFsZXJ0LXRlc3Q=';

/** A database, Redis prefix and the tick's dependencies of one describe block. */
async function openHarness(label: string) {
  const tdb = await createTestDatabase(label);
  const db = createDatabase(tdb.url);
  const repos = createRepositories(db);
  const prefix = await createTestRedisPrefix(label);
  const producer = createRedis(prefix.url, 'producer');
  const touchQueue = new TouchQueue(producer, prefix.prefix);
  const alertQueue = new AlertQueue(producer, prefix.prefix);
  const metrics = new Metrics({ defaultMetrics: false });
  const sequence = await repos.sequences.create({
    name: 'health',
    steps: [{ channel: 'email', subject: 'a', body: 'b', wait: '1d' }],
  });
  let n = 0;
  return {
    db,
    repos,
    prefix,
    producer,
    touchQueue,
    alertQueue,
    metrics,
    sequence,
    tick: (over: Partial<DomainHealthDeps> = {}) =>
      domainHealthTick({
        repos,
        touchQueue,
        alertQueue,
        channelNames: ['log'],
        logger,
        metrics,
        settings,
        holdInFlight: true,
        accountGuard: false,
        autoResumeAfterMs: 0,
        timeScale: 1,
        clock: () => new Date(),
        ...over,
      }),
    /** A mailbox on a domain of its own. */
    domain: async (name: string) => {
      const mailbox = await repos.mailboxes.create({
        provider: 'sandbox',
        address: `sdr@${name}`,
        windowDays: [],
      });
      return { mailboxId: mailbox.id, domainId: mailbox.domainId };
    },
    seed: (mailboxId: string, counts: { sends: number; bounces?: number; complaints?: number; at?: Date }) =>
      seedSends(db.pool, {
        tag: `${label}${n++}`,
        mailboxId,
        sequenceId: sequence.id,
        sequenceVersionId: sequence.version.id,
        ...counts,
      }),
    domainRow: async (id: string) =>
      (
        await db.pool.query(
          `SELECT status::text AS status, reason, pause_kind AS "pauseKind", paused_by AS "pausedBy",
                  health_level AS "healthLevel", figures FROM sending_domain WHERE id = $1`,
          [id],
        )
      ).rows[0],
    alertsOf: async (domainId: string | null) =>
      (
        await db.pool.query(
          `SELECT kind, message, data FROM alert WHERE domain_id IS NOT DISTINCT FROM $1 ORDER BY created_at`,
          [domainId],
        )
      ).rows,
    async close() {
      await alertQueue.close();
      await touchQueue.close();
      producer.disconnect();
      await prefix.cleanup();
      await db.close();
      await tdb.drop();
    },
  };
}
type Harness = Awaited<ReturnType<typeof openHarness>>;

describe('the domain-health tick over the rollup (real PostgreSQL and Redis)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness('dhtick');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the triggers keep the rollup on the real paths: a touch sent, a bounce ingested, an enrollment ended', async () => {
    const { mailboxId, domainId } = await h.domain('paths.example');
    const [prospect] = await h.repos.prospects.upsertMany([{ email: 'p1@prospect.example' }]);
    const { enrolled } = await h.repos.enrollments.enroll({
      sequenceId: h.sequence.id,
      sequenceVersionId: h.sequence.version.id,
      mailboxId,
      prospectIds: [prospect!.id],
      firstTouchAt: () => new Date(),
    });
    const enrollmentId = enrolled[0]!.id;
    expect(await h.repos.touches.claim(enrollmentId, 1, `${enrollmentId}-1`, 'p1@prospect.example')).toEqual({
      kind: 'claimed',
    });
    await h.repos.touches.recordSent({
      enrollmentId,
      step: 1,
      messageId: 'msg-paths-1',
      conversationId: 'c1',
      nextTouchAt: new Date(),
    });
    const event = (type: string, externalId: string, extra: object) =>
      CanonicalEventSchema.parse({ source: 'test', externalId, type, occurredAt: new Date(), ...extra });
    // A soft bounce does not count; the hard bounce found by our message id does, and ends the enrollment.
    await recordAndApplyEvent(
      h.repos.events,
      event('bounce', 'soft-1', { messageId: 'msg-paths-1', bounce: { hard: false, status: '4.2.2' } }),
    );
    await recordAndApplyEvent(
      h.repos.events,
      event('bounce', 'hard-1', { messageId: 'msg-paths-1', bounce: { hard: true, status: '5.1.1' } }),
    );

    const result = await h.tick();
    expect(result.folded).toBeGreaterThanOrEqual(3);
    const { rows } = await h.db.pool.query(
      'SELECT sends, bounces, complaints, replies, ended, completed FROM domain_daily_stat WHERE domain_id = $1',
      [domainId],
    );
    expect(rows).toEqual([{ sends: 1, bounces: 1, complaints: 0, replies: 0, ended: 1, completed: 0 }]);
    expect((await h.db.pool.query('SELECT count(*)::int AS n FROM domain_stat_delta')).rows[0].n).toBe(0);
    // One send is far below the minimum sample: a 100% bounce rate pauses nothing.
    expect((await h.domainRow(domainId)).status).toBe('active');
  });

  it('a bounce or a reply counts once per enrollment, however many times it is recorded', async () => {
    const { mailboxId, domainId } = await h.domain('once.example');
    const prospects = await h.repos.prospects.upsertMany([
      { email: 'gone@prospect.example' },
      { email: 'talks@prospect.example' },
    ]);
    const { enrolled } = await h.repos.enrollments.enroll({
      sequenceId: h.sequence.id,
      sequenceVersionId: h.sequence.version.id,
      mailboxId,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    const [gone, talks] = enrolled.map((e) => e.id) as [string, string];
    for (const [id, email] of [
      [gone, 'gone@prospect.example'],
      [talks, 'talks@prospect.example'],
    ] as const) {
      await h.repos.touches.claim(id, 1, `${id}-1`, email);
      await h.repos.touches.recordSent({
        enrollmentId: id,
        step: 1,
        messageId: `msg-${id}`,
        conversationId: 'c',
        nextTouchAt: new Date(),
      });
    }
    const event = (source: string, type: string, enrollmentId: string, extra: object = {}) =>
      CanonicalEventSchema.parse({
        source,
        externalId: `${source}-${type}-${enrollmentId}`,
        type,
        occurredAt: new Date(),
        enrollmentId,
        ...extra,
      });
    // The sender's re-check saw the bounce first; the provider's webhook follows.
    await recordAndApplyEvent(
      h.repos.events,
      event('sandbox-recheck', 'bounce', gone, { bounce: { hard: true } }),
    );
    await recordAndApplyEvent(h.repos.events, event('sandbox', 'bounce', gone, { bounce: { hard: true } }));
    // Two replies from one prospect (the second from another provider delivery).
    await recordAndApplyEvent(h.repos.events, event('sandbox', 'reply', talks));
    await recordAndApplyEvent(h.repos.events, event('sandbox-inbound', 'reply', talks));
    await h.tick();
    const { rows } = await h.db.pool.query(
      'SELECT sends, bounces, replies FROM domain_daily_stat WHERE domain_id = $1',
      [domainId],
    );
    expect(rows).toEqual([{ sends: 2, bounces: 1, replies: 1 }]);
  });

  it('warns once at 80% of the threshold, however many ticks follow', async () => {
    const { mailboxId, domainId } = await h.domain('warn.example');
    await h.seed(mailboxId, { sends: 1000, bounces: 25 });
    const first = await h.tick();
    expect(first.approached).toContain('warn.example');
    await h.tick();
    await h.tick();
    const alerts = await h.alertsOf(domainId);
    expect(alerts.map((a) => a.kind)).toEqual(['domain.threshold_approached']);
    expect(alerts[0].message).toContain('25 of 1,000 sends bounced, 2.5% over 7 days');
    expect(alerts[0].data.thresholds.bounceThreshold).toBe(0.03);
    expect((await h.domainRow(domainId)).status).toBe('active');
  });

  it('pauses on spam complaints above 0.3%, with the reason on the record and in the audit log', async () => {
    const { mailboxId, domainId } = await h.domain('complaints.example');
    await h.seed(mailboxId, { sends: 2000, complaints: 7 });
    const result = await h.tick();
    expect(result.paused).toEqual(['complaints.example']);
    const row = await h.domainRow(domainId);
    expect(row).toMatchObject({ status: 'paused', pauseKind: 'complaint', pausedBy: 'domain-health' });
    expect(row.reason).toBe(
      'paused because 7 of 2,000 sends drew a spam complaint, 0.35% over 7 days, above 0.3%',
    );
    const audit = await h.repos.audit.list({ entityType: 'sending_domain', entityId: domainId }, 10);
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['domain.paused']);
    expect(audit[0].data.figures).toMatchObject({ sends: 2000, complaints: 7 });
    await h.tick();
    expect((await h.alertsOf(domainId)).map((a) => a.kind)).toEqual(['domain.paused']);
  });

  it('a resume counts afresh: the bounces that caused the pause do not pause it again', async () => {
    const { mailboxId, domainId } = await h.domain('fresh.example');
    await h.seed(mailboxId, { sends: 1000, bounces: 31 });
    expect((await h.tick()).paused).toEqual(['fresh.example']);
    const resumed = await h.repos.sendingDomains.resume({
      domainId,
      actor: 'alice',
      reason: 'list cleaned',
      automatic: false,
      firstTouchAt: () => new Date(),
      alert: null,
    });
    expect(resumed).toEqual({ released: [], alertId: null });
    expect((await h.tick()).paused).toEqual([]);
    expect((await h.domainRow(domainId)).figures).toMatchObject({ sends: 0, bounces: 0 });
    // New sends are judged on their own: 3 of 60 (5%) pauses again.
    await h.seed(mailboxId, { sends: 60, bounces: 3 });
    expect((await h.tick()).paused).toEqual(['fresh.example']);
  });

  it('resumes a domain it paused once the rate stayed under the threshold for the cooling-off, and releases its held enrollments', async () => {
    const { mailboxId, domainId } = await h.domain('cool.example');
    const manual = await h.domain('manual.example');
    await h.seed(mailboxId, { sends: 100, bounces: 10 });
    expect((await h.tick()).paused).toEqual(['cool.example']);
    await h.repos.sendingDomains.pause({
      domainId: manual.domainId,
      actor: 'bob',
      kind: 'manual',
      reason: 'paused by bob: warming up',
      holdTouches: true,
      alert: { kind: 'domain.paused', message: 'paused by bob: warming up', data: {} },
    });
    const [prospect] = await h.repos.prospects.upsertMany([{ email: 'held@prospect.example' }]);
    const enroll = () =>
      h.repos.enrollments.enroll({
        sequenceId: h.sequence.id,
        sequenceVersionId: h.sequence.version.id,
        mailboxId,
        prospectIds: [prospect!.id],
        firstTouchAt: () => new Date(),
        whenDomainPaused: 'hold',
      });
    const { held, enrolled } = await enroll();
    expect(enrolled).toEqual([]);
    expect(held).toHaveLength(1);
    expect((await h.repos.enrollments.get(held[0]!.id)).status).toBe('queued');

    // Clean sends bring the rate under the threshold (10 of 1100): the cooling-off starts.
    await h.seed(mailboxId, { sends: 1000 });
    await h.seed(manual.mailboxId, { sends: 1000 });
    const start = Date.now();
    const cooling = { autoResumeAfterMs: 6 * HOUR };
    expect((await h.tick({ ...cooling, clock: () => new Date(start) })).resumed).toEqual([]);
    expect((await h.tick({ ...cooling, clock: () => new Date(start + 5 * HOUR) })).resumed).toEqual([]);
    const done = await h.tick({ ...cooling, clock: () => new Date(start + 6 * HOUR) });
    expect(done.resumed).toEqual(['cool.example']);
    expect(done.releasedEnrollments).toBe(1);
    expect((await h.domainRow(domainId)).status).toBe('active');
    expect((await h.domainRow(manual.domainId)).status).toBe('paused');
    expect((await h.repos.enrollments.get(held[0]!.id)).status).toBe('active');
    expect([...(await h.touchQueue.existing([`${held[0]!.id}-1`]))]).toEqual([`${held[0]!.id}-1`]);
    const audit = await h.repos.audit.list({ entityType: 'sending_domain', entityId: domainId }, 10);
    expect(audit.map((a: { action: string; actor: string }) => `${a.actor} ${a.action}`)).toEqual([
      'domain-health domain.paused',
      'domain-health domain.resumed',
    ]);
    expect((await h.alertsOf(domainId)).map((a) => a.kind)).toEqual(['domain.paused', 'domain.resumed']);
  });
});

describe('lost alert jobs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness('dhsweep');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a tick re-enqueues an alert committed without its job (a crash between the commit and the enqueue)', async () => {
    const { domainId } = await h.domain('sweep.example');
    const alertId = await h.repos.sendingDomains.raiseAlert(h.db.pool, {
      kind: 'domain.paused',
      domainId,
      message: 'paused because 17 of 402 sends bounced, 4.2% over 7 days, above 3%',
      data: {},
    });
    await h.db.pool.query(`UPDATE alert SET created_at = now() - interval '2 minutes' WHERE id = $1`, [
      alertId,
    ]);
    expect(await h.alertQueue.queue.getJob(alertId)).toBeUndefined();
    await h.tick();
    const job = await h.alertQueue.queue.getJob(alertId);
    expect(job?.data).toEqual({ alertId });
    // Enqueued again while pending: still one job.
    await h.tick();
    expect(await h.alertQueue.queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
  });
});

describe('the account-wide guard', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness('dhaccount');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('pauses every domain when all of them together pass the threshold, with one alert for the account', async () => {
    const domains = [];
    for (const name of ['a1.example', 'a2.example', 'a3.example', 'a4.example', 'a5.example']) {
      const d = await h.domain(name);
      // 4 of 40 each: under the minimum sample alone, 10% of 200 together.
      await h.seed(d.mailboxId, { sends: 40, bounces: 4 });
      domains.push(d);
    }
    const result = await h.tick({ accountGuard: true });
    expect(result.account).toMatchObject({ level: 'over', sends: 200, bounces: 20 });
    expect(result.paused.sort()).toEqual([
      'a1.example',
      'a2.example',
      'a3.example',
      'a4.example',
      'a5.example',
    ]);
    for (const d of domains) {
      const row = await h.domainRow(d.domainId);
      expect(row).toMatchObject({ status: 'paused', pauseKind: 'account' });
      expect(row.reason).toContain(
        'account-wide guard: paused because 20 of 200 sends across all domains bounced',
      );
      expect(await h.alertsOf(d.domainId)).toEqual([]);
    }
    await h.tick({ accountGuard: true });
    expect((await h.alertsOf(null)).map((a) => a.kind)).toEqual(['account.paused']);
    expect(await h.metrics.registry.getSingleMetricAsString('touchbase_alerts_raised_total')).toContain(
      'touchbase_alerts_raised_total{kind="account.paused"} 1',
    );
    const metrics = await h.metrics.registry.getSingleMetricAsString('touchbase_domain_paused');
    expect(metrics).toContain('touchbase_domain_paused{domain="a1.example"} 1');
  });
});

describe('alert deliveries', () => {
  let h: Harness;
  let server: Server;
  let url: string;
  let worker: ReturnType<typeof createWorker> | undefined;
  let workerRedis: Redis;
  const hits: { path: string; status: number }[] = [];
  const metrics = new Metrics({ defaultMetrics: false });
  beforeAll(async () => {
    h = await openHarness('dhalerts');
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const status = req.url === '/gone' ? 404 : 503;
        hits.push({ path: req.url ?? '', status });
        res.writeHead(status).end('unavailable');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    workerRedis = createRedis(h.prefix.url, 'worker');
  });
  afterAll(async () => {
    await worker?.close();
    workerRedis?.disconnect();
    server?.close();
    await h?.close();
  });

  it('retries a failing channel with backoff, records each attempt, gives up at the last one and shows it', async () => {
    const { domainId } = await h.domain('deliveries.example');
    const alertId = await h.repos.sendingDomains.raiseAlert(h.db.pool, {
      kind: 'domain.paused',
      domainId,
      message: 'paused because 17 of 402 sends bounced, 4.2% over 7 days, above 3%',
      data: { figures: { sends: 402, bounces: 17 }, thresholds: { bounceThreshold: 0.03 } },
    });
    const logged: object[] = [];
    const gone = new WebhookAlertChannel(`${url}/gone`, SECRET, 2000);
    worker = createWorker(
      'alert.deliver',
      createDeliverAlertProcessor({
        repos: h.repos,
        channels: [
          new LogAlertChannel({ warn: (obj) => logged.push(obj) }),
          new WebhookAlertChannel(`${url}/down`, SECRET, 2000),
          { name: 'webhook-gone', send: (a) => gone.send(a) },
        ],
        publicBaseUrl: 'http://ops.example',
        logger,
        metrics,
      }),
      { connection: workerRedis, prefix: h.prefix.prefix, logger },
    );
    // The catalog retries for hours; three quick attempts show the same path.
    await h.alertQueue.queue.add(
      'alert.deliver',
      { alertId },
      { jobId: alertId, attempts: 3, backoff: { type: 'exponential', delay: 20 } },
    );
    const alert = await waitFor('the alert to settle', async () => {
      const a = await h.repos.alerts.get(alertId);
      return a.settledAt ? a : null;
    });
    expect(alert.deliveries).toEqual([
      expect.objectContaining({ channel: 'log', status: 'delivered', attempts: 1 }),
      expect.objectContaining({
        channel: 'webhook',
        status: 'failed',
        attempts: 3,
        lastError: 'HTTP 503: unavailable',
      }),
      expect.objectContaining({
        channel: 'webhook-gone',
        status: 'failed',
        attempts: 1,
        lastError: 'HTTP 404: unavailable',
      }),
    ]);
    expect(logged).toHaveLength(1);
    expect(hits.filter((x) => x.path === '/down')).toHaveLength(3);
    expect(hits.filter((x) => x.path === '/gone')).toHaveLength(1);
    const failing = await h.repos.alerts.list({ failing: true }, 10);
    expect(failing.map((a) => a.id)).toEqual([alertId]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('touchbase_alert_deliveries_total{channel="webhook",outcome="retrying"} 3');
    expect(text).toContain('touchbase_alert_deliveries_total{channel="webhook",outcome="failed"} 1');
    expect(text).toContain('touchbase_alert_deliveries_failing{channel="webhook"} 1');
  });
});
