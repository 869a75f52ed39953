import type { ChildProcess } from 'node:child_process';
import { countCapViolations, MailboxThrottle } from '@touchbase/providers';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busiestWindows } from '../support/cap-checks.js';
import { killHard, spawnService } from '../support/child-service.js';
import { enrollAll, seed, startTestSystem, type TestSystem, waitForEnded } from '../support/test-system.js';

// TIME_SCALE 1440: a day lasts 60 s, an hour 2.5 s, a minute 42 ms.
const TIME_SCALE = 1440;
const HOUR_MS = 3_600_000 / TIME_SCALE;
const PROSPECTS = 12;
const CAPS = { perMinute: 3, perHour: 5, perDay: 1000 };

/** The capped mailbox and a one-touch sequence sent at once, for PROSPECTS prospects (not enrolled yet). */
function cappedCampaign(sys: TestSystem, emailPrefix: string) {
  return seed(sys, {
    steps: 1,
    wait: '0s',
    caps: CAPS,
    prospects: Array.from({ length: PROSPECTS }, (_, i) => `${emailPrefix}${i}@prospect.example`),
  });
}

describe('token buckets across two sender replicas (invariant 4)', () => {
  let sys: TestSystem;
  const senders: ChildProcess[] = [];
  beforeAll(async () => {
    sys = await startTestSystem(
      'sender_throttle',
      { TIME_SCALE: String(TIME_SCALE) },
      { withoutSender: true, pacingMs: 0 },
    );
  });
  afterAll(async () => {
    await Promise.all(senders.map(killHard));
    await sys?.stop();
  });

  it('two replicas together stay within the hourly cap; touches past it wait for the hour to roll and are then sent', async () => {
    const ids = await cappedCampaign(sys, 'capped');
    const env = { ...sys.env, SANDBOX_URL: sys.sandbox.url, SENDER_CONCURRENCY: '20' };
    senders.push(spawnService('sender', env), spawnService('sender', env));
    await enrollAll(sys, ids);

    // All 12 are due at once; 5 an hour means three hours of the mailbox (7.5 s here).
    await waitFor('every touch to be delivered', () => sys.sandbox.deliveries().length >= PROSPECTS, {
      timeoutMs: 40_000,
      intervalMs: 20,
    });
    await waitForEnded(sys, ids.sequenceId, PROSPECTS, { timeoutMs: 30_000, ended: ['exhausted'] });
    expect((await sys.api('GET', `/v1/stats?sequenceId=${ids.sequenceId}`)).body.enrolled).toBe(PROSPECTS);

    const deliveries = sys.sandbox.deliveries();
    expect(new Set(deliveries.map((d) => d.idempotencyKey)).size).toBe(PROSPECTS);
    expect(deliveries).toHaveLength(PROSPECTS);

    // The grant log the replicas shared: one grant per delivery and no window over its cap.
    const throttle = new MailboxThrottle(sys.rt.redis.producer, {
      prefix: sys.env.REDIS_PREFIX as string,
      timeScale: TIME_SCALE,
    });
    const grants = await throttle.grants(ids.mailboxId);
    expect(grants).toHaveLength(PROSPECTS);
    expect(countCapViolations(grants, throttle.windows({ ...CAPS, minSpacingMs: 0 }))).toBe(0);

    // Nothing early: the 6th and 11th deliveries waited for the first and second hour to roll.
    const first = Math.min(...grants);
    const at = deliveries.map((d) => Date.parse(d.at)).sort((a, b) => a - b);
    expect(at[5]! - first).toBeGreaterThanOrEqual(HOUR_MS);
    expect(at[10]! - first).toBeGreaterThanOrEqual(2 * HOUR_MS);
    // Nothing dropped either: waiting touches were delayed jobs, not failures.
    const failed = await sys.rt.touchQueue.queue.getFailedCount();
    expect(failed).toBe(0);
  }, 60_000);

  it('with SENDER_THROTTLE=bottleneck too: two replicas deliver every touch once, no window of claims over the hourly cap', async () => {
    // The Lua replicas of the test above leave first: they take from the same queue.
    await Promise.all(senders.splice(0).map(killHard));
    const ids = await cappedCampaign(sys, 'bn');
    const env = {
      ...sys.env,
      SANDBOX_URL: sys.sandbox.url,
      SENDER_CONCURRENCY: '20',
      SENDER_THROTTLE: 'bottleneck',
    };
    senders.push(spawnService('sender', env), spawnService('sender', env));
    await enrollAll(sys, ids);
    const mine = () => sys.sandbox.deliveries().filter((d) => d.to.startsWith('bn'));
    await waitFor('every touch to be delivered', () => mine().length >= PROSPECTS, {
      timeoutMs: 40_000,
      intervalMs: 20,
    });
    await waitForEnded(sys, ids.sequenceId, PROSPECTS, { timeoutMs: 30_000, ended: ['exhausted'] });
    expect(new Set(mine().map((d) => d.idempotencyKey)).size).toBe(PROSPECTS);
    expect(mine()).toHaveLength(PROSPECTS);

    // Bottleneck keeps no grant log; the claims (right after each grant, on PostgreSQL's
    // clock) stand in for it. Strict spacing puts 6 grants at least 2,625 ms apart, past the
    // 2,500 ms hour; 150 ms is left for the time from a grant to its claim.
    const { rows } = await sys.rt.db.pool.query<{ at: Date }>(
      `SELECT t.created_at AS at FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
        WHERE e.mailbox_id = $1 ORDER BY t.created_at`,
      [ids.mailboxId],
    );
    expect(rows).toHaveLength(PROSPECTS);
    const [hourMost] = busiestWindows(
      rows.map((r) => r.at.getTime()),
      [[5, HOUR_MS - 150]],
    );
    expect(hourMost).toBeLessThanOrEqual(5);
    expect(await sys.rt.touchQueue.queue.getFailedCount()).toBe(0);
  }, 60_000);
});
