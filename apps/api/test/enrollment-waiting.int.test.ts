import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { TouchQueue } from '@touchbase/queues';
import { createLogger } from '@touchbase/telemetry';
import { applyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const TOKEN = 'waiting-admin-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const ANY_TIME = { windowDays: [] as number[] };
const STEPS = [
  { channel: 'email' as const, subject: 'Hi {{firstName}}', body: 'One', wait: '3d' },
  { channel: 'email' as const, subject: 'x', body: 'Two', wait: '3d' },
];

/**
 * "Why isn't it sending?" with the state of each reason set up for real: the
 * repositories and use cases the sender, ingest and the domain guard use.
 */
describe('GET /v1/enrollments/:id/waiting (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  // The touch jobs an applied event cancels or schedules, on the fixture's Redis prefix.
  let touchQueue: TouchQueue;
  let sequenceId: string;
  const ids: Record<string, string> = {};
  let n = 0;

  async function mailbox(opts: Record<string, unknown> = {}) {
    // A domain of its own, so one pause or cap concerns one case only.
    return f.repos.mailboxes.create({
      provider: 'sandbox',
      address: `mb@d${++n}.example`,
      ...ANY_TIME,
      ...opts,
    });
  }
  async function enroll(
    mailboxId: string,
    prospect: Record<string, unknown> = {},
    seq = sequenceId,
    hold = false,
  ) {
    const [p] = await f.repos.prospects.upsertMany([
      { email: `p${++n}@people.example`, firstName: 'Ada', ...prospect },
    ]);
    const res = await f.app.inject({
      method: 'POST',
      url: '/v1/enrollments',
      headers: auth,
      payload: {
        sequenceId: seq,
        mailboxId,
        prospectIds: [p!.id],
        ...(hold ? { whenDomainPaused: 'hold' } : {}),
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { enrolled: { id: string }[]; held: { id: string }[] };
    return { id: (body.enrolled[0] ?? body.held[0])!.id, prospectId: p!.id };
  }
  /** What the sender records for a touch it sent: the claim, then the send. */
  async function recordSent(enrollmentId: string, nextTouchAt: Date) {
    const claim = await f.repos.touches.claim(enrollmentId, 1, touchKey(enrollmentId, 1), 'x@y.z');
    expect(claim.kind).toBe('claimed');
    await f.repos.touches.recordSent({
      enrollmentId,
      step: 1,
      messageId: `m-${randomUUID()}`,
      conversationId: `c-${randomUUID()}`,
      nextTouchAt,
    });
  }
  async function waiting(id: string) {
    const res = await f.app.inject({ url: `/v1/enrollments/${id}/waiting`, headers: auth });
    expect(res.statusCode).toBe(200);
    return (res.json() as { waiting: Record<string, unknown> | null }).waiting;
  }

  beforeAll(async () => {
    f = await apiFixture('api-waiting', { adminToken: TOKEN });
    touchQueue = new TouchQueue(f.redis, f.prefix, createLogger({ name: 'test', level: 'silent' }));
    sequenceId = (await f.repos.sequences.create({ name: 'Waiting', steps: STEPS })).id;

    ids.due = (await enroll((await mailbox()).id)).id;

    ids.dueTime = (await enroll((await mailbox()).id)).id;
    await recordSent(ids.dueTime, new Date(Date.now() + 3 * 86_400_000));

    const paused = await mailbox();
    ids.mailboxPaused = (await enroll(paused.id)).id;
    await f.repos.mailboxes.pauseForSetupProblem(paused.id, 'dmarc_fail');

    const onDomain = await mailbox();
    ids.domainPaused = (await enroll(onDomain.id)).id;
    await f.repos.sendingDomains.pause({
      domainId: onDomain.domainId,
      actor: 'test',
      kind: 'manual',
      reason: 'bounce rate 4%',
      holdTouches: true,
      alert: { kind: 'domain.paused', message: 'paused', data: {} },
    });
    ids.held = (await enroll(onDomain.id, {}, sequenceId, true)).id;

    // A pool whose only member is paused: the first touch has nowhere to go.
    const member = await mailbox();
    const pool = await f.repos.mailboxes.createPool('waiting-pool', [member.id]);
    const pooledSeq = (await f.repos.sequences.create({ name: 'Pooled', steps: STEPS })).id;
    ids.pool = (await enroll((await mailbox()).id, {}, pooledSeq)).id;
    await f.repos.mailboxes.setSequencePool(pooledSeq, pool.id);
    await f.repos.mailboxes.pauseForSetupProblem(member.id, 'disconnected');

    // An out-of-office reply, applied as ingest applies it.
    const ooo = await enroll((await mailbox()).id);
    ids.ooo = ooo.id;
    await applyEvent(
      {
        events: f.repos.events,
        touchQueue,
        logger: createLogger({ name: 't', level: 'silent' }),
      },
      {
        source: 'test',
        externalId: `ooo-${ooo.id}`,
        type: 'out_of_office',
        occurredAt: new Date(),
        enrollmentId: ooo.id,
        returnDate: new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
        channel: 'email',
        data: {},
      },
    );

    // A template variable the prospect lacks: predicted while active, and paused by the sender at its due time.
    const companySeq = (
      await f.repos.sequences.create({
        name: 'Company',
        steps: [{ channel: 'email', subject: 'About {{company}}', body: 'Hi', wait: '1d' }],
      })
    ).id;
    ids.missingActive = (await enroll((await mailbox()).id, { company: null }, companySeq)).id;
    ids.missingPaused = (await enroll((await mailbox()).id, { company: null }, companySeq)).id;
    await f.repos.touches.pause(ids.missingPaused, 1, 'missing_variable:company');

    // The window changed after the touch was scheduled: today is no longer a sending day.
    const shut = await mailbox();
    ids.window = (await enroll(shut.id)).id;
    const today = ((new Date().getUTCDay() + 6) % 7) + 1;
    const otherDay = (today % 7) + 1;
    await f.repos.mailboxes.setSendingWindow(shut.id, {
      windowDays: [otherDay],
      windowStart: '00:00',
      windowEnd: '23:59',
      timezone: 'UTC',
    });

    // Two touches recorded today on a mailbox of two a day: the third waits for the cap.
    const capped = await mailbox({ perDay: 2 });
    const first = await enroll(capped.id);
    const second = await enroll(capped.id);
    ids.cap = (await enroll(capped.id)).id;
    await recordSent(first.id, new Date(Date.now() + 3 * 86_400_000));
    await recordSent(second.id, new Date(Date.now() + 3 * 86_400_000));

    // A touch claimed and not yet recorded: on its way.
    ids.inFlight = (await enroll((await mailbox()).id)).id;
    await f.repos.touches.claim(ids.inFlight, 1, touchKey(ids.inFlight, 1), 'x@y.z');

    ids.ended = (await enroll((await mailbox()).id)).id;
    await f.repos.enrollments.stop(ids.ended, 'cancelled', 'manual');
  });
  afterAll(async () => {
    await touchQueue?.close();
    await f?.close();
  });

  it('says a due touch is due, and a sent step waits for the next due time', async () => {
    expect(await waiting(ids.due!)).toEqual({ reason: 'due', until: null });
    const w = await waiting(ids.dueTime!);
    expect(w?.reason).toBe('waiting_for_due_time');
    expect(new Date(w?.until as string).getTime()).toBeGreaterThan(Date.now() + 2 * 86_400_000);
  });

  it('says the mailbox is paused, with its reason', async () => {
    expect(await waiting(ids.mailboxPaused!)).toEqual({
      reason: 'mailbox_paused',
      until: null,
      detail: 'dmarc_fail',
    });
  });

  it('says the domain is paused, for a running enrollment and a held one', async () => {
    expect(await waiting(ids.domainPaused!)).toEqual({
      reason: 'domain_paused',
      until: null,
      detail: 'bounce rate 4%',
    });
    expect(await waiting(ids.held!)).toMatchObject({ reason: 'domain_paused', until: null });
  });

  it('says the pool has no usable mailbox', async () => {
    expect(await waiting(ids.pool!)).toEqual({ reason: 'pool_no_usable_mailbox', until: null });
  });

  it('says out of office until the return date', async () => {
    const w = await waiting(ids.ooo!);
    expect(w?.reason).toBe('out_of_office');
    expect(new Date(w?.until as string).getTime()).toBeGreaterThan(Date.now() + 9 * 86_400_000);
  });

  it('names the missing variable, before the due time and once paused for it', async () => {
    const expected = { reason: 'missing_variable', until: null, variables: ['company'] };
    expect(await waiting(ids.missingActive!)).toEqual(expected);
    expect(await waiting(ids.missingPaused!)).toEqual(expected);
  });

  it('says the window is closed until it opens', async () => {
    const w = await waiting(ids.window!);
    expect(w?.reason).toBe('window_closed');
    const until = new Date(w?.until as string);
    expect(until.getTime()).toBeGreaterThan(Date.now());
    expect(until.getUTCHours()).toBe(0);
  });

  it('says the day cap is reached until the oldest send of the day leaves the window', async () => {
    const w = await waiting(ids.cap!);
    expect(w).toMatchObject({ reason: 'mailbox_cap_reached', cap: 'day' });
    const hours = (new Date(w?.until as string).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('says a claimed touch is on its way, and an ended enrollment waits for nothing', async () => {
    expect((await waiting(ids.inFlight!))?.reason).toBe('touch_in_progress');
    expect(await waiting(ids.ended!)).toBeNull();
    const missing = await f.app.inject({ url: `/v1/enrollments/${randomUUID()}/waiting`, headers: auth });
    expect(missing.statusCode).toBe(404);
  });

  it('filters GET /v1/enrollments by reason, a page at a time', async () => {
    const res = await f.app.inject({
      url: '/v1/enrollments?waiting=missing_variable&limit=1',
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    const first = res.json() as { items: { id: string; waiting: { reason: string } }[]; next: string | null };
    expect(first.items).toHaveLength(1);
    expect(first.next).toBe(first.items[0]!.id);
    const rest = (
      await f.app.inject({
        url: `/v1/enrollments?waiting=missing_variable&limit=5&after=${first.next}`,
        headers: auth,
      })
    ).json() as { items: { id: string }[]; next: string | null };
    expect([...first.items, ...rest.items].map((e) => e.id).sort()).toEqual(
      [ids.missingActive!, ids.missingPaused!].sort(),
    );
    expect(rest.next).toBeNull();
    const paused = (
      await f.app.inject({ url: '/v1/enrollments?waiting=mailbox_paused', headers: auth })
    ).json() as {
      items: { id: string; status: string }[];
    };
    expect(paused.items.map((e) => e.id)).toEqual([ids.mailboxPaused]);
    expect(paused.items[0]?.status).toBe('active');
    const bad = await f.app.inject({ url: '/v1/enrollments?waiting=because', headers: auth });
    expect(bad.statusCode).toBe(400);
    const badCursor = await f.app.inject({ url: '/v1/enrollments?waiting=due&after=nope', headers: auth });
    expect(badCursor.statusCode).toBe(400);
  });

  it('finds each reason through the filter (the SQL narrowing keeps every match)', async () => {
    const expected: Record<string, string[]> = {
      due: [ids.due!],
      mailbox_paused: [ids.mailboxPaused!],
      domain_paused: [ids.domainPaused!, ids.held!],
      pool_no_usable_mailbox: [ids.pool!],
      out_of_office: [ids.ooo!],
      window_closed: [ids.window!],
      mailbox_cap_reached: [ids.cap!],
      touch_in_progress: [ids.inFlight!],
    };
    for (const [reason, want] of Object.entries(expected)) {
      const res = await f.app.inject({ url: `/v1/enrollments?waiting=${reason}`, headers: auth });
      const got = (res.json() as { items: { id: string }[] }).items.map((e) => e.id);
      expect({ reason, got: got.sort() }).toEqual({ reason, got: [...want].sort() });
    }
  });

  it('counts the live enrollments per reason', async () => {
    const res = await f.app.inject({ url: '/v1/enrollments/waiting/summary', headers: auth });
    expect(res.statusCode).toBe(200);
    const { total, byReason } = res.json() as { total: number; byReason: Record<string, number> };
    expect(byReason).toEqual({
      // the two the capped mailbox sent wait for their step 2, with the one sent first
      due: 1,
      waiting_for_due_time: 3,
      mailbox_paused: 1,
      domain_paused: 2,
      pool_no_usable_mailbox: 1,
      out_of_office: 1,
      missing_variable: 2,
      window_closed: 1,
      mailbox_cap_reached: 1,
      touch_in_progress: 1,
    });
    expect(total).toBe(14);
  });
});
