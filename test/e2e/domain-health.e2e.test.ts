import { verifyStandardWebhook } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSystem } from '../support/test-system.js';
import { type HealthSystem, SECRET, startHealthSystem } from './domain-health-support.js';

describe('domain health: the bounce-rate guard pauses a domain and alerts ops once (whole system)', () => {
  let sys: TestSystem;
  let receiver: HealthSystem['receiver'];
  let sequenceId: string;
  let mailboxes: HealthSystem['mailboxes'];

  beforeAll(async () => {
    ({ sys, receiver, sequenceId, mailboxes } = await startHealthSystem('domainhealth'));
  });
  afterAll(async () => {
    await sys?.stop();
    await receiver?.close();
  });

  const domainOf = (name: string) => sys.api('GET', `/v1/domains/${mailboxes[name]!.domainId}`);
  const slackFor = (name: string) =>
    receiver.received.filter((r) => r.path === '/slack' && r.body.text.includes(name));
  const hooksFor = (name: string) =>
    receiver.received.filter((r) => r.path === '/hook' && r.body.data.domain?.name === name);

  it('a manual run pauses the domain at 3.1%, not the one at 2.9% nor the one below the minimum sample', async () => {
    const run = await sys.api('POST', '/v1/domains/health/run');
    expect(run.status).toBe(200);
    expect(run.body.state, JSON.stringify(run.body)).toBe('completed');
    expect(run.body.result.paused).toEqual(['pauses.example']);

    const paused = await domainOf('pauses.example');
    expect(paused.body).toMatchObject({ status: 'paused', pauseKind: 'bounce', pausedBy: 'domain-health' });
    expect(paused.body.reason).toBe('paused because 31 of 1,000 sends bounced, 3.1% over 7 days, above 3%');
    expect(paused.body.figures).toMatchObject({ sends: 1000, bounces: 31 });
    expect(paused.body.days).toEqual([expect.objectContaining({ sends: 1000, bounces: 31 })]);

    const list = await sys.api('GET', '/v1/domains');
    expect(list.body.items.map((d: { domain: string; status: string }) => `${d.domain} ${d.status}`)).toEqual(
      ['clean.example active', 'few.example active', 'pauses.example paused', 'stays.example active'],
    );
    const stays = await domainOf('stays.example');
    expect(stays.body).toMatchObject({ status: 'active', healthLevel: 'approaching' });
    expect(stays.body.figures).toMatchObject({ sends: 1000, bounces: 29 });
    const few = await domainOf('few.example');
    expect(few.body).toMatchObject({ status: 'active', healthLevel: 'ok' });
    expect(few.body.figures).toMatchObject({ sends: 10, bounces: 2, bounceRate: 0.2 });

    const audit = await sys.api(
      'GET',
      `/v1/audit?entityType=sending_domain&entityId=${mailboxes['pauses.example']!.domainId}`,
    );
    expect(audit.body.items).toEqual([
      expect.objectContaining({
        actor: 'domain-health',
        action: 'domain.paused',
        data: expect.objectContaining({ reason: paused.body.reason }),
      }),
    ]);
  });

  it('exactly one alert reaches Slack and one the signed generic webhook, after a retry; none for the others', async () => {
    const accepted = await waitFor('the pause alert on both channels', () => {
      const slack = slackFor('pauses.example');
      const hooks = hooksFor('pauses.example').filter((r) => r.status === 200);
      return slack.length > 0 && hooks.length > 0 ? { slack, hooks } : null;
    });
    // The second tick finds the same state: no new alert.
    expect((await sys.api('POST', '/v1/domains/health/run')).body.result.paused).toEqual([]);
    const alerts = await waitFor('every alert settled', async () => {
      const list = await sys.api('GET', '/v1/alerts');
      return list.body.items.every((a: { settledAt: string | null }) => a.settledAt) ? list.body.items : null;
    });

    // Slack: its incoming webhook JSON, with the domain, the figures, the threshold and the link.
    expect(accepted.slack).toHaveLength(1);
    const slack = accepted.slack[0]!.body;
    expect(slack.text).toContain('Sending domain pauses.example paused');
    expect(slack.text).toContain('31 of 1,000 sends bounced, 3.1% over 7 days, above 3%');
    expect(slack.text).toContain(
      `<http://touchbase.ops.example/v1/domains/${mailboxes['pauses.example']!.domainId}|Open in touchbase>`,
    );
    expect(slack.blocks[1].fields.map((f: { text: string }) => f.text)).toEqual(
      expect.arrayContaining([
        '*sends*: 1000',
        '*bounces*: 31',
        '*bounceRate*: 3.1%',
        '*bounceThreshold*: 3%',
      ]),
    );

    // The generic webhook: refused once, delivered once; both attempts signed with the
    // same webhook-id, so a receiver can drop a repeat.
    const attempts = hooksFor('pauses.example');
    expect(attempts.map((r) => r.status)).toEqual([503, 200]);
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const a of attempts) {
      expect(verifyStandardWebhook(SECRET, a.headers, a.raw)).toBe(a.body.data.alertId);
    }
    expect(() =>
      verifyStandardWebhook(
        'whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==',
        attempts[1]!.headers,
        attempts[1]!.raw,
      ),
    ).toThrow(/signature/);
    expect(attempts[1]!.body).toMatchObject({
      type: 'domain.paused',
      data: {
        domain: { name: 'pauses.example' },
        figures: { sends: 1000, bounces: 31, bounceRate: 0.031 },
        thresholds: { bounceThreshold: 0.03 },
        link: `http://touchbase.ops.example/v1/domains/${mailboxes['pauses.example']!.domainId}`,
      },
    });

    // The failed attempt is visible in the API and the metrics.
    const pauseAlert = alerts.find((a: { kind: string }) => a.kind === 'domain.paused');
    expect(pauseAlert.deliveries).toEqual([
      expect.objectContaining({ channel: 'log', status: 'delivered', attempts: 1 }),
      expect.objectContaining({ channel: 'slack', status: 'delivered', attempts: 1 }),
      expect.objectContaining({
        channel: 'webhook',
        status: 'delivered',
        attempts: 2,
        lastError: 'HTTP 503: try later',
      }),
    ]);
    const metrics = await fetch(`${sys.apiUrl}/metrics`).then((r) => r.text());
    expect(metrics).toContain('touchbase_alert_deliveries_total{channel="webhook",outcome="retrying"} 1');
    // Delivered: the pause alert (at its second attempt) and the warning for the 2.9% domain.
    expect(metrics).toContain('touchbase_alert_deliveries_total{channel="webhook",outcome="delivered"} 2');
    expect(metrics).toContain('touchbase_alert_deliveries_failing{channel="webhook"} 0');

    // The domain at 2.9% got its one warning (80% of the threshold), the others nothing.
    expect(slackFor('stays.example').map((r) => r.body.text)).toEqual([
      expect.stringContaining('approaching its threshold'),
    ]);
    expect(slackFor('few.example')).toEqual([]);
    expect(slackFor('clean.example')).toEqual([]);
    expect(alerts.map((a: { kind: string; domain: string }) => `${a.kind} ${a.domain}`).sort()).toEqual([
      'domain.paused pauses.example',
      'domain.threshold_approached stays.example',
    ]);
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = (await fetch(`${sys.apiUrl}/docs/json`).then((r) => r.json())) as { paths: object };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/domains',
        '/v1/domains/health',
        '/v1/domains/health/run',
        '/v1/domains/{id}',
        '/v1/domains/{id}/pause',
        '/v1/domains/{id}/resume',
        '/v1/alerts',
      ]),
    );
  });

  it('/metrics shows the bounce rate, sends and bounces in the window and the paused state per domain', async () => {
    const metrics = await fetch(`${sys.apiUrl}/metrics`).then((r) => r.text());
    expect(metrics).toContain('touchbase_domain_bounce_rate_ratio{domain="pauses.example"} 0.031');
    expect(metrics).toContain('touchbase_domain_window_sends{domain="pauses.example"} 1000');
    expect(metrics).toContain('touchbase_domain_window_bounces{domain="pauses.example"} 31');
    expect(metrics).toContain('touchbase_domain_paused{domain="pauses.example"} 1');
    expect(metrics).toContain('touchbase_domain_paused{domain="stays.example"} 0');
    expect(metrics).toContain('touchbase_domain_bounce_rate_ratio{domain="stays.example"} 0.029');
  });

  it('a new enrollment is refused with the reason (409) or held; the held one starts after an audited resume', async () => {
    const { mailboxId, domainId } = mailboxes['pauses.example']!;
    const prospects = await sys.api('POST', '/v1/prospects', {
      prospects: [{ email: 'held@prospect.example', firstName: 'Held' }],
    });
    const prospectId = prospects.body.prospects[0].id as string;

    const refused = await fetch(`${sys.apiUrl}/v1/enrollments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sequenceId, mailboxId, prospectIds: [prospectId] }),
    });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await refused.json()) as { code: string; domain: string; detail: string };
    expect(problem).toMatchObject({ code: 'domain_paused', domain: 'pauses.example' });
    expect(problem.detail).toContain('paused because 31 of 1,000 sends bounced, 3.1% over 7 days, above 3%');

    const held = await sys.api('POST', '/v1/enrollments', {
      sequenceId,
      mailboxId,
      prospectIds: [prospectId],
      whenDomainPaused: 'hold',
    });
    expect(held.status).toBe(201);
    expect(held.body.enrolled).toEqual([]);
    const enrollmentId = held.body.held[0].id as string;
    expect((await sys.api('GET', `/v1/enrollments/${enrollmentId}`)).body.status).toBe('queued');
    expect((await sys.api('GET', `/v1/domains/${domainId}`)).body.heldEnrollments).toBe(1);
    expect([...(await sys.rt.touchQueue.existing([`${enrollmentId}-1`]))]).toEqual([]);

    const badResume = await sys.api('POST', `/v1/domains/${domainId}/resume`, { reason: 'no name' });
    expect(badResume.status).toBe(400);
    const resumed = await sys.api('POST', `/v1/domains/${domainId}/resume`, {
      by: 'alice@ops',
      reason: 'bad list removed from the campaign',
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'active', releasedEnrollments: 1 });
    const again = await sys.api('POST', `/v1/domains/${domainId}/resume`, {
      by: 'alice@ops',
      reason: 'again',
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'invalid_state', domainStatus: 'active' });

    const audit = await sys.api('GET', `/v1/audit?entityType=sending_domain&entityId=${domainId}`);
    expect(audit.body.items.map((a: { action: string }) => a.action)).toEqual([
      'domain.paused',
      'domain.resumed',
    ]);
    expect(audit.body.items[1]).toMatchObject({
      actor: 'alice@ops',
      data: expect.objectContaining({ reason: 'bad list removed from the campaign', releasedEnrollments: 1 }),
    });

    const delivery = await waitFor('the held enrollment to be sent its first touch', () =>
      sys.sandbox.deliveries().find((d) => d.enrollmentId === enrollmentId),
    );
    expect(delivery.step).toBe(1);
    await waitFor('the enrollment to run', async () => {
      const e = await sys.api('GET', `/v1/enrollments/${enrollmentId}`);
      return ['active', 'exhausted'].includes(e.body.status) && e.body.currentStep > 1;
    });

    // The resume is an alert too, once on each channel; the next tick counts afresh and leaves it active.
    await waitFor('the resume alert', () => slackFor('pauses.example').length === 2);
    expect(slackFor('pauses.example')[1]!.body.text).toContain('resumed by alice@ops: bad list removed');
    const run = await sys.api('POST', '/v1/domains/health/run');
    expect(run.body.result.paused).toEqual([]);
    expect((await domainOf('pauses.example')).body.status).toBe('active');
  });
});
