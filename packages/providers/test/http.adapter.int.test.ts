import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpProviderAdapter } from '../src/http/http.adapter.js';
import { retryAfterMs } from '../src/http/retry-after.js';
import { ProviderError, type SendRequest } from '../src/provider-adapter.js';
import { type Recorded, RecordingServer, type Reply } from './support/recording-server.js';

// A provider implementing the generic contract: Bearer auth, Idempotency-Key on
// every send (same key, same answer, nothing sent twice), conversations by id.
function provider(sent: Map<string, { message_id: string; conversation_id: string }>) {
  let n = 0;
  return (req: Recorded): Reply => {
    if (req.headers.authorization !== 'Bearer hp-token')
      return { status: 401, body: { error: { code: 'unauthorized' } } };
    if (req.method === 'GET') {
      const hit = sent.get(decodeURIComponent(req.path.replace('/v2/messages/', '')));
      return hit ? { status: 200, body: hit } : { status: 404, body: { error: { code: 'not_found' } } };
    }
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string')
      return { status: 400, body: { error: { code: 'idempotency_key_required' } } };
    const seen = sent.get(key);
    if (seen) return { status: 200, body: seen };
    const m = req.path.match(/^\/v2\/conversations(?:\/([^/]+)\/messages)?$/);
    if (req.method !== 'POST' || !m) return { status: 404, body: {} };
    for (const f of ['from', 'to', 'subject', 'body'])
      if (typeof req.body?.[f] !== 'string')
        return { status: 422, body: { error: { code: 'invalid', message: `${f} required` } } };
    const answer = { message_id: `<m${++n}@hp>`, conversation_id: m[1] ?? `conv_${n}` };
    sent.set(key, answer);
    return { status: 201, body: answer };
  };
}

const request = (
  step: number,
  conversationId: string | null = null,
  inReplyTo: string | null = null,
): SendRequest => ({
  idempotencyKey: `e6a2c0a0-5f2e-4b6f-9d4b-2f7a3b1c9d00-${step}`,
  from: 'sdr@sender.example',
  to: 'alan@prospect.example',
  subject: 'Hello',
  body: 'Hi',
  conversationId,
  inReplyTo,
  metadata: { enrollmentId: 'e6a2c0a0-5f2e-4b6f-9d4b-2f7a3b1c9d00', step, prospectId: 'p1' },
  unsubscribeUrl: 'https://t.example/u/tok',
});

describe('HttpProviderAdapter (the generic HTTP provider)', () => {
  const sent = new Map<string, { message_id: string; conversation_id: string }>();
  const server = new RecordingServer(provider(sent));
  let adapter: HttpProviderAdapter;
  beforeAll(async () => {
    await server.start();
    adapter = new HttpProviderAdapter({ baseUrl: `${server.url}/v2`, token: 'hp-token', timeoutMs: 300 });
  });
  afterAll(async () => {
    await adapter?.close();
    await server.close();
  });

  it('starts a conversation with the first touch and names it in follow-ups, each with its Idempotency-Key', async () => {
    const first = await adapter.send(request(1));
    expect(first).toEqual({ messageId: '<m1@hp>', conversationId: 'conv_1' });
    const follow = await adapter.send(request(2, first.conversationId, first.messageId));
    expect(follow).toEqual({ messageId: '<m2@hp>', conversationId: 'conv_1' });
    const [a, b] = server.requests;
    expect([a!.method, a!.path, a!.headers['idempotency-key'], a!.headers.authorization]).toEqual([
      'POST',
      '/v2/conversations',
      request(1).idempotencyKey,
      'Bearer hp-token',
    ]);
    expect(a!.body).toMatchObject({
      from: 'sdr@sender.example',
      to: 'alan@prospect.example',
      unsubscribe_url: 'https://t.example/u/tok',
      metadata: { step: 1 },
    });
    expect([b!.method, b!.path, b!.headers['idempotency-key']]).toEqual([
      'POST',
      '/v2/conversations/conv_1/messages',
      request(2).idempotencyKey,
    ]);
    expect(b!.body.in_reply_to).toBe('<m1@hp>');
  });

  it('a retry with the same key gets the first answer; status finds it by key', async () => {
    expect(await adapter.send(request(1))).toEqual({ messageId: '<m1@hp>', conversationId: 'conv_1' });
    expect(sent.size).toBe(2);
    expect(await adapter.status(request(1).idempotencyKey)).toEqual({
      state: 'sent',
      result: { messageId: '<m1@hp>', conversationId: 'conv_1' },
    });
    expect(await adapter.status('nobody-1')).toEqual({ state: 'not_found' });
  });

  it('a timeout is retryable and may have been sent; a refused connection was certainly not sent', async () => {
    server.respond(() => 'hang');
    const timeout = await adapter.send(request(3, 'conv_1')).catch((e) => e);
    expect(timeout).toBeInstanceOf(ProviderError);
    expect([timeout.kind, timeout.notSent]).toEqual(['retryable', false]);
    const closed = new HttpProviderAdapter({ baseUrl: 'http://127.0.0.1:9', token: 't', timeoutMs: 300 });
    const refused = await closed.send(request(3)).catch((e) => e);
    expect([refused.kind, refused.notSent]).toEqual(['retryable', true]);
    await closed.close();
  });

  it('classifies 429 (Retry-After in seconds or as a date), 5xx, 4xx and our-setup codes', async () => {
    const cases: [Reply, string][] = [
      [{ status: 429, body: {}, headers: { 'retry-after': '1' } }, 'rate_limited'],
      [{ status: 500, body: { error: { message: 'boom' } } }, 'retryable'],
      [{ status: 422, body: { error: 'recipient rejected' } }, 'permanent'],
      [
        {
          status: 403,
          body: { error: { code: 'sender_unauthenticated', message: 'DMARC alignment failed' } },
        },
        'our_setup',
      ],
      [{ status: 409, body: { error: { code: 'mailbox_disconnected' } } }, 'our_setup'],
    ];
    for (const [reply, kind] of cases) {
      server.respond(() => reply);
      const err = await adapter.send(request(4)).catch((e) => e);
      expect(err.kind).toBe(kind);
    }
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:30 GMT', 1000, now)).toBe(30_000);
    expect(retryAfterMs('2', 1000, now)).toBe(2000);
    expect(retryAfterMs(undefined, 1000, now)).toBe(1000);
    expect(retryAfterMs('soon', 1000, now)).toBe(1000);
  });
});
