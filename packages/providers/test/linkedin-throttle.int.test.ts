import { randomUUID } from 'node:crypto';
import { LinkedInCapsSchema } from '@touchbase/core';
import { createTestRedisPrefix } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LinkedInThrottle,
  linkedInBucketId,
  parseLinkedInBucketId,
} from '../src/linkedin/linkedin-throttle.js';
import { MailboxThrottle } from '../src/throttle/mailbox-throttle.js';
import type { WindowCounts } from '../src/throttle/throttle.port.js';

describe('LinkedIn caps through the Throttle port (real Redis)', () => {
  let space: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let redis: Redis;
  beforeAll(async () => {
    space = await createTestRedisPrefix('lithrottle');
    redis = new Redis(space.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await space?.cleanup();
  });

  it('each action has its own bucket, and the weekly invitation cap holds once the day rolls', async () => {
    // TIME_SCALE 86_400: a day lasts 1 s, a week 7 s.
    const dayMs = 1_000;
    const lua = new MailboxThrottle(redis, { prefix: space.prefix, timeScale: 86_400 });
    const li = new LinkedInThrottle(lua);
    const account = {
      id: randomUUID(),
      caps: LinkedInCapsSchema.parse({
        invitationsPerDay: 3,
        invitationsPerWeek: 4,
        perHour: 3,
        minSpacingMs: 0,
      }),
    };
    for (const m of ['a', 'b', 'c']) expect((await li.take(account, 'invitation', m)).granted).toBe(true);
    // The day is full: the wait is the day window's.
    const refused = await li.take(account, 'invitation', 'd');
    expect(refused.granted).toBe(false);
    const wait = refused.granted ? 0 : refused.waitMs;
    expect(wait).toBeLessThanOrEqual(dayMs + 10);
    await new Promise((r) => setTimeout(r, wait + 5));
    expect((await li.take(account, 'invitation', 'd')).granted).toBe(true);
    // A new day, but the week holds 4: the next one waits for the week window.
    const weekly = await li.take(account, 'invitation', 'e');
    expect(weekly.granted).toBe(false);
    expect(weekly.granted ? 0 : weekly.waitMs).toBeGreaterThan(dayMs * 5);
    // Messages and visits are not held by the invitations' bucket.
    expect((await li.take(account, 'message', 'm1', { queue: false })).granted).toBe(true);
    expect((await li.take(account, 'profile_visit', 'v1', { queue: false })).granted).toBe(true);
    expect((await li.usedToday([account.id], 'message')).get(account.id)).toBe(1);
  });

  it('a lost bucket is rebuilt with its week count: no fresh week after a Redis flush', async () => {
    const accountId = randomUUID();
    const asked: { id: string; windows: number[] }[] = [];
    const seedFrom = async (id: string, windows: number[]): Promise<WindowCounts> => {
      asked.push({ id, windows });
      // 4 invitations this week, none today.
      return { minute: 0, hour: 0, day: 0, week: 4, lastAt: null };
    };
    const lua = new MailboxThrottle(redis, { prefix: space.prefix, timeScale: 1, seedFrom });
    const li = new LinkedInThrottle(lua);
    const account = {
      id: accountId,
      caps: LinkedInCapsSchema.parse({ invitationsPerDay: 20, invitationsPerWeek: 5, minSpacingMs: 0 }),
    };
    expect((await li.take(account, 'invitation', 'a', { queue: false })).granted).toBe(true);
    expect((await li.take(account, 'invitation', 'b', { queue: false })).granted).toBe(false);
    expect(asked[0]?.windows).toHaveLength(4);
    expect(parseLinkedInBucketId(asked[0]?.id as string)).toEqual({ accountId, action: 'invitation' });
    expect(linkedInBucketId(accountId, 'invitation')).toBe(asked[0]?.id);
    expect(parseLinkedInBucketId(randomUUID())).toBeNull();
  });
});
