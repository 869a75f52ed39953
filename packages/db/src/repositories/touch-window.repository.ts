import type pg from 'pg';

/** Touches of one mailbox in its minute, hour and day windows, and the newest one's time (ms). */
export type MailboxTouchCounts = { minute: number; hour: number; day: number; lastAt: number | null };

/** A mailbox with its caps, its state and the sends of its windows: how much of each cap is used. */
export type MailboxUsageRow = {
  id: string;
  address: string;
  provider: string;
  domain: string;
  status: 'active' | 'paused';
  statusReason: string | null;
  caps: { perMinute: number; perHour: number; perDay: number };
  used: { minute: number; hour: number; day: number };
  /** Sends since midnight in the mailbox's zone (the real clock, whatever TIME_SCALE). */
  sentToday: number;
  lastSentAt: Date | null;
};

/** The graph node of a touch is an e-mail (a chain's steps are all e-mails): a mailbox's sends. */
export const EMAIL_NODE = `coalesce(v.graph->'nodes'->(t.step - 1)->>'action', 'email') = 'email'`;

/**
 * The touches of one sending account that count against its caps (sending, sent, or in
 * doubt), each at its send time (`sent_at`, else the claim's `created_at`).
 * @param account the condition on the enrollment `e` that names the account
 * @param node the condition on the touch's graph node (`v.graph`, `t.step`)
 */
export function countedTouches(account: string, node: string): string {
  return `SELECT coalesce(t.sent_at, t.created_at) AS at
            FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
            JOIN sequence_version v ON v.id = e.sequence_version_id
           WHERE ${account} AND t.status IN ('sending', 'sent', 'unknown')
             AND ${node}`;
}

/**
 * One row counting `touches` within each window before now (the database clock), and
 * the newest one's time (`last_at`). Windows go from the shortest to the longest, which
 * bounds the scan.
 * @param windows each window's column name and the SQL of its length in ms (a parameter)
 */
function countsInWindowsSql(touches: string, windows: [string, string][]): string {
  const within = (ms: string) => `x.at > now() - make_interval(secs => ${ms} / 1000.0)`;
  const [longest, longestMs] = windows[windows.length - 1]!;
  const counts = windows
    .slice(0, -1)
    .map(([name, ms]) => `count(*) FILTER (WHERE ${within(ms)})::int AS ${name}`);
  return `SELECT ${[...counts, `count(*)::int AS ${longest}`, 'max(x.at) AS last_at'].join(', ')}
            FROM (${touches}) x
           WHERE ${within(longestMs)}`;
}

/** A mailbox's e-mails in its windows (a graph's LinkedIn actions and tasks are not its sends). */
const MAILBOX_COUNTS = countsInWindowsSql(countedTouches('e.mailbox_id = $1', EMAIL_NODE), [
  ['minute', '$2'],
  ['hour', '$3'],
  ['day', '$4'],
]);
/** A LinkedIn account's touches at the graph nodes of one action, in its windows. */
const LINKEDIN_COUNTS = countsInWindowsSql(
  countedTouches('e.linkedin_account_id = $1', `v.graph->'nodes'->(t.step - 1)->>'action' = $2`),
  [
    ['minute', '$3'],
    ['hour', '$4'],
    ['day', '$5'],
    ['week', '$6'],
  ],
);
/** {@link MAILBOX_COUNTS} for each mailbox `m` of a list. */
const USAGE_COUNTS = countsInWindowsSql(countedTouches('e.mailbox_id = m.id', EMAIL_NODE), [
  ['minute', '$1'],
  ['hour', '$2'],
  ['day', '$3'],
]);

/**
 * Reads how many touches each mailbox has sent (or may have: `sending`, `unknown`)
 * in its recent windows, from which the sender rebuilds a token bucket Redis lost.
 */
