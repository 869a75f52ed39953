import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import type { SandboxDelivery } from '@touchbase/providers';
import { reconcile } from '@touchbase/scheduler';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  importProspects,
  postHttp,
  WEBHOOK_ENV,
} from './ingest-support.js';

// TIME_SCALE 288000: a day lasts 300 ms. The first resend waits four days (1.2 s),
// the second eight (2.4 s).
const DAY_MS = 300;
const BACKOFF_DAYS = 4;

/** The system with its mailbox and 2-step sequence, resending a soft bounce after `backoffDays`. */
async function softBounceSystem(label: string, backoffDays: number) {
  const sys = await startTestSystem(label, {
    ...WEBHOOK_ENV,
    INGEST_SOFT_BOUNCE_RETRY_MS: String(backoffDays * 86_400_000),
  });
  const mailboxId = await createMailbox(sys);
  const sequenceId = await createSequence(sys, 2, '1d');
  return {
    sys,
    sequenceId,
    async start(email: string) {
      const [prospectId] = await importProspects(sys, [{ email }]);
      const [e] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
      return e!.id;
    },
    deliveries: (enrollmentId: string) =>
      sys.sandbox.deliveries().filter((d) => d.enrollmentId === enrollmentId),
  };
}

/**
 * Issue 4, "Soft bounce: the touch is retried later; the third soft bounce in a
 * row counts as hard", through the whole system: the sandbox answers touches with
 * soft bounces (452 4.2.2 mailbox full), ingest sends the enrollment back to the
 * bounced step, and the sender resends it with its own idempotency key
 * `{enrollmentId}-{step}-{attempt}`.
 */
