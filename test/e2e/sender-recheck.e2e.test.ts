import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { HttpProviderAdapter, MailboxThrottle, ProviderRegistry } from '@touchbase/providers';
import { createRedis } from '@touchbase/queues';
import { buildSender } from '@touchbase/sender';
import { waitFor } from '@touchbase/testing';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Recorded,
  RecordingServer,
  type Reply,
} from '../../packages/providers/test/support/recording-server.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  allowSharedPeople,
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  importProspects,
} from './ingest-support.js';

type TimelineEvent = { source: string; type: string; externalId: string; outcome: string };
const timeline = async (sys: TestSystem, enrollmentId: string) =>
  (await sys.api('GET', `/v1/enrollments/${enrollmentId}/timeline`)).body as {
    enrollment: { status: string; stopReason: string | null };
    touches: { step: number; status: string }[];
    events: TimelineEvent[];
  };

/**
 * Issue 3, "Before each send, the sender re-checks the enrollment (and, where the
 * adapter offers it, the provider's view of the prospect): a reply that raced the
 * touch wins". The provider saw the reply, but its webhook never reached ingest:
 * the sender asks before the next touch, does not send it, and records why.
 */
describe("pre-send re-check against the sandbox's view (whole system)", () => {
  let sys: TestSystem;
  let mailboxId: string;
  let sequenceId: string;

  beforeAll(async () => {
    sys = await startTestSystem('sender_recheck');
    mailboxId = await createMailbox(sys);
    sequenceId = await createSequence(sys, 3, '1d');
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** The sandbox's webhooks are lost (a 404 is final for it) while `run` runs. */
  async function withLostWebhooks<T>(run: () => Promise<T>): Promise<T> {
    sys.sandbox.setWebhookUrl(`${sys.ingestUrl}/webhooks/lost`);
    try {
      return await run();
    } finally {
      sys.sandbox.setWebhookUrl(`${sys.ingestUrl}/webhooks/sandbox`);
    }
  }

  it('a reply the provider saw, whose webhook never came, stops the next touch in every sequence; the timeline says why', async () => {
    const email = 'answered@recheck.example';
    const [prospectId] = await importProspects(sys, [{ email }]);
    // The same prospect waits for the first touch of another sequence.
    const other = await createSequence(sys, 1, '1d');
    // One person in two sequences at once: both opt out of exclusivity and the cooldown.
    await allowSharedPeople(sys, other);
    await allowSharedPeople(sys, sequenceId);
    const otherVersion = (await sys.api('GET', `/v1/sequences/${other}`)).body.versions[0].id;
    const later = new Date(Date.now() + 3_600_000);
    const { enrolled } = await sys.rt.repos.enrollments.enroll({
      sequenceId: other,
      sequenceVersionId: otherVersion,
      mailboxId,
      prospectIds: [prospectId!],
      firstTouchAt: () => later,
    });
    const otherId = enrolled[0]!.id;
    await sys.rt.touchQueue.schedule([{ enrollmentId: otherId, step: 1, dueAt: later }]);

    sys.sandbox.script(email, 'reply', 1);
    const e = await withLostWebhooks(async () => {
      const [row] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
      return waitFor('the re-check to end it', async () => {
        const t = await timeline(sys, row!.id);
        return t.enrollment.status === 'replied' ? row!.id : null;
      });
    });

    expect(sys.sandbox.prospectStatus(email)).toBe('replied');
    // Only the first touch went out; the reply's webhook never arrived.
    expect(
      sys.sandbox
        .deliveries()
        .filter((d) => d.enrollmentId === e)
        .map((d) => d.step),
    ).toEqual([1]);
    const t = await timeline(sys, e);
    expect(t.enrollment.stopReason).toBe('reply:unclassified');
    expect(t.touches.map((x) => [x.step, x.status])).toEqual([[1, 'sent']]);
    expect(t.events.filter((x) => x.source !== 'sandbox')).toEqual([
      expect.objectContaining({
        source: 'sandbox-recheck',
        type: 'reply',
        externalId: touchKey(e, 2),
        outcome: 'applied',
      }),
    ]);
    expect(t.events.some((x) => x.source === 'sandbox')).toBe(false);
    // Every sequence of the prospect ended, and the other one's pending job is gone.
    expect((await enrollment(sys, otherId)).status).toBe('replied');
    expect(await sys.rt.touchQueue.existing([touchKey(otherId, 1)])).toEqual(new Set());
    // A reply suppresses nothing.
    const suppressions = (await sys.api('GET', '/v1/suppressions')).body.items.map(
      (s: { value: string }) => s.value,
    );
    expect(suppressions).not.toContain(email);
  });

  it('a hard bounce the provider saw ends the sequence as bounced, suppresses the address and marks it invalid', async () => {
    const email = 'dead@recheck.example';
    const [prospectId] = await importProspects(sys, [{ email }]);
    sys.sandbox.script(email, 'bounce', 1);
    const e = await withLostWebhooks(async () => {
      const [row] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
      return waitFor('the re-check to end it', async () =>
        (await enrollment(sys, row!.id)).status === 'bounced' ? row!.id : null,
      );
    });
    expect(
      sys.sandbox
        .deliveries()
        .filter((d) => d.enrollmentId === e)
        .map((d) => d.step),
    ).toEqual([1]);
    const t = await timeline(sys, e);
    expect(t.events.map((x) => [x.source, x.type])).toEqual([['sandbox-recheck', 'bounce']]);
    const suppressions = (await sys.api('GET', '/v1/suppressions')).body.items.map(
      (s: { value: string }) => s.value,
    );
    expect(suppressions).toContain(email);
    expect((await sys.api('GET', `/v1/prospects/${prospectId}`)).body.emailStatus).toBe('invalid');
  });

  it('a reply the sequence goes on after (its continue-on list) is recorded once, and the touches go on', async () => {
    const email = 'goes-on@recheck.example';
    const goesOn = await createSequence(sys, 3, '1d');
    // As ingest would apply it: a reply no classifier read is `unclassified`, a class this sequence goes on after.
    await sys.rt.repos.sequences.setPolicies(goesOn, {
      replyActions: { stopOnReply: false, continueOn: ['unclassified'] },
    });
    const [prospectId] = await importProspects(sys, [{ email }]);
    sys.sandbox.script(email, 'reply', 1);
    const e = await withLostWebhooks(async () => {
      const [row] = await enroll(sys, goesOn, mailboxId, [prospectId!]);
      return waitFor('the sequence to run out', async () =>
        (await enrollment(sys, row!.id)).status === 'exhausted' ? row!.id : null,
      );
    });
    expect(sys.sandbox.prospectStatus(email)).toBe('replied');
    // The touch the re-check looked at went out, and so did the next one.
    expect(
      sys.sandbox
        .deliveries()
        .filter((d) => d.enrollmentId === e)
        .map((d) => d.step),
    ).toEqual([1, 2, 3]);
    const t = await timeline(sys, e);
    // Recorded once, before the second touch; the third's re-check finds it recorded and goes on.
    expect(t.events.filter((x) => x.source !== 'sandbox')).toEqual([
      expect.objectContaining({ source: 'sandbox-recheck', type: 'reply', externalId: touchKey(e, 2) }),
    ]);
  });

  it('a prospect the provider knows nothing against gets every touch', async () => {
    const email = 'quiet@recheck.example';
    const [prospectId] = await importProspects(sys, [{ email }]);
    const [row] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
    await waitFor(
      'the sequence to run out',
      async () => (await enrollment(sys, row!.id)).status === 'exhausted',
    );
    expect(
      sys.sandbox
        .deliveries()
        .filter((d) => d.enrollmentId === row!.id)
        .map((d) => d.step),
    ).toEqual([1, 2, 3]);
  });
});

/**
 * The http adapter's `GET /prospects/{email}/status`, through a real sender against
 * a local provider (real time: TIME_SCALE 1 is required for any provider but the sandbox).
 */
describe("pre-send re-check against the http provider's view", () => {
  let sys: TestSystem;
  let sender: Worker;
  let workerRedis: Redis;
  const statuses = new Map<string, Reply>();
  // What the provider accepted, by idempotency key (GET /messages/{key}).
  const accepted = new Map<string, { message_id: string; conversation_id: string }>();
  let n = 0;
  const http = new RecordingServer((req: Recorded): Reply => {
    const asked = req.path.match(/^\/prospects\/([^/]+)\/status$/);
    if (req.method === 'GET' && asked) {
      return statuses.get(decodeURIComponent(asked[1]!)) ?? { status: 200, body: { status: 'active' } };
    }
    const lookup = req.path.match(/^\/messages\/([^/]+)$/);
    if (req.method === 'GET' && lookup) {
      const hit = accepted.get(decodeURIComponent(lookup[1]!));
      return hit ? { status: 200, body: hit } : { status: 404, body: { error: 'not found' } };
    }
    const answer = { message_id: `<m${++n}@hp>`, conversation_id: `conv_${n}` };
    return { status: 201, body: answer };
  });
  const RECHECK_BOUND_MS = 300;

  beforeAll(async () => {
    sys = await startTestSystem(
      'sender_recheck_http',
      { TIME_SCALE: '1' },
      { withoutSender: true, pacingMs: 0 },
    );
    await http.start();
    workerRedis = createRedis(sys.env.REDIS_URL as string, 'worker');
    sender = buildSender({
      repos: sys.rt.repos,
      touchQueue: sys.rt.touchQueue,
      providers: new ProviderRegistry().register(
        new HttpProviderAdapter({ baseUrl: http.url, token: 'hp-token', timeoutMs: 5_000 }),
      ),
      connection: workerRedis,
      prefix: sys.env.REDIS_PREFIX as string,
      logger: sys.rt.logger,
      metrics: sys.rt.metrics,
      concurrency: 5,
      timeScale: 1,
      throttle: new MailboxThrottle(sys.rt.redis.producer, { prefix: sys.env.REDIS_PREFIX as string }),
      recheckTimeoutMs: RECHECK_BOUND_MS,
    });
  });
  afterAll(async () => {
    await sender?.close();
    await workerRedis?.quit();
    await http.close();
    await sys?.stop();
  });

  async function httpMailbox(perMinute = 100) {
    const mailbox = await sys.rt.repos.mailboxes.create({
      provider: 'http',
      address: `sdr-${randomUUID().slice(0, 8)}@sender.example`,
      perMinute,
      perHour: 1000,
      perDay: 1000,
      windowDays: [],
    });
    return mailbox.id;
  }
  async function enrollOne(email: string, mailboxId?: string) {
    const seq = await sys.api('POST', '/v1/sequences', {
      name: `s-${email}`,
      steps: [{ subject: 'Hello', body: 'One touch', wait: '0s' }],
    });
    const p = await sys.api('POST', '/v1/prospects', { prospects: [{ email }] });
    const res = await sys.api('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId: mailboxId ?? (await httpMailbox()),
      prospectIds: [p.body.prospects[0].id],
    });
    return res.body.enrolled[0].id as string;
  }
  const sends = (email: string) => http.requests.filter((r) => r.method === 'POST' && r.body?.to === email);
  const looks = (email: string) =>
    http.requests.filter(
      (r) => r.method === 'GET' && r.path === `/prospects/${encodeURIComponent(email)}/status`,
    );

  it('an unsubscribe the provider saw: the touch is not sent, the address is suppressed, the event names the provider', async () => {
    const email = 'gone@recheck.example';
    statuses.set(email, { status: 200, body: { status: 'unsubscribed' } });
    const e = await enrollOne(email);
    await waitFor('the re-check to end it', async () => (await enrollment(sys, e)).status === 'unsubscribed');
    expect(looks(email)).toHaveLength(1);
    expect(looks(email)[0]!.headers.authorization).toBe('Bearer hp-token');
    expect(sends(email)).toEqual([]);
    const t = await timeline(sys, e);
    expect(t.touches).toEqual([]);
    expect(t.events.map((x) => [x.source, x.type, x.externalId])).toEqual([
      ['http-recheck', 'unsubscribe', touchKey(e, 1)],
    ]);
    const suppressions = (await sys.api('GET', '/v1/suppressions')).body.items.map(
      (s: { value: string }) => s.value,
    );
    expect(suppressions).toContain(email);
  });

  it('a touch the provider stops, whose token (asked at the same time) was refused, gives up its place in line', async () => {
    const email = 'gone-while-full@recheck.example';
    statuses.set(email, { status: 200, body: { status: 'unsubscribed' } });
    // The mailbox's one send a minute is spent: the touch's token is refused with a
    // place in line (a wait hint), which would stand, counted against the cap, ahead
    // of the next waiter if the stopped touch kept it.
    const mailboxId = await httpMailbox(1);
    const throttle = new MailboxThrottle(sys.rt.redis.producer, { prefix: sys.env.REDIS_PREFIX as string });
    const limits = { perMinute: 1, perHour: 1000, perDay: 1000, minSpacingMs: 0 };
    expect((await throttle.take(mailboxId, limits, 'someone-else')).granted).toBe(true);
    const e = await enrollOne(email, mailboxId);
    await waitFor('the re-check to end it', async () => (await enrollment(sys, e)).status === 'unsubscribed');
    expect(sends(email)).toEqual([]);
    const log = `${sys.env.REDIS_PREFIX}:throttle:{${mailboxId}}`;
    await waitFor('the refused place in line to be given up', async () =>
      (await sys.rt.redis.producer.zrange(log, 0, -1)).every((m) => !m.startsWith('h:')),
    );
    expect(await sys.rt.redis.producer.zrange(log, 0, -1)).toEqual(['g:someone-else']);
  });

  it('a provider that does not answer in time holds the touch up no longer than the bound: it is sent', async () => {
    const email = 'slow-look@recheck.example';
    statuses.set(email, 'hang');
    const e = await enrollOne(email);
    await waitFor('the touch to go out', async () => (await enrollment(sys, e)).status === 'exhausted');
    const [look] = looks(email);
    const [send] = sends(email);
    expect(send!.headers['idempotency-key']).toBe(touchKey(e, 1));
    expect(send!.at - look!.at).toBeGreaterThanOrEqual(RECHECK_BOUND_MS - 20);
    expect(send!.at - look!.at).toBeLessThan(RECHECK_BOUND_MS + 1_000);
  });

  it('a provider that fails the look (503) does not stop the touch', async () => {
    const email = 'flaky-look@recheck.example';
    statuses.set(email, { status: 503, body: { error: 'unavailable' } });
    const e = await enrollOne(email);
    await waitFor('the touch to go out', async () => (await enrollment(sys, e)).status === 'exhausted');
    expect(sends(email)).toHaveLength(1);
  });

  it('a touch left in doubt by a dead sender, whose enrollment ended meanwhile, is settled from the provider, never left sending', async () => {
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'in-doubt',
      steps: [{ subject: 'Hello', body: 'One touch', wait: '0s' }],
    });
    const mailboxId = await httpMailbox();
    const p = await sys.api('POST', '/v1/prospects', {
      prospects: [{ email: 'had-it@recheck.example' }, { email: 'never-got-it@recheck.example' }],
    });
    // Enrolled through the repository: no job yet.
    const { enrolled } = await sys.rt.repos.enrollments.enroll({
      sequenceId: seq.body.id,
      sequenceVersionId: seq.body.version.id,
      mailboxId,
      prospectIds: p.body.prospects.map((x: { id: string }) => x.id),
      firstTouchAt: () => new Date(),
    });
    const [hadIt, neverGotIt] = enrolled.map((e) => e.id) as [string, string];
    // What a sender killed after the claim leaves behind; the provider took the first only.
    for (const [e, email] of [
      [hadIt, 'had-it@recheck.example'],
      [neverGotIt, 'never-got-it@recheck.example'],
    ] as const) {
      expect((await sys.rt.repos.touches.claim(e, 1, touchKey(e, 1), email)).kind).toBe('claimed');
    }
    accepted.set(touchKey(hadIt, 1), { message_id: '<had-it@hp>', conversation_id: 'conv_had_it' });
    // The reply that ended both came before the job was taken over.
    for (const e of [hadIt, neverGotIt]) await sys.rt.repos.enrollments.stop(e, 'replied', 'reply:test');
    await sys.rt.touchQueue.schedule([
      { enrollmentId: hadIt, step: 1, dueAt: new Date() },
      { enrollmentId: neverGotIt, step: 1, dueAt: new Date() },
    ]);
    const settled = async (e: string) => {
      const [t] = (await timeline(sys, e)).touches as { status: string; providerMessageId?: string }[];
      return t && t.status !== 'sending' ? t : null;
    };
    expect(await waitFor('the first to be settled', () => settled(hadIt))).toMatchObject({
      status: 'sent',
      providerMessageId: '<had-it@hp>',
    });
    expect(await waitFor('the second to be settled', () => settled(neverGotIt))).toMatchObject({
      status: 'cancelled',
    });
    // Neither was sent (again).
    expect(sends('had-it@recheck.example')).toEqual([]);
    expect(sends('never-got-it@recheck.example')).toEqual([]);
  });
});
