import type pg from 'pg';

/** Touches of one mailbox in its minute, hour and day windows, and the newest one's time (ms). */
export type MailboxTouchCounts = { minute: number; hour: number; day: number; lastAt: number | null };

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
}
