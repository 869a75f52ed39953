import { randomUUID } from 'node:crypto';
import { standardWebhookHeaders } from '@touchbase/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzApiProperty, fuzzWebhookProperty } from '../support/fuzz-properties.js';
import type { TestSystem } from '../support/test-system.js';
import { HTTP_SECRET, startFuzzSystem, TOKEN } from './fuzz-support.js';

/**
 * Requests of the property-based runs (two thirds to the API, a third to webhooks);
 * FUZZ_REQUESTS=30000 for a longer hunt, FUZZ_SEED to replay a run fast-check reported.
 */
const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/**
 * Property-based fuzzing over every operation of the OpenAPI document and every webhook
 * endpoint: values drawn from the schemas with hostile ones mixed in. No 5xx, and a
 * refused request records nothing. A system of its own: valid requests drawn here may
 * create rows, which the invalid-request files must not see.
 */
describe('fuzz: properties over every operation and every webhook', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startFuzzSystem('fuzz-property');
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('property: a signed webhook with NUL and lone surrogates in its ids, address and diagnostic is recorded, made safe', async () => {
    const id = `evt_\u0000${randomUUID()}\ud800`;
    const body = JSON.stringify({
      id,
      type: 'bounce',
      occurred_at: new Date().toISOString(),
      message_id: '<m\u0000@x>',
      email: 'nul\u0000@prospect.example',
      bounce: { hard: true, status: '5.1.1', diagnostic: 'no\u0000such \udc00user' },
    });
    const headers = {
      'content-type': 'application/json',
      ...standardWebhookHeaders(sys.rt.config.SANDBOX_WEBHOOK_SECRET, `msg_${randomUUID()}`, body),
    };
    const res = await fetch(`${sys.ingestUrl}/webhooks/sandbox`, { method: 'POST', headers, body });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, duplicate: false });
    const { rows } = await sys.rt.db.pool.query<{ externalId: string }>(
      `SELECT external_id AS "externalId" FROM event WHERE source = 'sandbox' AND external_id LIKE 'evt_%'`,
    );
    expect(rows.map((r) => r.externalId)).toContain(
      id.replace('\u0000', '\ufffd').replace('\ud800', '\ufffd'),
    );
    // Delivered again (the provider's retry): acknowledged as the same event.
    const again = await fetch(`${sys.ingestUrl}/webhooks/sandbox`, {
      method: 'POST',
      headers: {
        ...headers,
        ...standardWebhookHeaders(sys.rt.config.SANDBOX_WEBHOOK_SECRET, `msg_${randomUUID()}`, body),
      },
      body,
    });
    expect(await again.json()).toMatchObject({ received: true, duplicate: true });
  });

  it('property: every webhook endpoint, bodies from its fields with hostile values, bytes not UTF-8', async () => {
    const ingest = (await import('@touchbase/ingest')) as {
      webhookProvidersFrom: (c: unknown) => { source: string }[];
    };
    const sources = ingest.webhookProvidersFrom(sys.rt.config).map((p) => p.source);
    const stats = await fuzzWebhookProperty(
      sys,
      sources,
      {
        standard: { sandbox: sys.rt.config.SANDBOX_WEBHOOK_SECRET, http: HTTP_SECRET },
        token: TOKEN,
        hubspot: TOKEN,
      },
      Math.ceil(FUZZ_REQUESTS / 3),
      FUZZ_SEED,
    );
    expect((await fetch(`${sys.ingestUrl}/healthz`)).status).toBe(200);
    console.log(JSON.stringify({ test: 'fuzz-webhooks-property', ...stats }));
  }, 300_000);

  it('property: every operation of the OpenAPI document, from its schemas plus hostile values: no 5xx, a refusal records nothing', async () => {
    const stats = await fuzzApiProperty(sys, Math.ceil((FUZZ_REQUESTS * 2) / 3), FUZZ_SEED);
    expect((await fetch(`${sys.apiUrl}/healthz`)).status).toBe(200);
    console.log(JSON.stringify({ test: 'fuzz-api-property', ...stats }));
  }, 300_000);
});
