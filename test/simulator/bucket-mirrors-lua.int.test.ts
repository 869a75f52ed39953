import { SimulatedBucket } from '@touchbase/simulator';
import { createTestRedisPrefix } from '@touchbase/testing';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE_TAKE_SCRIPT } from '../../packages/providers/src/throttle/throttle-script.js';

const CLOCK = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000";

/**
 * The simulator's bucket against the sender's own Lua script on the real Redis,
 * decision for decision, with places in line given up as the sender gives them up
 * (a touch whose hint falls outside its window). The script reads Redis's clock; here the one line that
 * reads it is replaced by a time passed as the last argument, so both run on the
 * same virtual clock. Everything else is the script as the sender runs it.
 */
describe('SimulatedBucket mirrors the sender token bucket script', () => {
  let redis: Redis;
  let prefix: Awaited<ReturnType<typeof createTestRedisPrefix>>;
  let script: string;
  let runs = 0;

  beforeAll(async () => {
    // The one line replaced below must still be there, or this test would compare nothing.
    expect(THROTTLE_TAKE_SCRIPT).toContain(CLOCK);
    script = THROTTLE_TAKE_SCRIPT.replace(CLOCK, 'local now = tonumber(ARGV[#ARGV])');
    prefix = await createTestRedisPrefix('bucket-mirror');
    redis = new Redis(prefix.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await prefix?.cleanup();
  });

  it('grants, refuses and queues as the script does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          limits: fc.record({
            perMinute: fc.integer({ min: 1, max: 4 }),
            perHour: fc.integer({ min: 2, max: 10 }),
            perDay: fc.integer({ min: 3, max: 20 }),
            minSpacingMs: fc.constantFrom(0, 15_000, 60_000),
          }),
          jitter: fc.constantFrom(0, 0.3),
          ops: fc.array(
            fc.record({
              member: fc.integer({ min: 1, max: 12 }),
              advanceMs: fc.oneof(
                fc.integer({ min: 0, max: 90_000 }),
                fc.integer({ min: 0, max: 8 * 3_600_000 }),
              ),
              queue: fc.boolean(),
              // After a refusal in line: the touch's window closes before its hint, so it gives it up.
              release: fc.boolean(),
            }),
            { minLength: 1, maxLength: 60 },
          ),
          draws: fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 60, maxLength: 60 }),
        }),
        async ({ limits, jitter, ops, draws }) => {
          const id = `${prefix.prefix}:m${++runs}`;
          let d = 0;
          const bucket = new SimulatedBucket(limits, jitter, () => draws[d++ % draws.length]!);
          let e = 0;
          let now = Date.UTC(2027, 0, 11, 9);
          // A member is one attempt of one touch: once granted it is sent and never asks
          // again (the script's re-take of an unused grant does not occur in a dry run).
          const generation = new Map<number, number>();
          for (const op of ops) {
            now += op.advanceMs;
            const member = op.member + 100 * (generation.get(op.member) ?? 0);
            // The spacing the sender would pass: drawn the same way the bucket draws it.
            const spacing =
              limits.minSpacingMs > 0 ? limits.minSpacingMs * (1 + jitter * draws[e++ % draws.length]!) : 0;
            const mine = bucket.take(member, now, op.queue);
            const [granted, wait] = (await redis.eval(
              script,
              2,
              `${id}:log`,
              `${id}:state`,
              String(member),
              spacing,
              limits.minSpacingMs,
              op.queue ? 1 : 0,
              3,
              limits.perMinute,
              60_000,
              limits.perHour,
              3_600_000,
              limits.perDay,
              86_400_000,
              0,
              now,
            )) as [string, string];
            const theirs =
              granted === '1'
                ? { granted: true }
                : { granted: false, waitMs: op.queue ? Math.max(1, Math.ceil(Number(wait))) : 0 };
            expect(mine).toEqual(theirs);
            if (!mine.granted && op.queue && op.release) {
              // MailboxThrottle.release, as the sender calls it.
              bucket.release(member);
              await redis.zrem(`${id}:log`, `h:${member}`);
            }
            if (mine.granted) generation.set(op.member, (generation.get(op.member) ?? 0) + 1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