export class TouchWindowRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Counts the mailbox's touches whose send time (`sent_at`, else the claim's
   * `created_at`) lies within each window before now (the database clock).
   * @param windowsMs the minute, hour and day windows in ms (after TIME_SCALE); a
   *   mailbox has no week window, so a fourth length (the throttle port's) is ignored.
   */
  async countsInWindows(
    mailboxId: string,
    windowsMs: [number, number, number] | [number, number, number, number],
  ): Promise<MailboxTouchCounts> {
    const [minuteMs, hourMs, dayMs] = windowsMs;
    const { rows } = await this.pool.query<{
      minute: number;
      hour: number;
      day: number;
      last_at: Date | null;
    }>(MAILBOX_COUNTS, [mailboxId, minuteMs, hourMs, dayMs]);
    const row = rows[0];
    return {
      minute: row?.minute ?? 0,
      hour: row?.hour ?? 0,
      day: row?.day ?? 0,
      lastAt: row?.last_at ? row.last_at.getTime() : null,
    };
  }

  /**
   * `countsInWindows` for one action of one LinkedIn account (the bucket
   * `{accountId}-li-{action}`): its touches at the graph nodes of that action, in
   * the minute, hour, day and, for invitations, week windows.
   */
  async linkedInCountsInWindows(
    accountId: string,
    action: 'invitation' | 'message' | 'profile_visit',
    windowsMs: [number, number, number] | [number, number, number, number],
  ): Promise<MailboxTouchCounts & { week?: number }> {
    const [minuteMs, hourMs, dayMs, weekMs] = windowsMs;
    const node = {
      invitation: 'linkedin_connect',
      message: 'linkedin_message',
      profile_visit: 'linkedin_visit',
    }[action];
    const { rows } = await this.pool.query<{
      minute: number;
      hour: number;
      day: number;
      week: number;
      last_at: Date | null;
    }>(LINKEDIN_COUNTS, [accountId, node, minuteMs, hourMs, dayMs, weekMs ?? dayMs]);
    const row = rows[0];
    return {
      minute: row?.minute ?? 0,
      hour: row?.hour ?? 0,
      day: row?.day ?? 0,
      ...(weekMs === undefined ? {} : { week: row?.week ?? 0 }),
      lastAt: row?.last_at ? row.last_at.getTime() : null,
    };
  }

  /**
   * Every mailbox (by id, a page at a time) with the sends of its minute, hour and
   * day windows, counted as {@link countsInWindows} counts them for the sender's bucket.
   * @param windowsMs the minute, hour and day windows in ms (after TIME_SCALE).
   */
  async usage(
    windowsMs: [number, number, number],
    limit: number,
    after?: string,
  ): Promise<MailboxUsageRow[]> {
    const [minuteMs, hourMs, dayMs] = windowsMs;
    const { rows } = await this.pool.query<{
      id: string;
      address: string;
      provider: string;
      domain: string;
      status: 'active' | 'paused';
      status_reason: string | null;
      per_minute: number;
      per_hour: number;
      per_day: number;
      minute: number;
      hour: number;
      day: number;
      today: number;
      last_at: Date | null;
    }>(
      `SELECT m.id, m.address, m.provider, d.domain, m.status::text AS status, m.status_reason,
              m.per_minute, m.per_hour, m.per_day, x.minute, x.hour, x.day, t.today, x.last_at
         FROM mailbox m
         JOIN sending_domain d ON d.id = m.domain_id
         CROSS JOIN LATERAL (${USAGE_COUNTS}) x
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS today
             FROM (${countedTouches('e.mailbox_id = m.id', EMAIL_NODE)}) y
            WHERE y.at >= date_trunc('day', now() AT TIME ZONE m.timezone) AT TIME ZONE m.timezone) t
        WHERE ($4::uuid IS NULL OR m.id > $4)
        ORDER BY m.id
        LIMIT $5`,
      [minuteMs, hourMs, dayMs, after ?? null, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      address: r.address,
      provider: r.provider,
      domain: r.domain,
      status: r.status,
      statusReason: r.status_reason,
      caps: { perMinute: r.per_minute, perHour: r.per_hour, perDay: r.per_day },
      used: { minute: r.minute, hour: r.hour, day: r.day },
      sentToday: r.today,
      lastSentAt: r.last_at,
    }));
  }
}
