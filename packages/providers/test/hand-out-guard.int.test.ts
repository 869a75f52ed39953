import { randomUUID } from 'node:crypto';
import { createTestRedisPrefix } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandOutGuard } from '../src/throttle/hand-out-guard.js';

describe("Bottleneck's hand-out guard: W / C between two hand-outs of a mailbox, across replicas and a lost key", () => {
  let space: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let redis: Redis;
  // The guard's clock, set by each step: no test here waits on time.
  let now = 1_000_000;
  // A day of 8 (the tightest rate): 1,000 ms between hand-outs; minute and hour caps looser.
  const windows: [number, number][] = [
    [8, 100],
    [8, 1_000],
    [8, 8_000],
  ];
  const guard = () => new HandOutGuard(redis, { prefix: space.prefix, timeScale: 10_800, now: () => now });

  beforeAll(async () => {
    space = await createTestRedisPrefix('handoutguard');
    redis = new Redis(space.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await space?.cleanup();
  });

  it('refuses a hand-out closer than W / C to the last one on any replica, allows it at W / C', async () => {
    const mailbox = randomUUID();
    const [a, b] = [guard(), guard()];
    expect(await a.allows(mailbox, windows)).toBe(true);
    now += 999;
    expect(await b.allows(mailbox, windows)).toBe(false);
    // A refusal records nothing: the gap still counts from the first hand-out.
    now += 1;
    expect(await b.allows(mailbox, windows)).toBe(true);
    now += 500;
    expect(await a.allows(mailbox, windows)).toBe(false);
  });

  it('with the key lost, the last send PostgreSQL recorded stands in for the last hand-out', async () => {
    const mailbox = randomUUID();
    const key = `${space.prefix}:throttle-handed:${mailbox}`;
    let reads = 0;
    const recorded = now - 400;
    const lastSend = async () => {
      reads++;
      return recorded;
    };
    expect(await guard().allows(mailbox, windows, lastSend)).toBe(false);
    expect(reads).toBe(1);
    now += 599;
    expect(await guard().allows(mailbox, windows, lastSend)).toBe(false);
    // 1,000 ms after the recorded send: handed out, and recorded under the prefix.
    now += 1;
    expect(await guard().allows(mailbox, windows, lastSend)).toBe(true);
    expect(Number(await redis.get(key))).toBe(now);
    // The key known again: PostgreSQL is not asked.
    reads = 0;
    now += 10;
    expect(await guard().allows(mailbox, windows, lastSend)).toBe(false);
    expect(reads).toBe(0);
    // Lost again, with no send recorded (or no source): the first hand-out goes.
    await redis.del(key);
    expect(await guard().allows(mailbox, windows, async () => null)).toBe(true);
    await redis.del(key);
    expect(await guard().allows(mailbox, windows)).toBe(true);
  });
});