describe('soft bounces are resent, at most three attempts', () => {
  let sys: TestSystem;
  let sequenceId: string;
  let start: (email: string) => Promise<string>;
  let deliveries: (enrollmentId: string) => readonly SandboxDelivery[];

  beforeAll(async () => {
    ({ sys, sequenceId, start, deliveries } = await softBounceSystem('sender_soft_bounce', BACKOFF_DAYS));
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const touches = async (enrollmentId: string) =>
    (await sys.api('GET', `/v1/enrollments/${enrollmentId}/timeline`)).body.touches as {
      step: number;
      attempt: number;
      status: string;
      idempotencyKey: string;
    }[];

  it('a soft bounce resends the touch once, with its own key, after the back-off, in a new thread; then the sequence goes on', async () => {
    const email = 'full-once@soft.example';
    sys.sandbox.script(email, 'soft_bounce', 1, undefined, 1);
    const e = await start(email);
    await waitFor('the sequence to run out', async () => (await enrollment(sys, e)).status === 'exhausted', {
      timeoutMs: 20_000,
    });

    const [first, resend, second, ...more] = deliveries(e);
    expect(more).toEqual([]);
    expect([first!.step, first!.idempotencyKey]).toEqual([1, touchKey(e, 1)]);
    expect([resend!.step, resend!.idempotencyKey]).toEqual([1, `${e}-1-2`]);
    expect([second!.step, second!.idempotencyKey]).toEqual([2, touchKey(e, 2)]);
    // Not before the back-off.
    expect(Date.parse(resend!.at) - Date.parse(first!.at)).toBeGreaterThanOrEqual(BACKOFF_DAYS * DAY_MS);
    // The first message never arrived: the resend starts the thread, the follow-up stays in it.
    expect(resend!.inReplyTo).toBeNull();
    expect(resend!.conversationId).not.toBe(first!.conversationId);
    expect([second!.conversationId, second!.inReplyTo]).toEqual([resend!.conversationId, resend!.messageId]);

    expect((await touches(e)).map((t) => [t.step, t.attempt, t.status, t.idempotencyKey])).toEqual([
      [1, 1, 'sent', `${e}-1`],
      [1, 2, 'sent', `${e}-1-2`],
      [2, 1, 'sent', `${e}-2`],
    ]);
    // The funnel counts the prospect reached at step 1 once (the first enrollment of this sequence).
    const stats = (await sys.api('GET', `/v1/stats?sequenceId=${sequenceId}`)).body;
    expect(stats.sentByStep).toEqual({ '1': 1, '2': 1 });
    const perEnrollment = await sys.rt.db.pool.query(
      `SELECT count(*)::int AS n FROM event WHERE enrollment_id = $1 AND type = 'bounce' AND outcome = 'soft_bounce'`,
      [e],
    );
    expect(perEnrollment.rows[0].n).toBe(1);
  });

  it('three soft bounces in a row: three attempts, then it ends as a hard bounce, suppressed; never a fourth', async () => {
    const email = 'full-always@soft.example';
    sys.sandbox.script(email, 'soft_bounce');
    const e = await start(email);
    const ended = await waitFor(
      'the third soft bounce to end it',
      async () => {
        const row = await enrollment(sys, e);
        return row.status === 'bounced' ? row : null;
      },
      { timeoutMs: 30_000 },
    );
    expect(ended.stopReason).toBe('bounce:soft_x3');
    await sys.sandbox.settled();
    const sent = deliveries(e);
    expect(sent.map((d) => [d.step, d.idempotencyKey])).toEqual([
      [1, `${e}-1`],
      [1, `${e}-1-2`],
      [1, `${e}-1-3`],
    ]);
    // The second resend waited twice as long as the first.
    expect(Date.parse(sent[2]!.at) - Date.parse(sent[1]!.at)).toBeGreaterThanOrEqual(
      2 * BACKOFF_DAYS * DAY_MS,
    );
    const suppressions = (await sys.api('GET', '/v1/suppressions')).body.items.map(
      (s: { value: string }) => s.value,
    );
    expect(suppressions).toContain(email);
    // No job is left for any attempt or step of it.
    const ids = [touchKey(e, 1), touchKey(e, 1, 2), touchKey(e, 1, 3), touchKey(e, 2), touchKey(e, 2, 2)];
    expect(await sys.rt.touchQueue.existing(ids)).toEqual(new Set());
    expect((await touches(e)).map((t) => t.attempt)).toEqual([1, 2, 3]);
  });
});

/**
 * The resend waits longer than the test (1,000 days, 5 minutes here): the test looks
 * at it waiting, has Redis lose its job, and replies, which must all happen before it
 * goes out. With the 4-day back-off (1.2 s) that sequence of a dozen round trips left
 * 0.1 to 0.4 s to spare at load 17, and a busier CI machine would let the resend out.
 */
describe('a soft bounce waiting for its resend', () => {
  let sys: TestSystem;
  let start: (email: string) => Promise<string>;
  let deliveries: (enrollmentId: string) => readonly SandboxDelivery[];

  beforeAll(async () => {
    ({ sys, start, deliveries } = await softBounceSystem('sender_soft_bounce_wait', 1_000));
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('a resend waiting has its own job, which the reconciler rebuilds when Redis loses it; a reply removes it and ends the sequence', async () => {
    const email = 'full-then-reply@soft.example';
    sys.sandbox.script(email, 'soft_bounce', 1, undefined, 1);
    const e = await start(email);
    const waiting = await waitFor('the resend to be scheduled', async () => {
      const row = await enrollment(sys, e);
      return row.currentStep === 1 && (row as { currentAttempt?: number }).currentAttempt === 2 ? row : null;
    });
    expect(await sys.rt.touchQueue.existing([`${e}-1-2`])).toEqual(new Set([`${e}-1-2`]));
    expect(Date.parse(waiting.nextTouchAt!) - Date.now()).toBeGreaterThan(0);

    // No lost touch (docs/architecture.md#no-lost-touch) for a resend: Redis loses the job, the reconciler brings back that job, not step 2's.
    await sys.rt.touchQueue.cancel([{ enrollmentId: e, step: 1, attempt: 2 }]);
    await reconcile({
      enrollments: sys.rt.repos.enrollments,
      touchQueue: sys.rt.touchQueue,
      logger: sys.rt.logger,
      metrics: sys.rt.metrics,
      clock: () => new Date(),
    });
    const rebuilt = await sys.rt.touchQueue.job(`${e}-1-2`);
    expect(rebuilt?.data).toEqual({ e, s: 1, a: 2 });
    expect(await sys.rt.touchQueue.existing([touchKey(e, 2)])).toEqual(new Set());

    const res = await postHttp(sys, `r_${randomUUID()}`, {
      type: 'reply',
      occurred_at: new Date().toISOString(),
      email,
      text: 'Thanks, but no thanks.',
    });
    expect(res.status).toBe(200);
    expect((await enrollment(sys, e)).status).toBe('replied');
    // The resend's job is gone, and one that survived would be fenced by its claim.
    expect(await sys.rt.touchQueue.existing([`${e}-1-2`])).toEqual(new Set());
    expect((await sys.rt.repos.touches.claim(e, 1, touchKey(e, 1, 2), email, 0, 2)).kind).toBe('fenced');
    expect(deliveries(e).map((d) => d.idempotencyKey)).toEqual([touchKey(e, 1)]);
  });
});
