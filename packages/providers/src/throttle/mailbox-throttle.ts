import { MicroBatcher } from '@touchbase/core';
import type { Cluster, Redis } from 'ioredis';
import {
  capWindows,
  type MailboxLimits,
  type Throttle,
  type ThrottleDecision,
  type ThrottleSeedSource,
} from './throttle.port.js';
import { THROTTLE_SEED_SCRIPT, THROTTLE_TAKE_MANY_SCRIPT, THROTTLE_TAKE_SCRIPT } from './throttle-script.js';

export type { MailboxLimits, ThrottleDecision } from './throttle.port.js';

export type MailboxThrottleOptions = {
  /** Key prefix (REDIS_PREFIX); the keys live under `{prefix}:throttle:{mailboxId}`. */
  prefix: string;
  /** TIME_SCALE: windows and spacing shrink with it, as every other duration does. */
  timeScale?: number;
  /** Random extra spacing, as a fraction of `minSpacingMs` (0.3: 1.0 to 1.3 times the minimum). */
  spacingJitter?: number;
  random?: () => number;
  /**
   * Where a lost bucket is rebuilt from (the sends PostgreSQL recorded in its
   * windows). Given, no token is granted from a bucket that was not rebuilt first;
   * left out (unit tests, the benchmark's bare runs), a lost bucket starts empty.
   */
  seedFrom?: ThrottleSeedSource;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type ThrottleRedis = (Redis | Cluster) & {
  touchbaseThrottleTake(
    log: string,
    state: string,
    ...args: (string | number)[]
  ): Promise<[string, string, string]>;
  touchbaseThrottleTakeMany(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<string[]>;
  touchbaseThrottleSeed(log: string, state: string, ...args: (string | number)[]): Promise<number>;
};

/** One take as the script is asked it: the bucket's two keys and the single script's arguments. */
type TakeCall = { logKey: string; stateKey: string; args: (string | number)[] };
type TakeAnswer = [string, string, string];

/**
 * Per-mailbox token buckets shared by every sender replica through Redis: caps per
 * minute, hour and day over sliding windows, and a minimum spacing with jitter.
 *
 * One atomic script per decision (see {@link THROTTLE_TAKE_SCRIPT}), and one script
 * call for the decisions asked together ({@link THROTTLE_TAKE_MANY_SCRIPT}), instead of Bottleneck: a Bottleneck limiter holds one window (three chained
 * limiters per mailbox for minute, hour and day), keeps the waiting job in the
 * memory of the process that asked, and costs several round trips per job. Here a
 * refused touch is handed back to BullMQ as a delayed job with the wait the script
 * computed, so no worker slot is held and a crash loses nothing.
 */
export class MailboxThrottle implements Throttle {
  readonly kind = 'lua' as const;
  private readonly redis: ThrottleRedis;
  private readonly timeScale: number;
  private readonly jitter: number;
  private readonly random: () => number;

  constructor(
    redis: Redis | Cluster,
    private readonly opts: MailboxThrottleOptions,
  ) {
    if (!(redis as unknown as Partial<ThrottleRedis>).touchbaseThrottleTake) {
      redis.defineCommand('touchbaseThrottleTake', { numberOfKeys: 2, lua: THROTTLE_TAKE_SCRIPT });
      redis.defineCommand('touchbaseThrottleSeed', { numberOfKeys: 2, lua: THROTTLE_SEED_SCRIPT });
    }
    if (!(redis as unknown as Partial<ThrottleRedis>).touchbaseThrottleTakeMany)
      redis.defineCommand('touchbaseThrottleTakeMany', { lua: THROTTLE_TAKE_MANY_SCRIPT });
    this.redis = redis as unknown as ThrottleRedis;
    this.timeScale = Math.max(1, opts.timeScale ?? 1);
    this.jitter = Math.max(0, opts.spacingJitter ?? 0);
    this.random = opts.random ?? Math.random;
    // The takes of the touches in flight go to Redis together, one script call for all
    // of them. On a cluster each mailbox's keys are on a slot of their own, which one
    // script cannot span: there each take is its own call.
    this.takes = redis.isCluster ? null : new MicroBatcher((calls: TakeCall[]) => this.takeMany(calls), 100);
  }

  private readonly takes: MicroBatcher<TakeCall, TakeAnswer> | null;
  /** Takes asked and not yet answered (the first answer, before a seed). */
  private underWay = 0;

  private takeOne(call: TakeCall): Promise<TakeAnswer> {
    return this.redis.touchbaseThrottleTake(call.logKey, call.stateKey, ...call.args);
  }

  /** Several takes in one script call (a batch of one: the single script, as before). */
  private async takeMany(calls: TakeCall[]): Promise<TakeAnswer[]> {
    if (calls.length === 1) return [await this.takeOne(calls[0]!)];
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const c of calls) {
      keys.push(c.logKey, c.stateKey);
      args.push(c.args.length, ...c.args);
    }
    const flat = await this.redis.touchbaseThrottleTakeMany(keys.length, ...keys, ...args);
    return calls.map((_, i) => [flat[3 * i]!, flat[3 * i + 1]!, flat[3 * i + 2]!]);
  }

  /**
   * Takes a token of the mailbox for `member` (one try of one touch: the sender
   * passes its touch key with the job's retry and stall counts,
   * `{enrollmentId}-{step}[-{attempt}].{retries}.{stalls}`). Asking again with the same member after a
   * refusal keeps its place in line; asking again after a grant that was not used
   * (the provider said 429) re-takes the same slot instead of a second one.
   * With `queue: false` a refusal takes no place in line (waitMs is then 0): for
   * trying the next mailbox of a pool.
   */
  async take(
    mailboxId: string,
    limits: MailboxLimits,
    member: string,
    opts: { queue?: boolean } = {},
  ): Promise<ThrottleDecision> {
    const minSpacing = limits.minSpacingMs / this.timeScale;
    const spacing = minSpacing * (1 + this.jitter * this.random());
    const windows = this.windows(limits);
    const args: (string | number)[] = [
      member,
      spacing,
      minSpacing,
      opts.queue === false ? 0 : 1,
      windows.length,
    ];
    for (const [cap, ms] of windows) args.push(cap, ms);
    args.push(this.opts.seedFrom ? 1 : 0);
    const call = { logKey: this.logKey(mailboxId), stateKey: this.stateKey(mailboxId), args };
    // A take with none other under way goes at once: a lone touch (a quiet sender, a
    // paced stream) waits for no turn of the event loop; the ones that come while it
    // runs are gathered into one call.
    const alone = this.takes === null || this.underWay === 0;
    this.underWay++;
    let granted: string;
    let wait: string;
    let at: string;
    try {
      [granted, wait, at] = await (alone ? this.takeOne(call) : this.takes!.submit(call));
    } finally {
      this.underWay--;
    }
    if (granted === 'S') {
      // The bucket was lost (or never made): rebuild it from PostgreSQL, then ask again.
      await this.seed(mailboxId, limits);
      [granted, wait, at] = await this.takeOne(call);
    }
    if (granted === '1') return { granted: true, at: Number(at) };
    return {
      granted: false,
      waitMs: opts.queue === false ? 0 : Math.max(1, Math.ceil(Number(wait))),
      at: Number(at),
    };
  }

  /**
   * Rebuilds one mailbox's bucket from the sends PostgreSQL recorded in its windows;
   * a no-op in Redis when another replica rebuilt it first.
   * @returns the entries added, or -1 when the bucket was already seeded.
   */
  async seed(mailboxId: string, limits: MailboxLimits): Promise<number> {
    if (!this.opts.seedFrom) return -1;
    const windows = this.windows(limits);
    const [[, minuteMs], [, hourMs], [, dayMs]] = windows as [
      [number, number],
      [number, number],
      [number, number],
    ];
    const weekMs = windows[3]?.[1];
    const counts = await this.opts.seedFrom(
      mailboxId,
      weekMs === undefined ? [minuteMs, hourMs, dayMs] : [minuteMs, hourMs, dayMs, weekMs],
    );
    return this.redis.touchbaseThrottleSeed(
      this.logKey(mailboxId),
      this.stateKey(mailboxId),
      counts.minute,
      counts.hour,
      counts.day,
      minuteMs,
      hourMs,
      dayMs,
      counts.lastAt ?? 0,
      limits.minSpacingMs / this.timeScale,
      ...(weekMs === undefined ? [] : [counts.week ?? counts.day, weekMs]),
    );
  }

  /**
   * Gives up `member`'s place in line (see {@link Throttle.release}): drops its wait
   * hint, so the slot goes to the next waiter and the caps no longer count it. A
   * member without a hint (granted, or never queued) is left as it is.
   */
  async release(mailboxId: string, member: string): Promise<void> {
    await this.redis.zrem(this.logKey(mailboxId), `h:${member}`);
  }

  /** Nothing to release: the Redis client belongs to the caller. */
  async close(): Promise<void> {}

  /**
   * Sends (and waiting touches) each mailbox has counted in its day window; the
   * day's room is `perDay` minus this. One round trip for all of them.
   */
  async usedToday(mailboxIds: string[]): Promise<Map<string, number>> {
    const used = new Map<string, number>();
    if (mailboxIds.length === 0) return used;
    const since = Date.now() - DAY / this.timeScale;
    // Each mailbox's keys carry its own hash tag, so on Redis Cluster they sit on
    // different slots, which one pipeline cannot span: there the counts are asked
    // together (ioredis sends them at once) instead.
    if (this.redis.isCluster) {
      const counts = await Promise.all(
        mailboxIds.map((id) => this.redis.zcount(this.logKey(id), `(${since}`, '+inf')),
      );
      mailboxIds.forEach((id, i) => {
        used.set(id, counts[i] ?? 0);
      });
      return used;
    }
    const pipeline = this.redis.pipeline();
    for (const id of mailboxIds) pipeline.zcount(this.logKey(id), `(${since}`, '+inf');
    const replies = (await pipeline.exec()) ?? [];
    mailboxIds.forEach((id, i) => {
      used.set(id, Number(replies[i]?.[1] ?? 0));
    });
    return used;
  }

  /** Grant times (ms, Redis clock) still inside the mailbox's day window, oldest first; for tests and the benchmark. */
  async grants(mailboxId: string): Promise<number[]> {
    const flat = await this.redis.zrangebyscore(this.logKey(mailboxId), '-inf', '+inf', 'WITHSCORES');
    const out: number[] = [];
    for (let i = 0; i < flat.length; i += 2) if (flat[i]?.startsWith('g:')) out.push(Number(flat[i + 1]));
    return out;
  }

  /** The windows as (cap, ms) after TIME_SCALE, for checking grants against them. */
  windows(limits: MailboxLimits): [number, number][] {
    return capWindows(limits, this.timeScale);
  }

  private logKey(mailboxId: string): string {
    return `${this.opts.prefix}:throttle:{${mailboxId}}`;
  }

  private stateKey(mailboxId: string): string {
    return `${this.opts.prefix}:throttle:{${mailboxId}}:state`;
  }
}

/**
 * Cap violations in a list of grant times: for each window (cap C, length W), the
 * number of positions where C + 1 grants fall within W. 0 means the caps held.
 */
export function countCapViolations(grantTimes: number[], windows: [number, number][]): number {
  const sorted = [...grantTimes].sort((a, b) => a - b);
  let violations = 0;
  for (const [cap, ms] of windows) {
    for (let i = 0; i + cap < sorted.length; i++) {
      if ((sorted[i + cap] as number) - (sorted[i] as number) < ms) violations++;
    }
  }
  return violations;
}
