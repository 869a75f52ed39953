import { capWindows, countCapViolations } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busiestWindows } from '../support/cap-checks.js';
import { type PrivateRedis, startPrivateRedis } from '../support/private-redis.js';
import { enrollAll, seed, startTestSystem, type TestSystem, waitForEnded } from '../support/test-system.js';

// TIME_SCALE 1440: a day lasts 60 s, an hour 2.5 s: the day cap binds for the whole test.
const TIME_SCALE = 1440;
const PER_DAY = 8;
const PROSPECTS = 20;
/** Every window capped at the day's 8, so the day cap is the one that binds. */
const CAPS = { perMinute: PER_DAY, perHour: PER_DAY, perDay: PER_DAY };
const LIMITS = { ...CAPS, minSpacingMs: 0 };
/** The capped mailbox, a one-touch sequence sent at once, and PROSPECTS enrolled in it. */
async function cappedCampaign(sys: TestSystem, emailPrefix: string) {
  const ids = await seed(sys, {
    steps: 1,
    wait: '0s',
    caps: CAPS,
    prospects: Array.from({ length: PROSPECTS }, (_, i) => `${emailPrefix}${i}@flush.example`),
  });
  await enrollAll(sys, ids);
  return ids;
}

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
    await cappedCampaign(sys, 'cap');

    // The day's 8 go out; the other 12 wait (delayed jobs) for the day to roll, 60 s away.
    await waitFor('the day cap to be used up', () => sys.sandbox.deliveries().length >= PER_DAY, {
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    await waitFor(
      'a touch refused by the day cap',
      async () => (await metric('touchbase_sender_touches_skipped_total', { reason: 'throttled' })) > 0,
    );
    // Counted before the kill: the reconciler (every second) can repair the lost jobs, and the
    // sender be refused again, while the Redis is still coming back (a CI run read them after
    // and waited for a repair that had already happened).
    const refusedAtFlush = await metric('touchbase_sender_touches_skipped_total', { reason: 'throttled' });
    const repairsAtFlush = await metric('touchbase_scheduler_reconcile_repairs_total');
    // kill -9 of the Redis, back at once without persistence: every bucket, job and lock is gone.
    const deleted = await redis.killAndRestartEmpty();

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
    const windows = capWindows(LIMITS, TIME_SCALE);
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

// Bottleneck holds the caps on sliding windows by strict spacing (W / C, 5% margin, over
// the tightest window), so its day reservoir never runs dry: what a loss can break is the
// spacing (a re-created limiter with `nextRequest` 0) and the counts a fresh reservoir
// would grant again. TIME_SCALE 14400: a day lasts 6 s, so 8 a day is one send every 787 ms.
const BN_TIME_SCALE = 14_400;
const BN_DAY_MS = 86_400_000 / BN_TIME_SCALE;
const BN_SPACING_MS = (BN_DAY_MS / PER_DAY) * 1.05;
/** Time a claim may come after its grant (the claim is the first write after the token). */
const CLAIM_LAG_MS = 150;

describe('Redis loses the Bottleneck limiters mid-day (SENDER_THROTTLE=bottleneck)', () => {
  let sys: TestSystem;
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    sys = await startTestSystem(
      'flushcaps_bn',
      {
        TIME_SCALE: String(BN_TIME_SCALE),
        SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
        SENDER_THROTTLE: 'bottleneck',
      },
      { redisUrl: redis.url },
    );
  });
  afterAll(async () => {
    await sys?.stop();
    await redis?.stop();
  });

  it('the limiters are re-created from the touches PostgreSQL recorded: every touch once, no window over its cap, the spacing held across the loss', async () => {
    const { sequenceId, mailboxId } = await cappedCampaign(sys, 'bn');

    // A day and a half's worth out, one every 787 ms (12 sends: enough for the day window
    // to be checked before the loss); the loss lands right after the 12th, when the last
    // day window holds 8 sends: one more before its spacing would make 9 in a day.
    await waitFor('a day and a half of sends', () => sys.sandbox.deliveries().length >= PER_DAY + 4, {
      timeoutMs: 40_000,
      intervalMs: 5,
    });
    const lost = await redis.killAndRestartEmpty();
    const flushedAt = Date.now();

    await waitFor('every touch, after the loss', () => sys.sandbox.deliveries().length >= PROSPECTS, {
      timeoutMs: 60_000,
      intervalMs: 50,
    });
    await waitForEnded(sys, sequenceId, PROSPECTS, { timeoutMs: 30_000, ended: ['exhausted'] });
    const deliveries = sys.sandbox.deliveries();
    expect(new Set(deliveries.map((d) => d.idempotencyKey)).size).toBe(PROSPECTS);
    expect(deliveries).toHaveLength(PROSPECTS);

    // Bottleneck keeps no grant log; the claims (the first write after each grant, on
    // PostgreSQL's clock) stand in for it, less CLAIM_LAG_MS for the way from grant to claim.
    const { rows } = await sys.rt.db.pool.query<{ claimed: Date; sent: Date | null }>(
      `SELECT t.created_at AS claimed, t.sent_at AS sent FROM touch t
         JOIN enrollment e ON e.id = t.enrollment_id
        WHERE e.mailbox_id = $1 AND t.status IN ('sending', 'sent', 'unknown')
        ORDER BY t.created_at`,
      [mailboxId],
    );
    expect(rows).toHaveLength(PROSPECTS);
    const claims = rows.map((r) => r.claimed.getTime());
    const windows = capWindows(LIMITS, BN_TIME_SCALE);
    const allowed = windows.map(([cap, ms]) => [cap, ms - CLAIM_LAG_MS] as [number, number]);
    const before = claims.filter((c) => c < flushedAt);
    const after = claims.filter((c) => c >= flushedAt);
    // Up to the loss, every window within its cap (a grant handed out late used to break it).
    const busiestBefore = busiestWindows(before, allowed);
    expect(busiestBefore).toEqual(busiestBefore.map((most, i) => Math.min(most, windows[i]![0])));
    // And across the loss: jobs Bottleneck had timed in memory before it still fire, so
    // without the hand-out guard a sliding day held 9 sends of 8 now and then.
    const busiestAcross = busiestWindows(claims, allowed);
    expect(busiestAcross).toEqual(busiestAcross.map((most, i) => Math.min(most, windows[i]![0])));
    // Across the loss: the first claim after it came at least the spacing after the last before it.
    const gapAcrossLoss = Math.min(...after) - Math.max(...before);
    expect(gapAcrossLoss).toBeGreaterThanOrEqual(BN_SPACING_MS - CLAIM_LAG_MS);
    const gaps = claims.slice(1).map((c, i) => c - claims[i]!);
    console.log(
      JSON.stringify({
        test: 'redis-flush-caps-bottleneck',
        keysLost: lost,
        claimsBeforeLoss: before.length,
        busiestBeforeLossByWindow: busiestBefore,
        busiestAcrossLossByWindow: busiestAcross,
        caps: windows.map(([cap]) => cap),
        violationsOnExactWindowsOfSends: countCapViolations(
          rows.map((r) => (r.sent ?? r.claimed).getTime()),
          windows,
        ),
        gapAcrossLossMs: gapAcrossLoss,
        minGapMs: Math.min(...gaps),
        spacingMs: Math.round(BN_SPACING_MS),
      }),
    );
  }, 90_000);
});
