import { randomUUID } from 'node:crypto';
import { createTestRedisPrefix } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThrottle } from '../src/throttle/create-throttle.js';
import { countCapViolations, type MailboxThrottle } from '../src/throttle/mailbox-throttle.js';
import type {
  MailboxLimits,
  Throttle,
  ThrottleKind,
  ThrottleSeedSource,
  WindowCounts,
} from '../src/throttle/throttle.port.js';

describe('the Throttle port, both implementations (invariant 4: caps hold across replicas)', () => {
  let space: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  const clients: Redis[] = [];
  const throttles: Throttle[] = [];
  beforeAll(async () => {
    space = await createTestRedisPrefix('throttleport');
  });
  afterAll(async () => {
    for (const t of throttles) await t.close();
    for (const c of clients) c.disconnect();
    await space?.cleanup();
  });

  /** A throttle on a Redis connection of its own, as one sender replica has. */
  function replica(kind: ThrottleKind, timeScale: number, seedFrom?: ThrottleSeedSource): Throttle {
    const redis = new Redis(space.url);
    clients.push(redis);
    const t = createThrottle(kind, redis, {
      prefix: space.prefix,
      timeScale,
      spacingJitter: 0.3,
      ...(seedFrom ? { seedFrom } : {}),
    });
    throttles.push(t);
    return t;
  }

  for (const kind of ['lua', 'bottleneck'] as const) {
    it(`${kind}: three replicas taking tokens for one mailbox never exceed a cap`, async () => {
      // TIME_SCALE 600: a minute lasts 100 ms, an hour 6 s, a day 144 s.
      const timeScale = 600;
      const mailbox = randomUUID();
      const limits: MailboxLimits = { perMinute: 3, perHour: 10, perDay: 1000, minSpacingMs: 0 };
      const replicas = [replica(kind, timeScale), replica(kind, timeScale), replica(kind, timeScale)];
      const target = 12;
      const grants: { at: number; replica: number }[] = [];
      let seq = 0;
      const loop = async (r: number) => {
        while (grants.length < target) {
          const member = `${r}-${seq++}`;
          for (;;) {
            const d = await (replicas[r] as Throttle).take(mailbox, limits, member);
            if (d.granted) {
              grants.push({ at: d.at, replica: r });
              break;
            }
            await new Promise((res) => setTimeout(res, d.waitMs));
          }
        }
      };
      await Promise.all([0, 1, 2].flatMap((r) => [loop(r), loop(r)]));
      expect(grants.length).toBeGreaterThanOrEqual(target);
      expect(new Set(grants.map((g) => g.replica)).size).toBeGreaterThan(1);
      const windows = (replicas[0] as Throttle).windows(limits);
      expect(
        countCapViolations(
          grants.map((g) => g.at),
          windows,
        ),
      ).toBe(0);
    }, 40_000);
  }

  it('lua: a lost bucket is rebuilt once from the recorded sends before any token is granted', async () => {
    const mailbox = randomUUID();
    const limits: MailboxLimits = { perMinute: 3, perHour: 5, perDay: 10, minSpacingMs: 0 };
    // What PostgreSQL would say: 9 sends today, 4 of them this hour, 1 this minute.
    let reads = 0;
    const recorded = async (): Promise<WindowCounts> => {
      reads++;
      return { minute: 1, hour: 4, day: 9, lastAt: Date.now() - 10 };
    };
    const replicas = [1, 2, 3].map(() => replica('lua', 1, recorded) as MailboxThrottle);
    // All three ask at once for a bucket Redis does not have: one rebuild, then one grant only.
    const first = await Promise.all(replicas.map((t, i) => t.take(mailbox, limits, `m${i}`)));
    expect(first.filter((d) => d.granted)).toHaveLength(1);
    expect(reads).toBeGreaterThanOrEqual(1);
    expect((await (replicas[0] as MailboxThrottle).usedToday([mailbox])).get(mailbox)).toBeGreaterThanOrEqual(
      10,
    );

    // Redis loses the bucket: the next ask rebuilds it again instead of starting a fresh day.
    const keys = await clients[0]!.keys(`${space.prefix}:throttle:{${mailbox}}*`);
    expect(keys.length).toBe(2);
    await clients[0]!.del(...keys);
    const readsBefore = reads;
    const after = await (replicas[1] as MailboxThrottle).take(mailbox, limits, 'after-loss');
    expect(reads).toBe(readsBefore + 1);
    // 9 recorded sends plus this one would fit the day, but not the hour (4 + 1 of 5 used).
    expect(after.granted).toBe(true);
    expect((await (replicas[2] as MailboxThrottle).take(mailbox, limits, 'over')).granted).toBe(false);
  });

  it('bottleneck: a limiter Redis lost is re-created from the recorded sends before any token is granted', async () => {
    // TIME_SCALE 1200: a minute lasts 50 ms, an hour 3 s, a day 72 s. Strict spacing is
    // the hour's 3,000 ms / 5 × 1.05 = 630 ms.
    const timeScale = 1200;
    const hourMs = 3_600_000 / timeScale;
    const spacing = 630;
    const mailbox = randomUUID();
    const limits: MailboxLimits = { perMinute: 3, perHour: 5, perDay: 1000, minSpacingMs: 0 };
    let recorded: WindowCounts = { minute: 0, hour: 4, day: 4, lastAt: Date.now() - 100 };
    let reads = 0;
    const t = replica('bottleneck', timeScale, async () => {
      reads++;
      return recorded;
    });
    const takeUntilGranted = async (member: string) => {
      for (;;) {
        const d = await t.take(mailbox, limits, member);
        if (d.granted) return Date.now();
        await new Promise((res) => setTimeout(res, Math.min(d.waitMs, 200)));
      }
    };
    // First use: 4 sends this hour, the last 100 ms ago. The first token waits out the
    // spacing from that send; the second waits for the hour (1 of 5 was left).
    const t0 = Date.now();
    const lastAt0 = recorded.lastAt as number;
    const first = await takeUntilGranted('a');
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(first).toBeGreaterThanOrEqual(lastAt0 + spacing - 30);
    const second = await takeUntilGranted('b');
    expect(second).toBeGreaterThanOrEqual(t0 + hourMs - 100);

    // Redis loses the limiters: the next ask re-creates them from what PostgreSQL says
    // now (the hour used up, a send just now), not with full reservoirs.
    const keys = await clients[0]!.keys(`b_${space.prefix}-throttle-${mailbox}-*`);
    expect(keys.length).toBeGreaterThan(0);
    await clients[0]!.del(...keys);
    recorded = { minute: 1, hour: 5, day: 6, lastAt: Date.now() };
    const readsBefore = reads;
    const lost = Date.now();
    const third = await takeUntilGranted('c');
    expect(reads).toBeGreaterThan(readsBefore);
    expect(third).toBeGreaterThanOrEqual(lost + hourMs - 100);
  }, 40_000);

  it('bottleneck: a TIME_SCALE that does not divide the windows (1440: a minute of 41.67 ms) still grants', async () => {
    // Bottleneck's scripts take whole milliseconds; fractional windows made every call fail.
    const t = replica('bottleneck', 1440);
    const limits: MailboxLimits = { perMinute: 3, perHour: 5, perDay: 1000, minSpacingMs: 0 };
    const d = await t.take(randomUUID(), limits, 'one');
    expect(d.granted).toBe(true);
  });
});
