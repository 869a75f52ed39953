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
    }>(
      `SELECT count(*) FILTER (WHERE x.at > now() - make_interval(secs => $2 / 1000.0))::int AS minute,
              count(*) FILTER (WHERE x.at > now() - make_interval(secs => $3 / 1000.0))::int AS hour,
              count(*)::int AS day,
              max(x.at) AS last_at
         FROM (SELECT coalesce(t.sent_at, t.created_at) AS at
                 FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
                 JOIN sequence_version v ON v.id = e.sequence_version_id
                WHERE e.mailbox_id = $1 AND t.status IN ('sending', 'sent', 'unknown')
                  -- Only e-mails: a graph's LinkedIn actions and tasks are not the mailbox's sends.
                  AND coalesce(v.graph->'nodes'->(t.step - 1)->>'action', 'email') = 'email') x
        WHERE x.at > now() - make_interval(secs => $4 / 1000.0)`,
      [mailboxId, minuteMs, hourMs, dayMs],
    );
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
    }>(
      `SELECT count(*) FILTER (WHERE x.at > now() - make_interval(secs => $3 / 1000.0))::int AS minute,
              count(*) FILTER (WHERE x.at > now() - make_interval(secs => $4 / 1000.0))::int AS hour,
              count(*) FILTER (WHERE x.at > now() - make_interval(secs => $5 / 1000.0))::int AS day,
              count(*)::int AS week,
              max(x.at) AS last_at
         FROM (SELECT coalesce(t.sent_at, t.created_at) AS at
                 FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
                 JOIN sequence_version v ON v.id = e.sequence_version_id
                WHERE e.linkedin_account_id = $1 AND t.status IN ('sending', 'sent', 'unknown')
                  AND v.graph->'nodes'->(t.step - 1)->>'action' = $2) x
        WHERE x.at > now() - make_interval(secs => $6 / 1000.0)`,
      [accountId, node, minuteMs, hourMs, dayMs, weekMs ?? dayMs],
    );
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
         CROSS JOIN LATERAL (
           SELECT count(*) FILTER (WHERE y.at > now() - make_interval(secs => $1 / 1000.0))::int AS minute,
                  count(*) FILTER (WHERE y.at > now() - make_interval(secs => $2 / 1000.0))::int AS hour,
                  count(*)::int AS day,
                  max(y.at) AS last_at
             FROM (SELECT coalesce(t.sent_at, t.created_at) AS at
                     FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
                     JOIN sequence_version v ON v.id = e.sequence_version_id
                    WHERE e.mailbox_id = m.id AND t.status IN ('sending', 'sent', 'unknown')
                      AND coalesce(v.graph->'nodes'->(t.step - 1)->>'action', 'email') = 'email') y
            WHERE y.at > now() - make_interval(secs => $3 / 1000.0)) x
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS today
             FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
             JOIN sequence_version v ON v.id = e.sequence_version_id
            WHERE e.mailbox_id = m.id AND t.status IN ('sending', 'sent', 'unknown')
              AND coalesce(v.graph->'nodes'->(t.step - 1)->>'action', 'email') = 'email'
              AND coalesce(t.sent_at, t.created_at) >= date_trunc('day', now() AT TIME ZONE m.timezone) AT TIME ZONE m.timezone) t
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
