import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startTestSystem, type TestSystem } from '../support/test-system.js';

const TERMINAL = ['replied', 'bounced', 'unsubscribed', 'exhausted', 'cancelled', 'failed'];

describe('the loop on the sandbox provider (real Redis and PostgreSQL)', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem('loop');
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function enrollAndFinish(emails: string[], stepsCount: number) {
    const ids = await seed(sys, { steps: stepsCount, prospects: emails });
    const res = await sys.api('POST', '/v1/enrollments', {
      sequenceId: ids.sequenceId,
      mailboxId: ids.mailboxId,
      prospectIds: ids.prospectIds,
    });
    expect(res.status).toBe(201);
    const enrollments = res.body.enrolled as { id: string; prospectId: string }[];
    const final = await waitFor('every enrollment to end', async () => {
      const rows = await Promise.all(enrollments.map((e) => sys.api('GET', `/v1/enrollments/${e.id}`)));
      return rows.every((r) => TERMINAL.includes(r.body.status)) ? rows.map((r) => r.body) : null;
    });
    return { ...ids, enrollments: final };
  }

  const deliveriesOf = (enrollmentId: string) =>
    sys.sandbox.deliveries().filter((d) => d.enrollmentId === enrollmentId);

  it('a reply after touch 2 of 5 stops the sequence: 2 deliveries, replied, no pending job', async () => {
    sys.sandbox.script('reply-after-two@prospect.example', 'reply', 2);
    const { enrollments } = await enrollAndFinish(['reply-after-two@prospect.example'], 5);
    const e = enrollments[0];
    await sys.sandbox.settled();
    expect(e.status).toBe('replied');
    expect(deliveriesOf(e.id).map((d) => d.step)).toEqual([1, 2]);
    // Ingest removes the pending job at once. One race remains: a sender that recorded
    // touch 2 just before the reply committed may add touch 3's job just after ingest
    // removed it; that job is fenced when it comes due (it never sends) and goes then.
    await waitFor('no pending job', async () => {
      const pending = await sys.rt.touchQueue.existing([1, 2, 3, 4, 5, 6].map((s) => `${e.id}-${s}`));
      return pending.size === 0;
    });
    expect(deliveriesOf(e.id)).toHaveLength(2);
  });

  it('a hard bounce after touch 1 ends the sequence, suppresses the address and refuses a later enrollment', async () => {
    sys.sandbox.script('bounces@prospect.example', 'bounce', 1);
    const { enrollments, mailboxId, prospectIds } = await enrollAndFinish(['bounces@prospect.example'], 5);
    const e = enrollments[0];
    expect(e.status).toBe('bounced');
    expect(deliveriesOf(e.id)).toHaveLength(1);
    const suppressions = await sys.api('GET', '/v1/suppressions');
    expect(suppressions.body.items.map((s: { value: string }) => s.value)).toContain(
      'bounces@prospect.example',
    );
    const prospect = await sys.api('GET', `/v1/prospects/${prospectIds[0]}`);
    expect(prospect.body.emailStatus).toBe('invalid');

    const other = await sys.api('POST', '/v1/sequences', {
      name: 'later',
      steps: [{ subject: 'hi', body: 'hello', wait: '1d' }],
    });
    const again = await sys.api('POST', '/v1/enrollments', {
      sequenceId: other.body.id,
      mailboxId,
      prospectIds,
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('suppressed');
  });

  it('without a reply all 5 touches go out in one thread and the enrollment is exhausted', async () => {
    const { enrollments } = await enrollAndFinish(['silent@prospect.example'], 5);
    const e = enrollments[0];
    expect(e.status).toBe('exhausted');
    const ds = deliveriesOf(e.id);
    expect(ds.map((d) => d.step)).toEqual([1, 2, 3, 4, 5]);
    const first = ds[0]!;
    expect(first.subject).toBe('Hello P0');
    for (const d of ds.slice(1)) {
      expect(d.subject).toBe('Re: Hello P0');
      expect(d.conversationId).toBe(first.conversationId);
      expect(d.inReplyTo).toBe(first.messageId);
    }
    const timeline = await sys.api('GET', `/v1/enrollments/${e.id}/timeline`);
    expect(timeline.body.touches.map((t: { status: string }) => t.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'sent',
      'sent',
    ]);
    expect(timeline.body.touches.map((t: { idempotencyKey: string }) => t.idempotencyKey)).toEqual(
      [1, 2, 3, 4, 5].map((s) => `${e.id}-${s}`),
    );
  });
});
