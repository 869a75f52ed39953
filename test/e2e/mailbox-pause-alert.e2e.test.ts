import { createServer, type Server } from 'node:http';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingServer } from '../../packages/providers/test/support/recording-server.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const PROSPECTS = 5;

/** Ops' Slack: a local server taking incoming-webhook JSON and answering `ok`, as Slack does. */
async function startSlack() {
  // biome-ignore lint/suspicious/noExplicitAny: Slack's incoming-webhook body, read by the assertions
  const received: any[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += String(d);
    });
    req.on('end', () => {
      received.push(JSON.parse(raw));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/services/T0/B0/x`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A provider refuses touches because of our setup (the mailbox is disconnected):
 * the sender pauses the mailbox and its alert goes out through the same channels
 * as the domain alerts, at once and once, however many touches hit the refusal.
 */
describe('mailbox pause alert reaches ops through the alert channels (whole system)', () => {
  let sys: TestSystem;
  let slack: Awaited<ReturnType<typeof startSlack>>;
  let disconnected = true;
  let n = 0;
  const provider = new RecordingServer((req) => {
    // The sender's pre-send re-check asks for the prospect's status first: nothing against it.
    if (req.method === 'GET') return { status: 200, body: { status: 'ok' } };
    if (disconnected) {
      return {
        status: 409,
        body: { error: { code: 'mailbox_disconnected', message: 'reconnect the mailbox' } },
      };
    }
    n++;
    return { status: 201, body: { message_id: `<m${n}@hp>`, conversation_id: `conv_${n}` } };
  });

  beforeAll(async () => {
    slack = await startSlack();
    await provider.start();
    sys = await startTestSystem('mailbox_alert', {
      // Any provider but the sandbox runs in real time.
      TIME_SCALE: '1',
      HTTP_PROVIDER_URL: provider.url,
      HTTP_PROVIDER_TOKEN: 'hp-token',
      ALERT_SLACK_WEBHOOK_URL: slack.url,
      PUBLIC_BASE_URL: 'http://touchbase.ops.example',
      SENDER_HOLD_MS: '200',
      // The guard's tick (and its sweep of undelivered alerts) does not run during the test:
      // what arrives came by the sender's own enqueue.
      DOMAIN_HEALTH_INTERVAL_MS: '3600000',
    });
  });
  afterAll(async () => {
    await sys?.stop();
    await provider.close();
    await slack?.close();
  });

  it('one pause, many refused touches: exactly one Slack alert, delivered at once, and none after the resume', async () => {
    const mailbox = await sys.api('POST', '/v1/mailboxes', {
      provider: 'http',
      address: 'sdr@setup.example',
      windowDays: [],
      perMinute: 1000,
      perHour: 10_000,
      perDay: 10_000,
    });
    expect(mailbox.status).toBe(201);
    const mailboxId = mailbox.body.id as string;
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'setup',
      steps: [{ subject: 'Hello {{firstName|there}}', body: 'Touch 1', wait: '0s' }],
    });
    const prospects = await sys.api('POST', '/v1/prospects', {
      prospects: Array.from({ length: PROSPECTS }, (_, i) => ({ email: `p${i}@prospect.example` })),
    });
    const enrolled = await sys.api('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId,
      prospectIds: prospects.body.prospects.map((p: { id: string }) => p.id),
    });
    expect(enrolled.body.enrolled).toHaveLength(PROSPECTS);

    await waitFor('the mailbox to be paused', async () => {
      const m = await sys.api('GET', `/v1/mailboxes/${mailboxId}`);
      return m.body.status === 'paused';
    });
    // The guard's sweep of undelivered alerts does not run during the test (its tick is
    // an hour apart): only the sender's enqueue can deliver it. (A bound on the delay
    // proved nothing more, and a loaded machine could pass it.)
    const [message] = await waitFor('the alert in Slack', () =>
      slack.received.length > 0 ? slack.received : null,
    );
    expect(message.text).toContain(
      ':rotating_light: A mailbox of setup.example paused: the provider blamed our setup',
    );
    expect(message.text).toContain('mailbox_disconnected: reconnect the mailbox');
    expect(message.text).toContain(
      `<http://touchbase.ops.example/v1/mailboxes/${mailboxId}|Open in touchbase>`,
    );
    expect(message.blocks[1].elements[0].text).toContain('mailbox.paused');

    // Every touch has met the pause (refused by the provider or held before it) and the alert is settled.
    const alert = await waitFor('the alert settled', async () => {
      const list = (await sys.api('GET', '/v1/alerts')).body.items;
      return list.length === 1 && list[0].settledAt ? list[0] : null;
    });
    expect(alert).toMatchObject({ kind: 'mailbox.paused', domain: 'setup.example' });
    expect(alert.deliveries).toEqual([
      expect.objectContaining({ channel: 'log', status: 'delivered', attempts: 1 }),
      expect.objectContaining({ channel: 'slack', status: 'delivered', attempts: 1 }),
    ]);
    await waitFor('every touch held', async () => {
      const text = await fetch(`${sys.apiUrl}/metrics`).then((r) => r.text());
      const held = Number(
        /touchbase_sender_touches_skipped_total\{reason="held"\} (\d+)/.exec(text)?.[1] ?? 0,
      );
      return held >= PROSPECTS;
    });
    const refusals = provider.requests.filter((r) => r.method === 'POST').length;
    expect(refusals).toBeGreaterThanOrEqual(1);
    expect(slack.received).toHaveLength(1);

    // Fixed and resumed: the held touches go out; nothing more for ops.
    disconnected = false;
    expect((await sys.api('POST', `/v1/mailboxes/${mailboxId}/resume`)).body.status).toBe('active');
    await waitFor('every touch sent after the resume', () => n === PROSPECTS);
    await waitFor('every enrollment exhausted', async () => {
      const stats = (await sys.api('GET', `/v1/stats?sequenceId=${seq.body.id}`)).body;
      return (stats.byStatus.exhausted ?? 0) === PROSPECTS;
    });
    expect(slack.received).toHaveLength(1);
    const alerts = await sys.rt.db.pool.query('SELECT kind FROM alert');
    expect(alerts.rows).toEqual([{ kind: 'mailbox.paused' }]);
  });
});
