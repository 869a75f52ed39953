import { startSender } from '@touchbase/sender';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  createMailbox,
  createSequence,
  enroll,
  importProspects,
  postHttp,
  WEBHOOK_ENV,
} from './ingest-support.js';

const N = 1_000;

/**
 * The reply fence (docs/architecture.md#reply-fence) under load: 1,000 enrollments whose first touch is due at the very
 * moment their reply webhook arrives. The sender starts on the due touches and the
 * replies are fired at once, so claims and stops race on every enrollment. After
 * each reply's 2xx, not one touch of that prospect may start: every delivery the
 * provider logged and every claimed touch row must predate the acknowledgment.
 */
describe('reply fence: 1,000 replies racing 1,000 due touches', () => {
  let sys: TestSystem;

  beforeAll(async () => {
    // Without the sender: the touches become due while nobody takes them, then the
    // sender and the replies start together.
    sys = await startTestSystem(
      'ingest_fence',
      // The wait for touches already on their way is bounded (5 s by default) so a stuck
      // sender cannot hold a webhook forever; on a loaded CI machine (load 20 on 2 cores)
      // recording a handed-over touch took longer, and the 2xx went out before it. The
      // fence, not that bound, is under test here.
      { ...WEBHOOK_ENV, SENDER_CONCURRENCY: '50', INGEST_FENCE_WAIT_MS: '120000' },
      { withoutSender: true },
    );
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('after each acknowledgment no touch of that prospect starts; only touches handed over before it went out', async () => {
    const mailboxId = await createMailbox(sys);
    // A long wait: the only touch that may race a reply is the first.
    const sequenceId = await createSequence(sys, 2, '300d');
    const emails = Array.from({ length: N }, (_, i) => `fence-${i}@race.example`);
    const prospectIds = await importProspects(
      sys,
      emails.map((email) => ({ email })),
    );
    const enrolled = await enroll(sys, sequenceId, mailboxId, prospectIds);
    expect(enrolled).toHaveLength(N);
    const emailOf = new Map(prospectIds.map((id, i) => [id, emails[i]!]));

    // Due now, at the moment the replies arrive.
    await startSender(sys.rt);
    const ackAt = new Map<string, number>();
    const order = [...enrolled].sort(() => Math.random() - 0.5);
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < order.length) {
          const e = order[next++]!;
          const res = await postHttp(sys, `fence-${e.id}`, {
            type: 'reply',
            occurred_at: new Date().toISOString(),
            enrollment_id: e.id,
            email: emailOf.get(e.prospectId),
            text: 'Not interested, thanks.',
          });
          ackAt.set(e.id, Date.now());
          expect(res.status).toBe(200);
        }
      }),
    );
    const webhooksMs = Date.now() - started;

    // Let every job the sender still holds finish (each is fenced now).
    await waitFor(
      'touch queue drained',
      async () => {
        const counts = await sys.rt.touchQueue.queue.getJobCounts(
          'active',
          'waiting',
          'delayed',
          'prioritized',
        );
        return Object.values(counts).every((n) => n === 0);
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );

    const { rows: touches } = await sys.rt.db.pool.query<{
      enrollment_id: string;
      step: number;
      status: string;
      created_at: Date;
    }>(
      `SELECT t.enrollment_id, t.step, t.status, t.created_at FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE e.sequence_id = $1`,
      [sequenceId],
    );
    const { rows: statuses } = await sys.rt.db.pool.query<{ status: string; n: number }>(
      'SELECT status::text, count(*)::int AS n FROM enrollment WHERE sequence_id = $1 GROUP BY status',
      [sequenceId],
    );
    const deliveries = sys.sandbox.deliveries().filter((d) => ackAt.has(d.enrollmentId));

    const deliveredAfterAck = deliveries.filter((d) => new Date(d.at).getTime() > ackAt.get(d.enrollmentId)!);
    const claimedAfterAck = touches.filter((t) => t.created_at.getTime() > ackAt.get(t.enrollment_id)!);
    const report = {
      enrollments: N,
      webhooksMs,
      touchesClaimed: touches.length,
      handedToProviderBeforeAck: deliveries.length - deliveredAfterAck.length,
      claimedButNotHandedOver: touches.filter((t) => t.status === 'sending' || t.status === 'cancelled')
        .length,
      deliveredAfterAck: deliveredAfterAck.length,
      claimedAfterAck: claimedAfterAck.length,
      secondTouches: deliveries.filter((d) => d.step > 1).length,
      statuses: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
    };
    console.log(`reply-fence ${JSON.stringify(report)}`);

    expect(report.deliveredAfterAck).toBe(0);
    expect(report.claimedAfterAck).toBe(0);
    expect(report.secondTouches).toBe(0);
    expect(report.statuses).toEqual({ replied: N });
    // Both orders happened: some touches won the race, some replies did.
    expect(report.handedToProviderBeforeAck).toBeLessThan(N);
  });
});
