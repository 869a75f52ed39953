import { randomUUID } from 'node:crypto';
import { moveIntoWindow, type SendingWindow } from '@touchbase/core';
import { createTestRedisPrefix } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCapViolations, type MailboxLimits, MailboxThrottle } from '../src/throttle/mailbox-throttle.js';
import { THROTTLE_TAKE_SCRIPT } from '../src/throttle/throttle-script.js';

const CLOCK = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000";
const WINDOW: SendingWindow = { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };
// London closes as Los Angeles opens; New York overlaps each.
const ZONES = ['Europe/London', 'America/New_York', 'America/Los_Angeles'];
const DAYS = 5;

/**
 * A pool mailbox's touches to prospects in three zones, sent as the sender sends
 * them, on the real Redis with the sender's script: a touch takes a token; refused,
 * it comes back after the wait moved into its window, and with `release` a touch the
 * window moved gives up its place in line (MailboxThrottle.release, as the sender
 * calls it). Time is virtual: the script reads it from a key the loop sets before
 * each call (the one line that reads Redis's clock swapped, as the simulator's
 * mirror test does), so the run is exact and takes no real days.
 */
async function run(redis: Redis, prefix: string, release: boolean): Promise<{ grants: number[] }> {
  const clockKey = `${prefix}:clock:${randomUUID()}`;
  // A client of its own, so its command is the swapped script.
  const client = redis.duplicate();
  client.defineCommand('touchbaseThrottleTake', {
    numberOfKeys: 2,
    lua: THROTTLE_TAKE_SCRIPT.replace(CLOCK, `local now = tonumber(redis.call('GET', '${clockKey}'))`),
  });
  const throttle = new MailboxThrottle(client, { prefix });
  const limits: MailboxLimits = { perMinute: 100, perHour: 6, perDay: 24, minSpacingMs: 0 };
  const mailbox = randomUUID();
  const start = Date.UTC(2027, 0, 11, 8); // a Monday
  const end = start + DAYS * 86_400_000;
  const place = (z: number, t: number) => moveIntoWindow(new Date(t), WINDOW, ZONES[z] as string).getTime();
  // Events: [time, touch]; 60 touches a zone, each sent once.
  const queue: [number, number][] = [];
  for (let i = 0; i < 180; i++) queue.push([place(i % 3, start), i]);
  const grants: number[] = [];
  try {
    for (;;) {
      queue.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const next = queue.shift();
      if (!next || next[0] >= end) break;
      const [now, i] = next;
      await client.set(clockKey, now);
      const d = await throttle.take(mailbox, limits, `touch-${i}`);
      if (d.granted) {
        grants.push(d.at);
        continue;
      }
      const retry = place(i % 3, now + d.waitMs);
      if (release && retry > now + d.waitMs) await throttle.release(mailbox, `touch-${i}`);
      queue.push([retry, i]);
    }
    const windows = throttle.windows(limits);
    expect(countCapViolations(grants, windows)).toBe(0);
    return { grants };
  } finally {
    client.disconnect();
  }
}

describe('MailboxThrottle with waiters in zones whose windows barely overlap', () => {
  let redis: Redis;
  let space: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  beforeAll(async () => {
    space = await createTestRedisPrefix('throttlezones');
    redis = new Redis(space.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await space?.cleanup();
  });

  it('a touch that gives up its slot outside its window lets the caps be used, and they hold', async () => {
    const kept = await run(redis, space.prefix, false);
    const released = await run(redis, space.prefix, true);
    // 24 a day over 5 weekdays: 120. Slots kept outside their owners' window stand
    // empty in the caps while the zones whose window is open queue behind them (78 of 120).
    expect(released.grants.length).toBeGreaterThanOrEqual(0.95 * DAYS * 24);
    expect(kept.grants.length).toBeLessThan(0.7 * DAYS * 24);
  }, 60_000);
});
