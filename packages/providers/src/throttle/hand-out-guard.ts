import type { Redis } from 'ioredis';

/**
 * Answers 1 and records ARGV[1] when the mailbox's last hand-out (or, with the key gone,
 * ARGV[3]: the last send PostgreSQL recorded) is at least ARGV[2] ms before it; 0 when it
 * is closer; -1 when the key is gone and no seed was given.
 */
const GUARD_HAND_OUT = `
local last = tonumber(redis.call('get', KEYS[1]))
if last == nil then
  if ARGV[3] == '' then return -1 end
  last = tonumber(ARGV[3])
end
if tonumber(ARGV[1]) - last < tonumber(ARGV[2]) then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[4])
return 1`;

const DAY = 24 * 60 * 60_000;

export type HandOutGuardOptions = {
  /** Key prefix (REDIS_PREFIX); the key is `{prefix}:throttle-handed:{mailboxId}`. */
  prefix: string;
  /** TIME_SCALE: the key lives a scaled day (and a minute). */
  timeScale: number;
  /** The clock hand-outs are timed by (default `Date.now`): read at each Redis call. */
  now?: () => number;
};

/**
 * The hand-out guard of {@link BottleneckThrottle} (strict mode): a grant is handed out
 * only at least W / C (the tightest window's rate, which alone keeps every sliding window
 * within its cap) after the mailbox's last hand-out by any replica, kept in Redis beside
 * the limiters; a grant closer than that is to be dropped.
 *
 * Why Bottleneck needs it: across a Redis loss, jobs Bottleneck had timed in a process's
 * memory before the loss still fire, uncounted by the limiter re-created from PostgreSQL's
 * counts (a sliding day held 9 sends of 8 in test/faults/redis-flush-caps.e2e.test.ts).
 * When the guard's key is lost too, the last send PostgreSQL recorded stands in for the
 * last hand-out. One Redis call per hand-out (two after a loss).
 */
export class HandOutGuard {
  constructor(
    private readonly redis: Redis,
    private readonly opts: HandOutGuardOptions,
  ) {}

  /**
   * Whether a grant of the mailbox may be handed out now; records the hand-out when
   * it may. `windows` are the mailbox's (cap, ms) after TIME_SCALE; `lastRecordedSend`
   * reads the newest send PostgreSQL recorded (null for none), asked only when Redis has
   * lost the key; without it a lost key counts as no hand-out yet.
   */
  async allows(
    mailboxId: string,
    windows: [number, number][],
    lastRecordedSend?: () => Promise<number | null>,
  ): Promise<boolean> {
    const gap = Math.floor(Math.max(...windows.map(([cap, ms]) => ms / Math.max(1, cap))));
    // Under the prefix (`{prefix}:`), so whatever clears a prefix clears it too; it expires anyway.
    const key = `${this.opts.prefix}:throttle-handed:${mailboxId}`;
    const ttl = Math.ceil(DAY / this.opts.timeScale) + 60_000;
    const now = this.opts.now ?? Date.now;
    const ask = async (seed: string) =>
      Number(await this.redis.eval(GUARD_HAND_OUT, 1, key, now(), gap, seed, ttl));
    const answer = await ask('');
    if (answer !== -1) return answer === 1;
    const last = lastRecordedSend ? await lastRecordedSend() : null;
    return (await ask(String(last ?? 0))) === 1;
  }
}
