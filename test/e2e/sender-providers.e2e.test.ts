import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import {
  HttpProviderAdapter,
  MailboxThrottle,
  ProviderRegistry,
  SmtpAdapter,
  signUnsubscribeToken,
  verifyUnsubscribeToken,
} from '@touchbase/providers';
import { createRedis } from '@touchbase/queues';
import { buildSender } from '@touchbase/sender';
import { waitFor } from '@touchbase/testing';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Recorded,
  RecordingServer,
  type Reply,
} from '../../packages/providers/test/support/recording-server.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const SECRET = 'unsubscribe-secret-for-tests';
const TERMINAL = ['replied', 'bounced', 'unsubscribed', 'exhausted', 'cancelled', 'failed'];

/**
 * The sender with real adapters against local stand-ins (real time: TIME_SCALE
 * 1 is required for any provider but the sandbox): what each kind of provider
 * answer does to the touch, the enrollment, the mailbox and the prospect.
 */
describe('sender outcomes per provider answer (http and smtp adapters)', () => {
  let sys: TestSystem;
  let sender: Worker;
  let workerRedis: Redis;
  const sent = new Map<string, { message_id: string; conversation_id: string }>();
  // Per recipient, the answers to give before behaving normally.
  const script = new Map<string, Reply[]>();
  let n = 0;
  const http = new RecordingServer((req: Recorded): Reply => {
    if (req.method === 'GET') {
      const hit = sent.get(decodeURIComponent(req.path.replace('/messages/', '')));
      return hit ? { status: 200, body: hit } : { status: 404, body: { error: 'not found' } };
    }
    const queued = script.get(req.body?.to)?.shift();
    if (queued) return queued;
    const key = String(req.headers['idempotency-key']);
    const seen = sent.get(key);
    if (seen) return { status: 200, body: seen };
    const conv = req.path.match(/^\/conversations\/([^/]+)\/messages$/)?.[1];
    const answer = { message_id: `<m${++n}@hp>`, conversation_id: conv ?? `conv_${n}` };
    sent.set(key, answer);
    return { status: 201, body: answer };
  });
  const mails: ParsedMail[] = [];
  const smtpRefusals = new Map<string, [number, string]>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      const to = session.envelope.rcptTo[0]?.address ?? '';
      simpleParser(stream).then((mail) => {
        const refusal = smtpRefusals.get(to);
        if (!refusal) {
          mails.push(mail);
          return cb();
        }
        cb(Object.assign(new Error(refusal[1]), { responseCode: refusal[0] }));
      }, cb);
    },
  });

  beforeAll(async () => {
    sys = await startTestSystem(
      'sender_providers',
      { TIME_SCALE: '1' },
      { withoutSender: true, pacingMs: 0 },
    );
    await http.start();
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp.server.address() as { port: number }).port;
    const providers = new ProviderRegistry()
      .register(new HttpProviderAdapter({ baseUrl: http.url, token: 'hp-token', timeoutMs: 2_000 }))
      .register(new SmtpAdapter({ host: '127.0.0.1', port: smtpPort, secure: false, timeoutMs: 5_000 }));
    workerRedis = createRedis(sys.env.REDIS_URL as string, 'worker');
    sender = buildSender({
      repos: sys.rt.repos,
      touchQueue: sys.rt.touchQueue,
      providers,
      connection: workerRedis,
      prefix: sys.env.REDIS_PREFIX as string,
      logger: sys.rt.logger,
      metrics: sys.rt.metrics,
      concurrency: 10,
      timeScale: 1,
      throttle: new MailboxThrottle(sys.rt.redis.producer, { prefix: sys.env.REDIS_PREFIX as string }),
      unsubscribeUrl: (e) => `https://touchbase.example/u/${signUnsubscribeToken(e, SECRET)}`,
      holdMs: 300,
    });
  });
  afterAll(async () => {
    await sender?.close();
    await workerRedis?.quit();
    await http.close();
    await new Promise<void>((r) => smtp.close(() => r()));
    await sys?.stop();
  });

  async function mailbox(provider: string) {
    const row = await sys.rt.repos.mailboxes.create({
      provider,
      address: `sdr-${randomUUID().slice(0, 8)}@sender.example`,
      perMinute: 100,
      perHour: 1000,
      perDay: 1000,
      windowDays: [],
    });
    return row.id;
  }

  async function enroll(mailboxId: string, email: string, stepCount: number) {
    const seq = await sys.api('POST', '/v1/sequences', {
      name: `s-${email}`,
      steps: Array.from({ length: stepCount }, (_, i) => ({
        subject: 'Hello {{firstName|there}}',
        body: `Touch ${i + 1}`,
        wait: '0s',
      })),
    });
    const p = await sys.api('POST', '/v1/prospects', { prospects: [{ email, firstName: 'Ada' }] });
    const res = await sys.api('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId,
      prospectIds: [p.body.prospects[0].id],
    });
    expect(res.status).toBe(201);
    return { enrollmentId: res.body.enrolled[0].id as string, prospectId: p.body.prospects[0].id as string };
  }

  const settled = (enrollmentId: string) =>
    waitFor(`enrollment ${enrollmentId} to end`, async () => {
      const e = await sys.api('GET', `/v1/enrollments/${enrollmentId}`);
      return TERMINAL.includes(e.body.status) ? e.body : null;
    });
  const touches = async (enrollmentId: string) =>
    (await sys.api('GET', `/v1/enrollments/${enrollmentId}/timeline`)).body.touches;
  const requestsFor = (email: string) => http.requests.filter((r) => r.body?.to === email);

  it('http: the first touch creates the conversation, the follow-up names it, each with its own Idempotency-Key', async () => {
    const { enrollmentId } = await enroll(await mailbox('http'), 'http-ok@prospect.example', 2);
    expect((await settled(enrollmentId)).status).toBe('exhausted');
    const [first, second] = requestsFor('http-ok@prospect.example');
    expect([first!.path, first!.headers['idempotency-key']]).toEqual([
      '/conversations',
      touchKey(enrollmentId, 1),
    ]);
    const conversation = sent.get(touchKey(enrollmentId, 1))!.conversation_id;
    expect([second!.path, second!.headers['idempotency-key']]).toEqual([
      `/conversations/${conversation}/messages`,
      touchKey(enrollmentId, 2),
    ]);
    expect(second!.body.in_reply_to).toBe(sent.get(touchKey(enrollmentId, 1))!.message_id);
    expect(verifyUnsubscribeToken(String(first!.body.unsubscribe_url).split('/u/')[1] ?? '', SECRET)).toBe(
      enrollmentId,
    );
  });

  it('http: a 503 is retried with the same key and the touch goes out once', async () => {
    script.set('http-503@prospect.example', [{ status: 503, body: { error: 'unavailable' } }]);
    const { enrollmentId } = await enroll(await mailbox('http'), 'http-503@prospect.example', 1);
    expect((await settled(enrollmentId)).status).toBe('exhausted');
    const keys = requestsFor('http-503@prospect.example').map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([touchKey(enrollmentId, 1), touchKey(enrollmentId, 1)]);
    expect((await touches(enrollmentId)).map((t: { status: string }) => t.status)).toEqual(['sent']);
  });

  it('http: a 429 waits its Retry-After without failing, then sends', async () => {
    script.set('http-429@prospect.example', [
      { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '1' } },
    ]);
    const { enrollmentId } = await enroll(await mailbox('http'), 'http-429@prospect.example', 1);
    expect((await settled(enrollmentId)).status).toBe('exhausted');
    const [limited, accepted] = requestsFor('http-429@prospect.example');
    expect(accepted!.at - limited!.at).toBeGreaterThanOrEqual(990);
    expect((await touches(enrollmentId)).map((t: { status: string }) => t.status)).toEqual(['sent']);
    expect(await sys.rt.touchQueue.queue.getFailedCount()).toBe(0);
  });

  it('http: a permanent 4xx fails the touch and the enrollment with the provider reason', async () => {
    script.set('http-422@prospect.example', [{ status: 422, body: { error: 'recipient domain has no MX' } }]);
    const { enrollmentId } = await enroll(await mailbox('http'), 'http-422@prospect.example', 2);
    const e = await settled(enrollmentId);
    expect(e.status).toBe('failed');
    expect(e.stopReason).toContain('recipient domain has no MX');
    const [t] = await touches(enrollmentId);
    expect([t.status, t.error]).toEqual(['failed', expect.stringContaining('recipient domain has no MX')]);
    expect(requestsFor('http-422@prospect.example')).toHaveLength(1);
  });

  it('http: "mailbox disconnected" pauses the mailbox and alerts ops, the prospect is not suppressed, and the touch goes out once resumed', async () => {
    const email = 'http-setup@prospect.example';
    script.set(email, [
      { status: 409, body: { error: { code: 'mailbox_disconnected', message: 'reconnect the mailbox' } } },
    ]);
    const mailboxId = await mailbox('http');
    const { enrollmentId } = await enroll(mailboxId, email, 1);
    const paused = await waitFor('the mailbox to be paused', async () => {
      const m = await sys.api('GET', `/v1/mailboxes/${mailboxId}`);
      return m.body.status === 'paused' ? m.body : null;
    });
    expect(paused.statusReason).toContain('mailbox_disconnected');
    const alerts = await sys.rt.db.pool.query(`SELECT kind, data FROM alert WHERE data->>'mailboxId' = $1`, [
      mailboxId,
    ]);
    expect(alerts.rows).toEqual([
      {
        kind: 'mailbox.paused',
        data: expect.objectContaining({ mailboxId, provider: 'http', enrollmentId }),
      },
    ]);
    expect(
      (await sys.api('GET', '/v1/suppressions')).body.items.map((s: { value: string }) => s.value),
    ).not.toContain(email);
    expect((await sys.api('GET', `/v1/enrollments/${enrollmentId}`)).body.status).toBe('active');
    expect(await touches(enrollmentId)).toEqual([]);

    expect((await sys.api('POST', `/v1/mailboxes/${mailboxId}/resume`)).body.status).toBe('active');
    expect((await settled(enrollmentId)).status).toBe('exhausted');
    expect(sent.has(touchKey(enrollmentId, 1))).toBe(true);
  });

  it('smtp: follow-ups thread under the first Message-ID and every message carries one-click unsubscribe', async () => {
    const email = 'smtp-ok@prospect.example';
    const { enrollmentId } = await enroll(await mailbox('smtp'), email, 2);
    expect((await settled(enrollmentId)).status).toBe('exhausted');
    const got = mails.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === email);
    expect(got.map((m) => m.subject)).toEqual(['Hello Ada', 'Re: Hello Ada']);
    expect(got[1]!.inReplyTo).toBe(got[0]!.messageId);
    expect(got[1]!.references).toBe(got[0]!.messageId);
    for (const m of got) {
      const line = m.headerLines.find((h) => h.key === 'list-unsubscribe')?.line ?? '';
      const token = line.match(/\/u\/([^>]+)>/)?.[1] ?? '';
      expect(verifyUnsubscribeToken(token, SECRET)).toBe(enrollmentId);
      expect(m.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line).toBe(
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      );
    }
    const timeline = await touches(enrollmentId);
    expect(timeline.map((t: { providerMessageId: string }) => t.providerMessageId)).toEqual(
      got.map((m) => m.messageId),
    );
  });

  it('smtp: a DMARC rejection (5.7.26) pauses the mailbox with an alert and leaves the prospect alone', async () => {
    const email = 'smtp-dmarc@prospect.example';
    smtpRefusals.set(email, [
      550,
      "5.7.26 Unauthenticated email from sender.example is not accepted due to domain's DMARC policy",
    ]);
    const mailboxId = await mailbox('smtp');
    const { enrollmentId } = await enroll(mailboxId, email, 1);
    const paused = await waitFor('the mailbox to be paused', async () => {
      const m = await sys.api('GET', `/v1/mailboxes/${mailboxId}`);
      return m.body.status === 'paused' ? m.body : null;
    });
    expect(paused.statusReason).toContain('5.7.26');
    const alerts = await sys.rt.db.pool.query(`SELECT kind FROM alert WHERE data->>'mailboxId' = $1`, [
      mailboxId,
    ]);
    expect(alerts.rows).toEqual([{ kind: 'mailbox.paused' }]);
    expect(
      (await sys.api('GET', '/v1/suppressions')).body.items.map((s: { value: string }) => s.value),
    ).not.toContain(email);
    expect((await sys.api('GET', `/v1/enrollments/${enrollmentId}`)).body.status).toBe('active');
  });

  it('smtp: a touch in doubt (claimed by a sender that died) on a non-idempotent provider is marked unknown and never resent', async () => {
    const email = 'smtp-doubt@prospect.example';
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'doubt',
      steps: [{ subject: 'Hello', body: 'Once', wait: '0s' }],
    });
    const p = await sys.api('POST', '/v1/prospects', { prospects: [{ email, firstName: 'Ada' }] });
    // Enrolled through the repository, so no job exists yet.
    const { enrolled } = await sys.rt.repos.enrollments.enroll({
      sequenceId: seq.body.id,
      sequenceVersionId: seq.body.version.id,
      mailboxId: await mailbox('smtp'),
      prospectIds: [p.body.prospects[0].id],
      firstTouchAt: () => new Date(),
    });
    const enrollmentId = enrolled[0]!.id;
    // What a sender killed between the provider's accept and our commit leaves behind.
    const claim = await sys.rt.repos.touches.claim(enrollmentId, 1, touchKey(enrollmentId, 1), email);
    expect(claim.kind).toBe('claimed');
    await sys.rt.touchQueue.schedule([{ enrollmentId, step: 1, dueAt: new Date() }]);
    expect((await settled(enrollmentId)).status).toBe('exhausted');
    expect((await touches(enrollmentId)).map((t: { status: string }) => t.status)).toEqual(['unknown']);
    expect(mails.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === email)).toHaveLength(0);
  });
});
