import { randomBytes } from 'node:crypto';
import { signHubspot, standardWebhookHeaders } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { startTestSystem, steps, type TestSystem } from '../support/test-system.js';

/** Secrets of every webhook endpoint, for a test system's environment. */
export const WEBHOOK_ENV = {
  HTTP_PROVIDER_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
  SMARTLEAD_WEBHOOK_TOKEN: `sl-${randomBytes(12).toString('hex')}`,
  LEMLIST_WEBHOOK_TOKEN: `ll-${randomBytes(12).toString('hex')}`,
  LINKEDIN_WEBHOOK_TOKEN: `li-${randomBytes(12).toString('hex')}`,
  INBOUND_WEBHOOK_TOKEN: `in-${randomBytes(12).toString('hex')}`,
  HUBSPOT_CLIENT_SECRET: `hs-${randomBytes(12).toString('hex')}`,
};

/** A sandbox mailbox without caps that matter and without a sending window. */
export async function createMailbox(sys: TestSystem): Promise<string> {
  const r = await sys.api('POST', '/v1/mailboxes', {
    provider: 'sandbox',
    address: `sdr-${randomBytes(4).toString('hex')}@ingest-test.example`,
    windowDays: [],
    perMinute: 10_000,
    perHour: 100_000,
    perDay: 1_000_000,
  });
  if (r.status !== 201) throw new Error(`mailbox: ${JSON.stringify(r.body)}`);
  return r.body.id;
}

export async function createSequence(sys: TestSystem, n: number, wait: string): Promise<string> {
  const r = await sys.api('POST', '/v1/sequences', {
    name: `seq-${randomBytes(3).toString('hex')}`,
    steps: steps(n, wait),
  });
  if (r.status !== 201) throw new Error(`sequence: ${JSON.stringify(r.body)}`);
  return r.body.id;
}

export async function importProspects(
  sys: TestSystem,
  prospects: { email: string; linkedinUrl?: string; hubspotId?: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < prospects.length; i += 5_000) {
    const r = await sys.api('POST', '/v1/prospects', {
      prospects: prospects
        .slice(i, i + 5_000)
        .map((p, j) => ({ ...p, firstName: `P${i + j}`, company: 'Acme' })),
    });
    if (r.status !== 200) throw new Error(`prospects: ${JSON.stringify(r.body)}`);
    ids.push(...(r.body.prospects as { id: string }[]).map((p) => p.id));
  }
  return ids;
}

export async function enroll(sys: TestSystem, sequenceId: string, mailboxId: string, prospectIds: string[]) {
  const r = await sys.api('POST', '/v1/enrollments', { sequenceId, mailboxId, prospectIds });
  if (r.status !== 201 && r.status !== 200) throw new Error(`enroll: ${JSON.stringify(r.body)}`);
  return (r.body.enrolled ?? [r.body]) as { id: string; prospectId: string }[];
}

export async function enrollment(sys: TestSystem, id: string) {
  return (await sys.api('GET', `/v1/enrollments/${id}`)).body as {
    status: string;
    currentStep: number;
    stopReason: string | null;
    nextTouchAt: string | null;
    conversationId: string | null;
  };
}

/** Posts a webhook body to ingest. */
export async function post(
  sys: TestSystem,
  path: string,
  body: string,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${sys.ingestUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    retryAfter: res.headers.get('retry-after'),
    body: text ? JSON.parse(text) : null,
  };
}

/** Posts a Standard Webhooks-signed event to `/webhooks/http`. */
export function postHttp(
  sys: TestSystem,
  id: string,
  payload: object,
  opts: { secret?: string; nowMs?: number } = {},
) {
  const body = JSON.stringify(payload);
  const headers = standardWebhookHeaders(
    opts.secret ?? WEBHOOK_ENV.HTTP_PROVIDER_WEBHOOK_SECRET,
    id,
    body,
    opts.nowMs,
  );
  return post(sys, '/webhooks/http', body, headers);
}

export async function eventCount(sys: TestSystem): Promise<number> {
  let n = 0;
  let after: string | null = null;
  for (;;) {
    const r = await sys.api('GET', `/v1/events?limit=500${after ? `&after=${after}` : ''}`);
    n += r.body.items.length;
    after = r.body.next;
    if (!after) return n;
  }
}

/** Posts a body to /webhooks/hubspot signed as HubSpot signs it (v3), at `ts` (default now) with `secret`. */
export function postHubspot(sys: TestSystem, body: string, opts: { ts?: number; secret?: string } = {}) {
  const ts = String(opts.ts ?? Date.now());
  const url = `${sys.ingestUrl}/webhooks/hubspot`;
  const sig = signHubspot(opts.secret ?? WEBHOOK_ENV.HUBSPOT_CLIENT_SECRET, 'POST', url, body, ts);
  return post(sys, '/webhooks/hubspot', body, {
    'x-hubspot-signature-v3': sig.toString('base64'),
    'x-hubspot-request-timestamp': ts,
  });
}

/** A webhook test system: a mailbox, a three-touch sequence with long waits, and helpers. */
export type WebhookSystem = {
  sys: TestSystem;
  mailboxId: string;
  sequenceId: string;
  /** A prospect enrolled whose first touch went out; returns ids and the touch's message id. */
  live: (
    email: string,
    linkedinUrl?: string,
    hubspotId?: string,
  ) => Promise<{ prospectId: string; enrollmentId: string; messageId: string }>;
  /** How many pending jobs the touch (enrollment, step) has (0 or 1). */
  pending: (enrollmentId: string, step: number) => Promise<number>;
};

/** Starts the whole system for the webhook endpoint tests (stop it with `sys.stop()`). */
export async function startWebhookSystem(label: string): Promise<WebhookSystem> {
  const sys = await startTestSystem(label, { ...WEBHOOK_ENV, INGEST_BODY_LIMIT_BYTES: '65536' });
  const mailboxId = await createMailbox(sys);
  // Long waits: enrollments stay active at step 2 with a pending job while webhooks arrive.
  const sequenceId = await createSequence(sys, 3, '300d');
  const live: WebhookSystem['live'] = async (email, linkedinUrl, hubspotId) => {
    const [prospectId] = await importProspects(sys, [
      { email, ...(linkedinUrl ? { linkedinUrl } : {}), ...(hubspotId ? { hubspotId } : {}) },
    ]);
    const [e] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
    await waitFor('touch 1 sent', async () => (await enrollment(sys, e!.id)).currentStep === 2);
    const delivery = sys.sandbox.deliveries().find((d) => d.enrollmentId === e!.id && d.step === 1)!;
    return { prospectId: prospectId!, enrollmentId: e!.id, messageId: delivery.messageId };
  };
  const pending = async (enrollmentId: string, step: number) =>
    (await sys.rt.touchQueue.existing([`${enrollmentId}-${step}`])).size;
  return { sys, mailboxId, sequenceId, live, pending };
}

/**
 * Opts a sequence out of the contact policies that keep a person to one sequence at
 * a time (exclusivity, cooldown), for tests that enroll one person in several.
 */
export async function allowSharedPeople(sys: TestSystem, sequenceId: string): Promise<void> {
  const r = await sys.api('PATCH', `/v1/sequences/${sequenceId}/policies`, {
    contact: { exclusive: false, cooldownDays: 0 },
  });
  if (r.status !== 200) throw new Error(`policies: ${JSON.stringify(r.body)}`);
}
