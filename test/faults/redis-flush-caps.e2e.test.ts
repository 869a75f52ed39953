import { countCapViolations, MailboxThrottle } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateRedis, startPrivateRedis } from '../support/private-redis.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

// TIME_SCALE 1440: a day lasts 60 s, an hour 2.5 s: the day cap binds for the whole test.
const TIME_SCALE = 1440;
const PER_DAY = 8;
const PROSPECTS = 20;

describe('Redis loses the token buckets mid-day (invariant 4: caps survive Redis loss)', () => {
  let sys: TestSystem;
  // A redis-server of the test's own: it is killed and comes back empty (never the shared one).
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    sys = await startTestSystem(
      'flushcaps',
      { TIME_SCALE: String(TIME_SCALE), SCHEDULER_RECONCILE_INTERVAL_MS: '1000' },
      { redisUrl: redis.url },
    );
  });
  afterAll(async () => {
    await sys?.stop();
    await redis?.stop();
  });

  const metric = async (name: string, labels: Record<string, string> = {}) => {
    const values = (await sys.rt.metrics.registry.getSingleMetric(name)?.get())?.values ?? [];
    return values
      .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
      .reduce((a, v) => a + v.value, 0);
  };

  it('a flushed bucket is rebuilt from the touches PostgreSQL recorded: no cap is exceeded', async () => {
    const mailbox = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'daily-capped@sender.example',
      perMinute: PER_DAY,
      perHour: PER_DAY,
      perDay: PER_DAY,
      windowDays: [],
    });
    expect(mailbox.status).toBe(201);
    const sequence = await sys.api('POST', '/v1/sequences', {
      name: 'daily-capped',
      steps: [{ subject: 'Hello {{firstName|there}}', body: 'One touch', wait: '0s' }],
    });
    const prospects = await sys.api('POST', '/v1/prospects', {
      prospects: Array.from({ length: PROSPECTS }, (_, i) => ({
        email: `cap${i}@flush.example`,
        firstName: `C${i}`,
      })),
    });
    const enrolled = await sys.api('POST', '/v1/enrollments', {
      sequenceId: sequence.body.id,
      mailboxId: mailbox.body.id,
      prospectIds: prospects.body.prospects.map((p: { id: string }) => p.id),
    });
    expect(enrolled.body.enrolled).toHaveLength(PROSPECTS);

    // The day's 8 go out; the other 12 wait (delayed jobs) for the day to roll, 60 s away.
    await waitFor('the day cap to be used up', () => sys.sandbox.deliveries().length >= PER_DAY, {
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    await waitFor(
      'a touch refused by the day cap',
      async () => (await metric('touchbase_sender_touches_skipped_total', { reason: 'throttled' })) > 0,
    );
    // kill -9 of the Redis, back at once without persistence: every bucket, job and lock is gone.
    const deleted = await redis.killAndRestartEmpty();
    const refusedAtFlush = await metric('touchbase_sender_touches_skipped_total', { reason: 'throttled' });
    const repairsAtFlush = await metric('touchbase_scheduler_reconcile_repairs_total');

    // The reconciler re-creates the lost jobs; the sender takes them, asks for tokens, and is
    // refused by the rebuilt bucket (a fresh one would have granted a second day's 8 at once).
    await waitFor(
      'the lost jobs to be re-created',
      async () => (await metric('touchbase_scheduler_reconcile_repairs_total')) > repairsAtFlush,
      { timeoutMs: 20_000 },
    );
    await waitFor(
      'the re-created touches to be refused by the rebuilt bucket (or sent past the cap)',
      async () =>
        sys.sandbox.deliveries().length > PER_DAY ||
        (await metric('touchbase_sender_touches_skipped_total', { reason: 'throttled' })) >=
          refusedAtFlush + PROSPECTS - PER_DAY,
      { timeoutMs: 20_000 },
    );
    expect(sys.sandbox.deliveries()).toHaveLength(PER_DAY);

    // PostgreSQL's own record, per mailbox and window: no cap exceeded across the flush.
    const { rows } = await sys.rt.db.pool.query<{ mailbox_id: string; at: Date }>(
      `SELECT e.mailbox_id, coalesce(t.sent_at, t.created_at) AS at
         FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
        WHERE t.status IN ('sending', 'sent', 'unknown')`,
    );
    const throttle = new MailboxThrottle(sys.rt.redis.producer, { prefix: 'unused', timeScale: TIME_SCALE });
    const windows = throttle.windows({
      perMinute: PER_DAY,
      perHour: PER_DAY,
      perDay: PER_DAY,
      minSpacingMs: 0,
    });
    const byMailbox = new Map<string, typeof rows>();
    for (const r of rows) byMailbox.set(r.mailbox_id, [...(byMailbox.get(r.mailbox_id) ?? []), r]);
    for (const [, touches] of byMailbox) {
      expect(
        countCapViolations(
          touches.map((t) => t.at.getTime()),
          windows,
        ),
      ).toBe(0);
    }
    expect(rows).toHaveLength(PER_DAY);
    console.log(
      JSON.stringify({
        test: 'redis-flush-caps',
        keysDeleted: deleted,
        sentInTheDay: rows.length,
        perDay: PER_DAY,
      }),
    );
  }, 60_000);
});
