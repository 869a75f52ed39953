import { createServer, type Server } from 'node:http';
import { LogAlertChannel, WebhookAlertChannel } from '@touchbase/providers';
import { createRedis, createWorker } from '@touchbase/queues';
import { Metrics } from '@touchbase/telemetry';
import { waitFor } from '@touchbase/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliverAlertProcessor } from '../src/processors/deliver-alert.processor.js';
import { type Harness, logger, openHarness } from './support/tick-harness.js';

const SECRET = 'whsec_dG91Y2hiYXNlLWFsZXJ0LXRlc3Q=';

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
