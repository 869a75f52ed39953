import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HttpEventStream,
  SandboxAdapter,
  SandboxServer,
  sandboxEventStream,
  sandboxWebhookProvider,
  verifyStandardWebhook,
} from '../src/index.js';
import { RecordingServer } from './support/recording-server.js';

const SECRET = 'whsec_dGVzdC1zZWNyZXQtZm9yLXNhbmRib3gtc3RyZWFt';

/**
 * The sandbox's pull stream: every answer goes into an ordered log, readable with
 * the webhook secret as Bearer, in the same signed payloads its webhooks carry,
 * whatever became of the webhook; pushes are retried a bounded number of times.
 */
describe('sandbox event stream', () => {
  const startedAt = Date.now();
  /** The number before the sandbox's first event. */
  let base = 0;
  const sandbox = new SandboxServer({
    webhookSecret: SECRET,
    webhookRetry: { attempts: 3, backoffMs: 20, maxBackoffMs: 40 },
  });
  // Ingest, as the sandbox's webhooks find it: up, then down (503) for a while.
  let ingestUp = true;
  const ingest = new RecordingServer(() => ({ status: ingestUp ? 200 : 503, body: {} }));
  let adapter: SandboxAdapter;
  let stream: HttpEventStream;
  let ingestUrl = '';

  beforeAll(async () => {
    const url = await sandbox.start();
    ingestUrl = await ingest.start();
    sandbox.setWebhookUrl(`${ingestUrl}/webhooks/sandbox`);
    adapter = new SandboxAdapter(url);
    stream = sandboxEventStream({ baseUrl: url, webhookSecret: SECRET });
  });
  afterAll(async () => {
    await stream?.close();
    await adapter?.close();
    await sandbox.close();
    await ingest.close();
  });

  const send = (to: string, step: number) =>
    adapter.send({
      idempotencyKey: `k-${to}-${step}`,
      from: 'sdr@sender.example',
      to,
      subject: 'Hello',
      body: 'Hi',
      conversationId: null,
      inReplyTo: null,
      metadata: {
        enrollmentId: '00000000-0000-4000-8000-000000000001',
        prospectId: '00000000-0000-4000-8000-000000000002',
        step,
      },
    });

  it('logs every answer in order and serves the signed payloads by sequence number', async () => {
    sandbox.script('answers@prospect.example', 'reply', 1, 'Not interested, thanks.');
    sandbox.script('dead@prospect.example', 'bounce');
    sandbox.script('away@prospect.example', 'out_of_office');
    await send('answers@prospect.example', 1);
    await send('dead@prospect.example', 1);
    await send('away@prospect.example', 1);
    await send('quiet@prospect.example', 1);
    await sandbox.settled();

    const logged = sandbox.events();
    // Numbered from the sandbox's start time (see the restart test), one by one.
    base = logged[0]!.seq - 1;
    expect(base).toBeGreaterThanOrEqual(startedAt * 1000);
    expect(logged.map((e) => [e.seq - base, e.payload.type, e.push])).toEqual([
      [1, 'reply', 'delivered'],
      [2, 'bounce', 'delivered'],
      [3, 'out_of_office', 'delivered'],
    ]);
    // The stream's items are the webhook bodies, byte for byte, under the webhook ids.
    const webhooks = ingest.requests.map((r) => ({
      id: verifyStandardWebhook(SECRET, r.headers, JSON.stringify(r.body)),
      body: r.body,
    }));
    const res = await fetch(`${sandbox.url}/events?after=0&limit=10`, {
      headers: { authorization: `Bearer ${SECRET}` },
    });
    const page = (await res.json()) as {
      events: { seq: number; id: string; event: unknown }[];
      has_more: boolean;
    };
    expect(page.has_more).toBe(false);
    expect(page.events.map((e) => e.seq - base)).toEqual([1, 2, 3]);
    expect(page.events.map((e) => ({ id: e.id, body: e.event }))).toEqual(webhooks);

    // Read through the http pull code: the same canonical events as the webhook endpoint makes.
    const pulled = await stream.pull(null, 2);
    expect(pulled).toMatchObject({ cursor: String(base + 2), hasMore: true, rejected: [] });
    const rest = await stream.pull(pulled.cursor, 2);
    expect(rest).toMatchObject({ cursor: String(base + 3), hasMore: false, rejected: [] });
    const viaWebhook = sandboxWebhookProvider({ secret: SECRET });
    const receivedAt = new Date();
    for (const [i, { event }] of [...pulled.events, ...rest.events].entries()) {
      const [expected] = await viaWebhook.normalise(
        JSON.stringify(webhooks[i]!.body),
        { auth: 'signature', deliveryId: webhooks[i]!.id },
        receivedAt,
      );
      expect(event).toEqual(expected);
    }
    expect(rest.events[0]!.event).toMatchObject({ source: 'sandbox', type: 'out_of_office', inReply: true });
    expect(pulled.events[0]!.event).toMatchObject({ type: 'reply', classification: 'not_interested' });
    // Past the end: nothing, and the cursor stays.
    expect(await stream.pull(String(base + 3))).toMatchObject({
      events: [],
      cursor: String(base + 3),
      hasMore: false,
    });
  });

  it('keeps the events whose pushes were given up, after the configured attempts', async () => {
    ingestUp = false;
    const before = ingest.requests.length;
    sandbox.script('late@prospect.example', 'reply');
    await send('late@prospect.example', 1);
    await sandbox.settled();
    ingestUp = true;
    const late = sandbox.events().at(-1)!;
    expect(late).toMatchObject({ seq: base + 4, push: 'given_up', attempts: 3, deliveredAt: null });
    expect(ingest.requests.length - before).toBe(3);
    expect(sandbox.stats()).toMatchObject({ events: 4, webhooksDelivered: 3, webhooksGivenUp: 1 });
    const page = await stream.pull(String(base + 3));
    expect(page.events.map((e) => e.event.externalId)).toEqual([late.id]);
  });

  it('a restarted sandbox numbers its events after the old ones: a cursor from before reads them all', async () => {
    const cursor = String(sandbox.events().at(-1)!.seq);
    const again = new SandboxServer({ webhookSecret: SECRET, webhookRetry: { attempts: 1, backoffMs: 1 } });
    const url = await again.start();
    again.setWebhookUrl(`${ingestUrl}/webhooks/sandbox`);
    const client = new SandboxAdapter(url);
    const pull = sandboxEventStream({ baseUrl: url, webhookSecret: SECRET });
    try {
      again.script('after@prospect.example', 'reply');
      await client.send({
        idempotencyKey: 'k-after-1',
        from: 'sdr@sender.example',
        to: 'after@prospect.example',
        subject: 'Hello',
        body: 'Hi',
        conversationId: null,
        inReplyTo: null,
        metadata: {
          enrollmentId: '00000000-0000-4000-8000-000000000003',
          prospectId: '00000000-0000-4000-8000-000000000004',
          step: 1,
        },
      });
      await again.settled();
      expect(again.events()[0]!.seq).toBeGreaterThan(Number(cursor));
      const page = await pull.pull(cursor);
      expect(page.events.map((e) => e.event.externalId)).toEqual([again.events()[0]!.id]);
    } finally {
      await pull.close();
      await client.close();
      await again.close();
    }
  });

  it('a push that fails at first and then gets through is delivered', async () => {
    let refusals = 2;
    ingest.respond(() => (refusals-- > 0 ? { status: 503, body: {} } : { status: 200, body: {} }));
    sandbox.script('slow@prospect.example', 'bounce');
    await send('slow@prospect.example', 1);
    await waitFor('the push to get through', () => sandbox.events().at(-1)?.push === 'delivered');
    expect(sandbox.events().at(-1)!.attempts).toBe(3);
  });

  it('refuses the stream without the webhook secret, and a bad query', async () => {
    const get = (query: string, authorization?: string) =>
      fetch(`${sandbox.url}/events${query}`, authorization ? { headers: { authorization } } : {});
    expect((await get('?after=0')).status).toBe(401);
    expect((await get('?after=0', 'Bearer not-the-secret')).status).toBe(401);
    expect((await get('?after=0', `Basic ${SECRET}`)).status).toBe(401);
    expect((await get('?after=-1', `Bearer ${SECRET}`)).status).toBe(400);
    expect((await get('?after=0&limit=0', `Bearer ${SECRET}`)).status).toBe(400);
    const wrong = sandboxEventStream({ baseUrl: sandbox.url, webhookSecret: 'whsec_wrong-secret-entirely' });
    try {
      await expect(wrong.pull(null)).rejects.toMatchObject({ kind: 'permanent' });
    } finally {
      await wrong.close();
    }
  });
});
