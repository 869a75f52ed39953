import type { Redis } from 'ioredis';
import { THROTTLE_TAKE_SCRIPT } from './throttle-script.js';

/** The caps of one mailbox, as the mailbox row holds them (real time, before TIME_SCALE). */
export type MailboxLimits = {
  perMinute: number;
  perHour: number;
  perDay: number;
  /** Minimum gap between two sends; 0 for none. */
  minSpacingMs: number;
};

/** A token now, or how long to wait before asking again. */
export type ThrottleDecision = { granted: true; at: number } | { granted: false; waitMs: number; at: number };

export type MailboxThrottleOptions = {
  /** Key prefix (REDIS_PREFIX); the keys live under `{prefix}:throttle:{mailboxId}`. */
  prefix: string;
  /** TIME_SCALE: windows and spacing shrink with it, as every other duration does. */
  timeScale?: number;
  /** Random extra spacing, as a fraction of `minSpacingMs` (0.3: 1.0 to 1.3 times the minimum). */
  spacingJitter?: number;
  random?: () => number;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type ThrottleRedis = Redis & {
  touchbaseThrottleTake(
    log: string,
    state: string,
    ...args: (string | number)[]
  ): Promise<[string, string, string]>;
};

/**
 * Per-mailbox token buckets shared by every sender replica through Redis: caps per
 * minute, hour and day over sliding windows, and a minimum spacing with jitter.
 *
 * One atomic script per decision (see {@link THROTTLE_TAKE_SCRIPT}), one round trip,
 * instead of Bottleneck: a Bottleneck limiter holds one window (three chained
 * limiters per mailbox for minute, hour and day), keeps the waiting job in the
 * memory of the process that asked, and costs several round trips per job. Here a
 * refused touch is handed back to BullMQ as a delayed job with the wait the script
 * computed, so no worker slot is held and a crash loses nothing.
 */
export class MailboxThrottle {
  private readonly redis: ThrottleRedis;
  private readonly timeScale: number;
  private readonly jitter: number;
  private readonly random: () => number;

  constructor(
    redis: Redis,
    private readonly opts: MailboxThrottleOptions,
  ) {
    if (!(redis as unknown as Partial<ThrottleRedis>).touchbaseThrottleTake) {
      redis.defineCommand('touchbaseThrottleTake', { numberOfKeys: 2, lua: THROTTLE_TAKE_SCRIPT });
    }
    this.redis = redis as unknown as ThrottleRedis;
    this.timeScale = Math.max(1, opts.timeScale ?? 1);
    this.jitter = Math.max(0, opts.spacingJitter ?? 0);
    this.random = opts.random ?? Math.random;
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
    const [granted, wait, at] = await this.redis.touchbaseThrottleTake(
      this.logKey(mailboxId),
      this.stateKey(mailboxId),
      ...args,
    );
    if (granted === '1') return { granted: true, at: Number(at) };
    return {
      granted: false,
      waitMs: opts.queue === false ? 0 : Math.max(1, Math.ceil(Number(wait))),
      at: Number(at),
    };
  }

  /**
   * Sends (and waiting touches) each mailbox has counted in its day window; the
   * day's room is `perDay` minus this. One round trip for all of them.
   */
  async usedToday(mailboxIds: string[]): Promise<Map<string, number>> {
    const used = new Map<string, number>();
    if (mailboxIds.length === 0) return used;
    const since = Date.now() - DAY / this.timeScale;
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
    return [
      [limits.perMinute, MINUTE / this.timeScale],
      [limits.perHour, HOUR / this.timeScale],
      [limits.perDay, DAY / this.timeScale],
    ];
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
