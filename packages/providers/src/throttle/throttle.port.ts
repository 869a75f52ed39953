/** The caps of one mailbox, as the mailbox row holds them (real time, before TIME_SCALE). */
export type MailboxLimits = {
  perMinute: number;
  perHour: number;
  perDay: number;
  /**
   * A fourth, weekly window, for LinkedIn invitations (a mailbox has none). The Lua
   * throttle holds it like the others; Bottleneck holds it only in strict mode, by
   * the spacing (7 days / perWeek).
   */
  perWeek?: number;
  /** Minimum gap between two sends; 0 for none. */
  minSpacingMs: number;
};

/** A token now, or how long to wait before asking again. */
export type ThrottleDecision = { granted: true; at: number } | { granted: false; waitMs: number; at: number };

/** Which implementation of {@link Throttle} the sender uses (SENDER_THROTTLE). */
export type ThrottleKind = 'lua' | 'bottleneck';

/**
 * Sends a mailbox made in each of its windows, as PostgreSQL recorded them: what a
 * bucket is rebuilt from after Redis lost it. `lastAt` is the newest send (for the
 * spacing), null when there was none in the day.
 */
export type WindowCounts = {
  minute: number;
  hour: number;
  day: number;
  /** Sends in the week window, when the bucket has one (LinkedIn invitations). */
  week?: number;
  lastAt: number | null;
};

/**
 * Reads a mailbox's {@link WindowCounts} from the database. The window lengths are
 * given in ms after TIME_SCALE, in the order minute, hour, day, and week when the
 * bucket has a weekly cap.
 */
export type ThrottleSeedSource = (
  mailboxId: string,
  windowsMs: [number, number, number] | [number, number, number, number],
) => Promise<WindowCounts>;

/**
 * Per-mailbox caps (per minute, hour, day, and a minimum spacing) shared by every
 * sender replica. The sender asks for one token per touch attempt and, when refused,
 * hands the touch back to BullMQ as a delayed job for `waitMs`: no worker slot is held.
 */
export interface Throttle {
  /** Which implementation this is, for logs and the benchmark. */
  readonly kind: ThrottleKind;
  /**
   * Takes a token of the mailbox for `member` (one attempt of one touch). Asking again
   * with the same member after a refusal keeps its place in line where the
   * implementation can. With `queue: false` a refusal takes no place in line and
   * answers `waitMs: 0` (for trying the next mailbox of a pool).
   */
  take(
    mailboxId: string,
    limits: MailboxLimits,
    member: string,
    opts?: { queue?: boolean },
  ): Promise<ThrottleDecision>;
  /**
   * Gives up `member`'s place in line. For a touch refused with a wait that ends
   * outside its own sending window: it comes back only when its window opens, so the
   * slot it was given would stand empty, counted against the caps, while touches
   * whose window is open queue behind it.
   */
  release(mailboxId: string, member: string): Promise<void>;
  /** Sends each mailbox has counted in its day window (for choosing among a pool's mailboxes). */
  usedToday(mailboxIds: string[]): Promise<Map<string, number>>;
  /** The windows as (cap, ms) after TIME_SCALE, for checking grants against them. */
  windows(limits: MailboxLimits): [number, number][];
  /** Releases what the implementation holds besides the Redis client it was given. */
  close(): Promise<void>;
}

/**
 * A mailbox's cap windows as (cap, ms) after TIME_SCALE: per minute, hour and day,
 * and per week when it has a weekly cap. What every Throttle's `windows` answers.
 */
export function capWindows(limits: MailboxLimits, timeScale: number): [number, number][] {
  const minute = 60_000;
  const day = 24 * 60 * minute;
  return [
    [limits.perMinute, minute / timeScale],
    [limits.perHour, (60 * minute) / timeScale],
    [limits.perDay, day / timeScale],
    ...(limits.perWeek === undefined ? [] : [[limits.perWeek, (7 * day) / timeScale] as [number, number]]),
  ];
}
