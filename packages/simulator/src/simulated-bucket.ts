const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A mailbox's caps as the throttle takes them (the Throttle port's `MailboxLimits`),
 * with the weekly window a LinkedIn invitation bucket has (core's `linkedInActionLimits`).
 */
export type BucketLimits = {
  perMinute: number;
  perHour: number;
  perDay: number;
  perWeek?: number;
  minSpacingMs: number;
};

/** A token now, or how long to wait before asking again. */
export type BucketDecision = { granted: true } | { granted: false; waitMs: number };

/**
 * The sender's Lua token bucket (packages/providers, THROTTLE_TAKE_SCRIPT) on the
 * virtual clock, decision for decision: sliding windows of a minute, an hour and a
 * day counted over (now - W, now]; a spacing with jitter; a refused touch leaves a
 * hint one slot after every other entry and comes back then, a waiter back at its
 * hint is held to the minimum spacing only, and a waiter that cannot come back at its
 * hint (outside its window) gives it up ({@link SimulatedBucket.release}). Entries are kept sorted by time, so a
 * window count is two binary searches.
 *
 * It mirrors the script rather than sharing it because the script runs inside
 * Redis; the simulator's tests hold the two to the same answers on the same
 * sequences of calls.
 */
export class SimulatedBucket {
  /** Grant and hint times, sorted; the live ones are those from `head` on. */
  private readonly entries: number[] = [];
  private head = 0;
  /** Bumped at every change of the entries or the spacing, for the memo of a refused try. */
  private version = 0;
  private refusedAt = Number.NaN;
  private refusedVersion = -1;
  private readonly hints = new Map<number, number>();
  private next = 0;
  private min = 0;
  private readonly windows: [number, number][];
  private readonly maxW: number;

  constructor(
    private readonly limits: BucketLimits,
    private readonly spacingJitter: number,
    private readonly random: () => number,
  ) {
    this.windows = [
      [limits.perMinute, MINUTE],
      [limits.perHour, HOUR],
      [limits.perDay, DAY],
      ...(limits.perWeek === undefined ? [] : [[limits.perWeek, 7 * DAY] as [number, number]]),
    ];
    this.maxW = limits.perWeek === undefined ? DAY : 7 * DAY;
  }

  /**
   * Takes a token for `member` at `now`. With `queue: false` a refusal leaves no
   * hint (trying the next mailbox of a pool).
   */
  take(member: number, now: number, queue = true): BucketDecision {
    const minSpacing = this.limits.minSpacingMs;
    const spacing = minSpacing > 0 ? minSpacing * (1 + this.spacingJitter * this.random()) : 0;
    this.prune(now);
    let hint = this.hints.get(member);
    // A hint older than the longest window was pruned with it, as ZREMRANGEBYSCORE does.
    if (hint !== undefined && hint <= now - this.maxW) {
      this.hints.delete(member);
      hint = undefined;
    }
    if (hint !== undefined) {
      if (hint > now) return refused(hint - now, queue);
      this.hints.delete(member);
      this.removeEntry(hint);
    }
    // A pool tries every member for each first touch, often many at one instant;
    // a refusal without a hint changes nothing, so it holds until the entries change.
    const plain = hint === undefined && !queue;
    if (plain && now === this.refusedAt && this.version === this.refusedVersion) return refused(0, queue);
    const nextAt = hint !== undefined ? this.min : this.next;
    const spacedOk = now >= nextAt;
    if (!queue && !spacedOk) return this.refuseTry(now, plain);
    const upToNow = this.upper(now);
    let windowsOk = true;
    for (const [cap, w] of this.windows) {
      if (upToNow - this.upper(now - w) >= cap) {
        windowsOk = false;
        break;
      }
    }
    if (spacedOk && windowsOk) {
      this.insert(now);
      this.next = now + spacing;
      this.min = now + minSpacing;
      this.version++;
      return { granted: true };
    }
    if (!queue) return this.refuseTry(now, plain);
    if (hint !== undefined && windowsOk && !spacedOk) {
      this.hints.set(member, nextAt);
      this.insert(nextAt);
      return refused(nextAt - now, queue);
    }
    let at = Math.max(now, this.next);
    const end = this.entries.length;
    const n = end - this.head;
    if (spacing > 0 && n > 0) at = Math.max(at, (this.entries[end - 1] as number) + spacing);
    for (const [cap, w] of this.windows) {
      if (n >= cap) at = Math.max(at, (this.entries[end - cap] as number) + w);
    }
    if (at <= now) at = now + 1;
    this.hints.set(member, at);
    this.insert(at);
    return refused(at - now, queue);
  }

  /**
   * Gives up `member`'s place in line (the sender's `MailboxThrottle.release`): for a
   * touch whose hint falls outside its own window, so it would come back after it.
   */
  release(member: number): void {
    const hint = this.hints.get(member);
    if (hint === undefined) return;
    this.hints.delete(member);
    this.removeEntry(hint);
  }

  private refuseTry(now: number, plain: boolean): BucketDecision {
    if (plain) {
      this.refusedAt = now;
      this.refusedVersion = this.version;
    }
    return refused(0, false);
  }

  /** Grants and waiting touches counted in the day window (the pool's "room left" reads perDay minus this). */
  usedToday(now: number): number {
    return this.entries.length - this.upper(now - DAY);
  }

  /** Index of the first entry greater than `t`. */
  private upper(t: number): number {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.entries[mid] as number) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(t: number): void {
    this.version++;
    const n = this.entries.length;
    if (n === this.head || (this.entries[n - 1] as number) <= t) {
      this.entries.push(t);
      return;
    }
    this.entries.splice(this.upper(t), 0, t);
  }

  private removeEntry(t: number): void {
    const i = this.upper(t) - 1;
    if (i >= this.head && this.entries[i] === t) this.entries.splice(i, 1);
    this.version++;
  }

  /** Drops entries at or before now - maxW by moving the head; the array is compacted now and then. */
  private prune(now: number): void {
    const head = this.upper(now - this.maxW);
    if (head !== this.head) this.version++;
    this.head = head;
    if (this.head > 4096 && this.head * 2 > this.entries.length) {
      this.entries.splice(0, this.head);
      this.head = 0;
    }
  }
}

/** A refusal as the sender's throttle reports it: whole ms, at least 1; 0 without a place in line. */
function refused(waitMs: number, queue: boolean): BucketDecision {
  return { granted: false, waitMs: queue ? Math.max(1, Math.ceil(waitMs)) : 0 };
}
