import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createTestRedisPrefix, waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCapViolations, type MailboxLimits, MailboxThrottle } from '../src/throttle/mailbox-throttle.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const worker = fileURLToPath(new URL('./support/throttle-worker.ts', import.meta.url));

type Grant = { mailboxId: string; at: number; pid: number };

function runWorker(env: Record<string, string>): Promise<Grant[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`throttle worker exited ${code}: ${err}`));
      resolve(
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Grant),
      );
    });
  });
}

describe('MailboxThrottle on Redis (invariant 4: caps hold across replicas)', () => {
  let redis: Redis;
  let space: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  beforeAll(async () => {
    space = await createTestRedisPrefix('throttle');
    redis = new Redis(space.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await space?.cleanup();
  });

  it('two processes taking tokens for the same mailboxes never exceed a cap', async () => {
    // TIME_SCALE 600: a minute lasts 100 ms, an hour 6 s.
    const timeScale = 600;
    const a = randomUUID();
    const b = randomUUID();
    const limits: Record<string, MailboxLimits> = {
      [a]: { perMinute: 3, perHour: 10, perDay: 1000, minSpacingMs: 0 },
      [b]: { perMinute: 2, perHour: 10, perDay: 1000, minSpacingMs: 6_000 },
    };
    const env = {
      REDIS_URL: space.url,
      PREFIX: space.prefix,
      MAILBOXES: `${a},${b}`,
      LIMITS: JSON.stringify(limits),
      TARGET: '12',
      IN_FLIGHT: '2',
      TIME_SCALE: String(timeScale),
    };
    const [one, two] = await Promise.all([runWorker(env), runWorker(env)]);
    const all = [...(one ?? []), ...(two ?? [])];
    const throttle = new MailboxThrottle(redis, { prefix: space.prefix, timeScale });
    for (const id of [a, b]) {
      const grants = all.filter((g) => g.mailboxId === id).map((g) => g.at);
      expect(grants.length).toBeGreaterThanOrEqual(12);
      // Both replicas were granted tokens: the bucket is shared, not per process.
      expect(new Set(all.filter((g) => g.mailboxId === id).map((g) => g.pid)).size).toBe(2);
      const windows = throttle.windows(limits[id] as MailboxLimits);
      expect(countCapViolations(grants, windows)).toBe(0);
      // The touches past the hourly cap waited for the hour to roll: none went early.
      const sorted = [...grants].sort((x, y) => x - y);
      expect((sorted[10] as number) - (sorted[0] as number)).toBeGreaterThanOrEqual(6_000);
      // What the script logged agrees with what the workers saw.
      expect((await throttle.grants(id)).length).toBe(grants.length);
    }
    const spaced = all
      .filter((g) => g.mailboxId === b)
      .map((g) => g.at)
      .sort((x, y) => x - y);
    for (let i = 1; i < spaced.length; i++)
      expect((spaced[i] as number) - (spaced[i - 1] as number)).toBeGreaterThanOrEqual(10);
  }, 30_000);

  it('a refused touch is told how long to wait, keeps its place, and gets the token when the window rolls', async () => {
    const timeScale = 300; // a minute lasts 200 ms
    const throttle = new MailboxThrottle(redis, { prefix: space.prefix, timeScale });
    const mailbox = randomUUID();
    const limits = { perMinute: 2, perHour: 100, perDay: 1000, minSpacingMs: 0 };
    const first = await throttle.take(mailbox, limits, 't1');
    expect(first.granted).toBe(true);
    expect((await throttle.take(mailbox, limits, 't2')).granted).toBe(true);
    const refused = await throttle.take(mailbox, limits, 't3');
    expect(refused.granted).toBe(false);
    if (refused.granted) return;
    expect(refused.waitMs).toBeGreaterThan(150);
    expect(refused.waitMs).toBeLessThanOrEqual(201);
    // A later touch queues behind it rather than racing it for the same slot.
    const behind = await throttle.take(mailbox, limits, 't4');
    expect(behind.granted).toBe(false);
    // Asking early changes nothing: still refused, still the same place in line.
    const again = await throttle.take(mailbox, limits, 't3');
    expect(again.granted).toBe(false);
    const granted = await waitFor(
      't3 to get its token',
      async () => {
        const d = await throttle.take(mailbox, limits, 't3');
        return d.granted ? d : null;
      },
      { intervalMs: 5 },
    );
    expect(granted.at - first.at).toBeGreaterThanOrEqual(200);
    // A grant that was not used (the provider answered 429) is re-taken, not doubled.
    const retried = await throttle.take(mailbox, limits, 't3');
    expect(retried.granted).toBe(true);
    expect(countCapViolations(await throttle.grants(mailbox), throttle.windows(limits))).toBe(0);
    expect(await throttle.grants(mailbox)).toHaveLength(3);
  });

  it('takes asked together go in one script call and decide exactly as one at a time', async () => {
    const timeScale = 60;
    const limits = { perMinute: 3, perHour: 100, perDay: 1000, minSpacingMs: 0 };
    const counted = new Redis(space.url);
    let scripts = 0;
    const send = counted.sendCommand.bind(counted);
    counted.sendCommand = (command, ...rest) => {
      if (command.name === 'evalsha' || command.name === 'eval') scripts++;
      return send(command, ...rest);
    };
    const together = new MailboxThrottle(counted, { prefix: space.prefix, timeScale });
    const alone = new MailboxThrottle(redis, { prefix: space.prefix, timeScale });
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    // Redis learns the scripts first (ioredis' EVALSHA, then EVAL once on NOSCRIPT).
    await Promise.all(['w1', 'w2', 'w3'].map((w) => together.take(randomUUID(), limits, w)));
    scripts = 0;
    // Twelve touches of two mailboxes in flight at once: the first goes at once, the
    // eleven asked while it runs in one call.
    const asked = Array.from({ length: 12 }, (_, i) => [i % 2 ? b : a, `m${i}`] as const);
    const decisions = await Promise.all(asked.map(([m, member]) => together.take(m, limits, member)));
    expect(scripts).toBe(2);
    // The same takes one after the other on two fresh mailboxes.
    const oneByOne = [];
    for (const [m, member] of asked) oneByOne.push(await alone.take(m === a ? c : d, limits, member));
    const shape = (x: Awaited<ReturnType<MailboxThrottle['take']>>) => (x.granted ? 'granted' : 'refused');
    expect(decisions.map(shape)).toEqual(oneByOne.map(shape));
    expect(decisions.filter((x) => x.granted)).toHaveLength(6);
    for (const m of [a, b]) {
      expect(await together.grants(m)).toHaveLength(3);
      expect(countCapViolations(await together.grants(m), together.windows(limits))).toBe(0);
    }
    // The refused ones queue one behind the other, as they would alone.
    const waits = decisions.filter((x) => !x.granted).map((x) => (x.granted ? 0 : x.waitMs));
    const aloneWaits = oneByOne.filter((x) => !x.granted).map((x) => (x.granted ? 0 : x.waitMs));
    for (const [i, w] of waits.entries()) expect(Math.abs(w - aloneWaits[i]!)).toBeLessThan(200);
    counted.disconnect();
  });

  it('trying a pool member without queueing leaves no place in line behind', async () => {
    const throttle = new MailboxThrottle(redis, { prefix: space.prefix, timeScale: 300 });
    const mailbox = randomUUID();
    const limits = { perMinute: 1, perHour: 100, perDay: 1000, minSpacingMs: 0 };
    expect((await throttle.take(mailbox, limits, 'first')).granted).toBe(true);
    expect(await throttle.take(mailbox, limits, 'tryer', { queue: false })).toMatchObject({
      granted: false,
      waitMs: 0,
    });
    // Nobody queued: the next waiter is first in line, right when the window rolls.
    const next = await throttle.take(mailbox, limits, 'waiter');
    expect(next.granted).toBe(false);
    if (!next.granted) expect(next.waitMs).toBeLessThanOrEqual(200);
  });

  it('reports how much of each mailbox day is used, for pools', async () => {
    const throttle = new MailboxThrottle(redis, { prefix: space.prefix, timeScale: 1 });
    const [m1, m2] = [randomUUID(), randomUUID()];
    const limits = { perMinute: 100, perHour: 100, perDay: 100, minSpacingMs: 0 };
    for (const k of ['a', 'b', 'c']) await throttle.take(m1, limits, k);
    await throttle.take(m2, limits, 'a');
    const used = await throttle.usedToday([m1, m2, randomUUID()]);
    expect([...used.values()]).toEqual([3, 1, 0]);
  });

  it('keeps both keys of a bucket expiring after its windows, renewing them about every 30 s, not on every take', async () => {
    // TIME_SCALE 60: the day window lasts 24 min; the keys live a minute longer.
    const throttle = new MailboxThrottle(redis, { prefix: space.prefix, timeScale: 60 });
    const mailbox = randomUUID();
    const log = `${space.prefix}:throttle:{${mailbox}}`;
    const state = `${log}:state`;
    const dayMs = 86_400_000 / 60;
    const limits = { perMinute: 1000, perHour: 10_000, perDay: 100_000, minSpacingMs: 0 };
    expect((await throttle.take(mailbox, limits, 'a')).granted).toBe(true);
    const renewedAt = await redis.hget(state, 'e');
    expect(renewedAt).not.toBeNull();
    for (const key of [log, state]) expect(await redis.pttl(key)).toBeGreaterThan(dayMs + 50_000);
    for (const m of ['b', 'c', 'd']) expect((await throttle.take(mailbox, limits, m)).granted).toBe(true);
    // Not renewed by the takes that followed within 30 s ...
    expect(await redis.hget(state, 'e')).toBe(renewedAt);
    for (const key of [log, state]) expect(await redis.pttl(key)).toBeGreaterThan(dayMs + 30_000);
    // ... but once the renewal is more than 30 s old, the next take renews it and prunes the log.
    const stale = Number(renewedAt) - 31_000;
    await redis.hset(state, 'e', stale);
    await redis.pexpire(log, dayMs + 29_000);
    await redis.pexpire(state, dayMs + 29_000);
    await redis.zadd(log, Date.now() - dayMs - 1_000, 'g:long-gone');
    expect((await throttle.take(mailbox, limits, 'e')).granted).toBe(true);
    expect(Number(await redis.hget(state, 'e'))).toBeGreaterThan(stale + 30_000);
    for (const key of [log, state]) expect(await redis.pttl(key)).toBeGreaterThan(dayMs + 50_000);
    expect(await redis.zscore(log, 'g:long-gone')).toBeNull();
    // A log that is gone (expired, lost) while its state stays gets its TTL back with its first entry.
    await redis.del(log);
    expect((await throttle.take(mailbox, limits, 'f')).granted).toBe(true);
    expect(await redis.pttl(log)).toBeGreaterThan(dayMs + 50_000);
    // The same when the log empties by a waiter giving up its place (the only entry).
    const lone = randomUUID();
    const loneLog = `${space.prefix}:throttle:{${lone}}`;
    const tight = { perMinute: 1, perHour: 100, perDay: 1000, minSpacingMs: 0 };
    expect((await throttle.take(lone, tight, 'first')).granted).toBe(true);
    expect((await throttle.take(lone, tight, 'waiter')).granted).toBe(false);
    await redis.zrem(loneLog, 'g:first');
    await throttle.release(lone, 'waiter');
    expect(await redis.exists(loneLog)).toBe(0);
    expect((await throttle.take(lone, tight, 'next')).granted).toBe(true);
    expect(await redis.pttl(loneLog)).toBeGreaterThan(dayMs + 50_000);
  });
});
