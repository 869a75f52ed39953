import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import { type LimiterSeed, wrapLimiterStore } from './bottleneck-store.js';
import { HandOutGuard } from './hand-out-guard.js';
import {
  capWindows,
  type MailboxLimits,
  type Throttle,
  type ThrottleDecision,
  type ThrottleSeedSource,
  type WindowCounts,
} from './throttle.port.js';

export type BottleneckThrottleOptions = {
  /** Key prefix (REDIS_PREFIX); limiter ids are `{prefix}-throttle-{mailboxId}-{window}`. */
  prefix: string;
  /** TIME_SCALE: windows and spacing shrink with it. */
  timeScale?: number;
  /**
   * How long (real ms) one `take` waits inside Bottleneck's queue before it answers
   * "wait": the touch goes back to BullMQ and its scheduled Bottleneck job keeps its
   * place in line in this process (default 1000).
   */
  maxWaitMs?: number;
  /**
   * Hold the caps on sliding windows too (default true): the spacing (`minTime`)
   * becomes at least W / C for each window, so no window of length W can hold more
   * than C grants, at the price of bursts (see the class comment). False leaves the
   * fixed-window reservoirs alone, which can grant up to twice a cap across a refill.
   */
  strict?: boolean;
  /**
   * Where a limiter Redis does not have is rebuilt from (the touches PostgreSQL
   * recorded in its windows): see {@link BottleneckThrottle} on Redis loss.
   */
  seedFrom?: ThrottleSeedSource;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Chain = { signature: string; minute: Bottleneck; hour: Bottleneck; day: Bottleneck };
/** A member's place in Bottleneck's queue: its grant time once granted, and whether `take` answered it. */
type Pending = { done: Promise<number>; at: number | null; handed: boolean };

/**
 * The per-mailbox caps on Bottleneck's Redis datastore (`datastore: 'ioredis'`, one
 * shared {@link Bottleneck.IORedisConnection} over our client): per mailbox three
 * limiters (id `{prefix}-throttle-{mailboxId}-minute|hour|day`), chained, each with
 * `reservoir` = its cap refreshed every window (`reservoirRefreshInterval`), the day
 * one also holding `minTime` for the spacing. Every replica sees the same limiters.
 *
 * What Bottleneck cannot express exactly, so what this implementation does not hold:
 * - Sliding windows. A reservoir refills all at once every interval (a fixed window
 *   starting when the limiter was first made), so up to twice the cap can be granted
 *   inside one window's length across a refill. The Lua buckets count grants in
 *   (now - W, now] and never do. With `strict` (the default) the caps still hold on
 *   sliding windows because `minTime` is raised to max(minSpacing, W / C) over the
 *   three windows: sends are evenly spaced at the tightest rate and a mailbox never
 *   bursts (3 per minute and 50 per day sends one every 28.8 minutes, where the Lua
 *   buckets would send 3 at once, then wait).
 * - Three windows as one decision. The chain takes the minute token first, then waits
 *   for the hour's, then the day's: a token taken early in one limiter is spent even
 *   if the grant comes windows later, and the minute cap is counted at a different
 *   time than the grant.
 * - Jitter on the spacing (`minTime` is fixed) and one clock: Bottleneck's scripts use
 *   each client's `Date.now()`, not Redis's TIME, so skewed replicas disagree.
 * - A refusal answered without waiting: Bottleneck queues the job in the memory of the
 *   process that asked. A touch back from its BullMQ delay finds its place (or its
 *   token) only on the same replica; on another, the first place is wasted (a token
 *   spent on no send, which errs on the safe side) and it queues again.
 * - Redis loss, by Bottleneck alone: it re-creates a lost limiter from the settings held
 *   in memory, that is with full reservoirs and no spacing, so after a flush a mailbox
 *   could send up to its caps again within the same windows. With `seedFrom` this class
 *   wraps the datastore's `runScript` ({@link wrapLimiterStore}): every `init` of a
 *   limiter, the first and each re-creation after a loss, first reads the sends
 *   PostgreSQL recorded in the limiter's window and starts its reservoir at the cap less
 *   those, then raises the day limiter's `nextRequest` to the last send plus the spacing.
 *   `init` creates the limiter only when Redis does not have it, so replicas that
 *   re-create it at once agree, and a limiter that exists is left as it is. What stays
 *   open: the spacing is raised one round trip after the reservoir is set, so a grant by
 *   another replica in between can come early once; the reservoirs refill as fixed
 *   windows from the re-creation, which strict spacing covers; and jobs Bottleneck had
 *   already timed in a process's memory before the loss still fire, while the re-created
 *   limiter times new ones from the last recorded send, so two grants can come closer
 *   than the spacing (a sliding day held 9 sends of 8 now and then across a loss in
 *   test/faults/redis-flush-caps.e2e.test.ts). In strict mode the hand-out guard closes
 *   all three for the caps: a grant is handed out only W / C after the mailbox's last
 *   hand-out on any replica (see {@link HandOutGuard}), one more Redis call per send.
 */
export class BottleneckThrottle implements Throttle {
  readonly kind = 'bottleneck' as const;
  private readonly connection: Bottleneck.IORedisConnection;
  private readonly chains = new Map<string, Chain>();
  private readonly pending = new Map<string, Pending>();
  private readonly timeScale: number;
  private readonly maxWaitMs: number;
  private readonly guard: HandOutGuard;
  /** One read of PostgreSQL per mailbox for the three limiters re-created together. */
  private readonly seeds = new Map<string, { at: number; counts: Promise<WindowCounts> }>();

  constructor(
    private readonly redis: Redis,
    private readonly opts: BottleneckThrottleOptions,
  ) {
    // Bottleneck would `require('ioredis')` itself, which an ES module cannot do.
    this.connection = new Bottleneck.IORedisConnection({ client: redis, Redis });
    this.timeScale = Math.max(1, opts.timeScale ?? 1);
    this.maxWaitMs = opts.maxWaitMs ?? 1_000;
    this.guard = new HandOutGuard(redis, { prefix: opts.prefix, timeScale: this.timeScale });
  }

  /** Takes a token (see {@link Throttle.take}); waits up to `maxWaitMs` in Bottleneck's queue. */
  async take(
    mailboxId: string,
    limits: MailboxLimits,
    member: string,
    opts: { queue?: boolean } = {},
  ): Promise<ThrottleDecision> {
    const chain = await this.chainOf(mailboxId, limits);
    const key = `${mailboxId}/${member}`;
    let pending = this.pending.get(key);
    if (pending?.at != null && !pending.handed && Date.now() - pending.at > this.staleAfterMs(limits)) {
      // Granted while its touch slept in BullMQ, and back too late: Bottleneck has already
      // timed the next grant a spacing after this one, so sending now would put two sends
      // closer than the spacing (9 sends in a day of 8, in redis-flush-caps). Its token is
      // spent unused (the safe side); the member queues again.
      this.pending.delete(key);
      pending = undefined;
    }
    if (!pending) {
      if (opts.queue === false) {
        const free = await Promise.all([chain.minute.check(), chain.hour.check(), chain.day.check()]);
        if (!free.every(Boolean)) return { granted: false, waitMs: 0, at: Date.now() };
      }
      const entry: Pending = {
        at: null,
        handed: false,
        done: chain.minute.schedule(() =>
          chain.hour.schedule(() => chain.day.schedule(async () => Date.now())),
        ),
      };
      entry.done = entry.done.then((at) => {
        entry.at = at;
        return at;
      });
      pending = entry;
      this.pending.set(key, entry);
    }
    if (pending.at === null) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), this.maxWaitMs);
      });
      const at = await Promise.race([pending.done, timedOut]).finally(() => clearTimeout(timer));
      if (at === null) {
        // Come back about when this member's own grant is due: the waiters queued before
        // it in this process (the map keeps insertion order, Bottleneck's queue too), one
        // spacing each. Waiting for every waiter of the mailbox instead brought all of
        // them back together, long after their grants, and they went out in one burst
        // (18 sends within 0.6 s on a mailbox of 8 a day, in redis-flush-caps).
        let before = 0;
        for (const [k, p] of this.pending) {
          if (k === key) break;
          if (p.at === null && k.startsWith(`${mailboxId}/`)) before++;
        }
        // Half a wait early: back before its grant, it waits for it here, so it is sent at
        // the grant's time, not after (a late one is dropped above).
        const waitMs = Math.max(this.maxWaitMs, before * this.spacingOf(limits) - this.maxWaitMs / 2);
        return { granted: false, waitMs, at: Date.now() };
      }
    }
    // A grant stays this member's until its day window passes (a retry after a 429 re-takes it).
    const at = pending.at as number;
    if (!pending.handed && this.opts.strict !== false && !(await this.mayHandOut(mailboxId, limits))) {
      // Closer to the mailbox's last hand-out, on any replica, than its tightest cap's
      // rate: the grant is dropped (its token spent unused) and the member queues again.
      this.pending.delete(key);
      return { granted: false, waitMs: this.maxWaitMs, at: Date.now() };
    }
    pending.handed = true;
    setTimeout(() => this.pending.delete(key), DAY / this.timeScale).unref();
    return { granted: true, at };
  }

  /**
   * Nothing to give up: a refused take leaves its job in Bottleneck's queue, which
   * cannot cancel one; the token it is granted later goes unused (see the class notes).
   */
  async release(_mailboxId: string, _member: string): Promise<void> {}

  /** Sends each known mailbox took from its day reservoir; 0 for mailboxes this process has not seen. */
  async usedToday(mailboxIds: string[]): Promise<Map<string, number>> {
    const used = new Map<string, number>();
    for (const id of mailboxIds) {
      const chain = this.chains.get(id);
      const left = chain ? await chain.day.currentReservoir() : null;
      const cap = chain ? Number(JSON.parse(chain.signature).perDay) : 0;
      used.set(id, left === null ? 0 : Math.max(0, cap - left));
    }
    return used;
  }

  windows(limits: MailboxLimits): [number, number][] {
    return capWindows(limits, this.timeScale);
  }

  /** Stops every limiter's heartbeat and quits the subscriber Bottleneck duplicated; our client stays open. */
  async close(): Promise<void> {
    for (const c of this.chains.values()) {
      await Promise.all([c.minute.disconnect(false), c.hour.disconnect(false), c.day.disconnect(false)]);
    }
    this.chains.clear();
    // The typings call `ready` a method; the library sets it as a promise.
    const { subscriber } = await (this.connection as unknown as { ready: Promise<{ subscriber: Redis }> })
      .ready;
    subscriber.disconnect();
  }

  private async chainOf(mailboxId: string, limits: MailboxLimits): Promise<Chain> {
    const signature = JSON.stringify(limits);
    const known = this.chains.get(mailboxId);
    if (known?.signature === signature) return known;
    const [minute, hour, day] = (['minute', 'hour', 'day'] as const).map((w) => {
      const [cap, ms] = this.windowOf(w, limits);
      const settings: Bottleneck.ConstructorOptions = {
        reservoir: cap,
        reservoirRefreshAmount: cap,
        reservoirRefreshInterval: ms,
        minTime: w === 'day' ? this.spacingOf(limits) : 0,
      };
      if (known) {
        known[w].updateSettings(settings);
        return known[w];
      }
      const id = `${this.opts.prefix}-throttle-${mailboxId}-${w}`;
      const limiter = new Bottleneck({
        ...settings,
        id,
        datastore: 'ioredis',
        connection: this.connection,
        clearDatastore: false,
        // Waiting jobs are looked at on each heartbeat: often enough for the window.
        heartbeatInterval: Math.max(20, Math.min(ms / 2, 1_000)),
        // A limiter idle for its window and a minute is forgotten by Redis.
        timeout: ms + 60_000,
      });
      // Before its first init runs (the datastore starts it once its connection is ready).
      const limitsOf = () => JSON.parse(this.chains.get(mailboxId)?.signature ?? signature);
      wrapLimiterStore(limiter, { redis: this.redis, id, seed: this.seedOf(mailboxId, w, limitsOf) });
      return limiter;
    }) as [Bottleneck, Bottleneck, Bottleneck];
    const chain = { signature, minute, hour, day };
    this.chains.set(mailboxId, chain);
    await Promise.all([minute.ready(), hour.ready(), day.ready()]);
    return chain;
  }

  /**
   * Where each `init` of a limiter (the first, and each one after a loss) starts it, with
   * `seedFrom`: the reservoir at the cap less PostgreSQL's count of the window, and the day
   * limiter's next grant a spacing after the last recorded send. The limits are the
   * chain's current ones, read at the init.
   */
  private seedOf(
    mailboxId: string,
    w: 'minute' | 'hour' | 'day',
    limitsOf: () => MailboxLimits,
  ): (() => Promise<LimiterSeed>) | undefined {
    if (!this.opts.seedFrom) return undefined;
    return async () => {
      const limits = limitsOf();
      const counts = await this.seedCounts(mailboxId, limits);
      const [cap] = this.windowOf(w, limits);
      const nextRequestAt =
        w === 'day' && counts.lastAt !== null ? Math.ceil(counts.lastAt + this.spacingOf(limits)) : null;
      return { reservoir: Math.max(0, cap - counts[w]), nextRequestAt };
    };
  }

  /** The mailbox's recorded sends per window, read once for limiters re-created within 250 ms. */
  private seedCounts(mailboxId: string, limits: MailboxLimits): Promise<WindowCounts> {
    const known = this.seeds.get(mailboxId);
    if (known && Date.now() - known.at < 250) return known.counts;
    const counts = (this.opts.seedFrom as ThrottleSeedSource)(mailboxId, [
      this.windowOf('minute', limits)[1],
      this.windowOf('hour', limits)[1],
      this.windowOf('day', limits)[1],
    ]);
    this.seeds.set(mailboxId, { at: Date.now(), counts });
    // A failed read is not kept: the next init asks again.
    counts.catch(() => this.seeds.delete(mailboxId));
    return counts;
  }

  /** The {@link HandOutGuard}'s answer, with PostgreSQL's last send for a lost key (with `seedFrom`). */
  private mayHandOut(mailboxId: string, limits: MailboxLimits): Promise<boolean> {
    const seedFrom = this.opts.seedFrom;
    return this.guard.allows(
      mailboxId,
      this.windows(limits),
      seedFrom ? async () => (await this.seedCounts(mailboxId, limits)).lastAt : undefined,
    );
  }

  /**
   * How late after its grant a token may still be handed out. Strict spacing S over a
   * window (C, W) leaves C * S - W of slack (5% of W); a send late by L shortens the
   * span of C + 1 sends by L, so half the slack (the other half for the way from grant
   * to send) keeps every sliding window within its cap. Without strict spacing there
   * is no slack to keep and a grant is handed out whenever it is asked for.
   */
  private staleAfterMs(limits: MailboxLimits): number {
    if (this.opts.strict === false) return Number.POSITIVE_INFINITY;
    const spacing = this.spacingOf(limits);
    const slack = (['minute', 'hour', 'day'] as const).map((w) => {
      const [cap, ms] = this.windowOf(w, limits);
      return spacing * Math.max(1, cap) - ms;
    });
    return Math.max(0, Math.min(...slack)) / 2;
  }

  /** The day limiter's `minTime`: the spacing, raised in strict mode to the tightest W / C (5% margin for timer drift). */
  private spacingOf(limits: MailboxLimits): number {
    const spacing = limits.minSpacingMs / this.timeScale;
    if (this.opts.strict === false) return Math.ceil(spacing);
    const rates = this.windows(limits).map(([cap, ms]) => (ms / Math.max(1, cap)) * 1.05);
    return Math.ceil(Math.max(spacing, ...rates));
  }

  /**
   * A window's (cap, length in whole ms). Rounded up: Bottleneck's scripts take whole
   * milliseconds (`HINCRBY`, `PEXPIRE`), and a TIME_SCALE that does not divide a window
   * (1440: a minute of 41.67 ms) made every one of its calls fail with "value is not an
   * integer". A longer window holds the cap all the same.
   */
  private windowOf(w: 'minute' | 'hour' | 'day', limits: MailboxLimits): [number, number] {
    if (w === 'minute') return [limits.perMinute, Math.ceil(MINUTE / this.timeScale)];
    if (w === 'hour') return [limits.perHour, Math.ceil(HOUR / this.timeScale)];
    return [limits.perDay, Math.ceil(DAY / this.timeScale)];
  }
}
