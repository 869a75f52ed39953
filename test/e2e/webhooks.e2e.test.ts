import { randomUUID } from 'node:crypto';
import { standardWebhookHeaders } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startTestSystem, type TestSystem } from '../support/test-system.js';

describe('ingest: signed sandbox webhooks', () => {
  let sys: TestSystem;
  let ids: Awaited<ReturnType<typeof seed>>;
  let enrollmentId: string;

  beforeAll(async () => {
    sys = await startTestSystem('webhooks');
    // Long waits: the enrollment stays active with a pending job while webhooks arrive.
    ids = await seed(sys, { steps: 3, prospects: ['known@prospect.example'], wait: '30d' });
    const res = await sys.api('POST', '/v1/enrollments', {
      sequenceId: ids.sequenceId,
      mailboxId: ids.mailboxId,
      prospectIds: ids.prospectIds,
    });
    enrollmentId = res.body.enrolled[0].id;
    await waitFor(
      'touch 1',
      async () => (await sys.api('GET', `/v1/enrollments/${enrollmentId}`)).body.currentStep === 2,
    );
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${sys.ingestUrl}/webhooks/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const signed = (
    payload: object,
    secret = sys.env.SANDBOX_WEBHOOK_SECRET ?? sys.rt.config.SANDBOX_WEBHOOK_SECRET,
  ) => {
    const body = JSON.stringify(payload);
    return { body, headers: standardWebhookHeaders(secret, (payload as { id: string }).id, body) };
  };
  const event = (over: object = {}) => ({
    id: `evt_${randomUUID()}`,
    type: 'reply',
    occurred_at: new Date().toISOString(),
    message_id: '<nothing@sandbox>',
    email: 'known@prospect.example',
    text: 'not now',
    ...over,
  });
  const eventCount = async () => (await sys.api('GET', '/v1/events?limit=500')).body.items.length as number;

  it('a bad signature gets 401 problem+json and changes nothing', async () => {
    const before = await eventCount();
    const { body } = signed(event());
    const res = await post(
      body,
      standardWebhookHeaders('whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==', 'evt_x', body),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await eventCount()).toBe(before);
    expect((await sys.api('GET', `/v1/enrollments/${enrollmentId}`)).body.status).toBe('active');
  });

  it('a stale timestamp gets 401', async () => {
    const payload = event();
    const body = JSON.stringify(payload);
    const res = await post(
      body,
      standardWebhookHeaders(sys.rt.config.SANDBOX_WEBHOOK_SECRET, payload.id, body, Date.now() - 3_600_000),
    );
    expect(res.status).toBe(401);
  });

  it('a malformed payload gets 400 naming the field, nothing recorded', async () => {
    const before = await eventCount();
    const { body, headers } = signed(event({ type: 'telepathy' }));
    const res = await post(body, headers);
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { field: string }[] };
    expect(problem.errors.map((e) => e.field)).toContain('body.type');
    expect(await eventCount()).toBe(before);
  });

  it('a webhook for an unknown prospect gets 200, is recorded and changes nothing', async () => {
    const { body, headers } = signed(event({ email: 'stranger@nowhere.example' }));
    const res = await post(body, headers);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { outcome: string }).outcome).toBe('unknown_prospect');
    expect((await sys.api('GET', `/v1/enrollments/${enrollmentId}`)).body.status).toBe('active');
  });

  it('the same webhook delivered twice: one event, one effect', async () => {
    const before = await eventCount();
    const payload = event({ type: 'reply', enrollment_id: enrollmentId });
    const first = signed(payload);
    const r1 = await post(first.body, first.headers);
    const second = signed(payload); // a provider's retry: same id, fresh timestamp
    const r2 = await post(second.body, second.headers);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(((await r1.json()) as { duplicate: boolean }).duplicate).toBe(false);
    expect(((await r2.json()) as { duplicate: boolean }).duplicate).toBe(true);
    expect(await eventCount()).toBe(before + 1);
    const enrollment = (await sys.api('GET', `/v1/enrollments/${enrollmentId}`)).body;
    expect(enrollment.status).toBe('replied');
    const pending = await sys.rt.touchQueue.existing([`${enrollmentId}-2`]);
    expect(pending.size).toBe(0);
    const audit = await sys.api('GET', `/v1/enrollments/${enrollmentId}/timeline`);
    expect(audit.body.events.filter((e: { type: string }) => e.type === 'reply')).toHaveLength(1);
  });
});

describe('API: bad input', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem('badinput');
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('an invalid sequence definition is refused with an error naming the field', async () => {
    const res = await sys.api('POST', '/v1/sequences', {
      name: 'broken',
      steps: [
        { subject: 'ok', body: 'fine', wait: '1d' },
        { subject: 'Hi {{first name}}', body: 'x', wait: 'soon' },
      ],
    });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toContain('body.steps.1.wait');
    expect(fields).toContain('body.steps.1.subject');
    expect((await sys.api('GET', '/v1/sequences')).body.items).toHaveLength(0);
  });

  it('an empty sequence is refused naming steps', async () => {
    const res = await sys.api('POST', '/v1/sequences', { name: 'empty', steps: [] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('body.steps');
  });

  it('unknown routes and ids are problem+json 404s', async () => {
    const res = await sys.api('GET', `/v1/enrollments/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});
