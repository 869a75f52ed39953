import type pg from 'pg';
import { inTransaction } from '../database.js';
import {
  type AccountHealth,
  COUNT_KEYS,
  type CountKey,
  DAY,
  type Db,
  type DomainCounts,
  type DomainWindow,
} from './sending-domain.rows.js';

// pg_advisory_xact_lock key of the guard: one tick (scheduled or manual) at a time
// across every replica, and the only code that folds the rollup deltas.
const GUARD_LOCK_KEY = 5_431_007;

/** One row of {@link DomainHealthRepository.windowCounts}: the domain, its window sums (`w_`) and its counted sums (`c_`). */
type WindowCountsRow = {
  id: string;
  domain: string;
  status: 'active' | 'paused';
  pause_kind: string | null;
  health_level: 'ok' | 'approaching' | 'over';
  healthy_since: Date | null;
  completion_low_since: Date | null;
  counted_from: string | null;
  baseline: Partial<DomainCounts> | null;
} & Record<`w_${CountKey}` | `c_${CountKey}`, number>;

/**
 * The guard's side of sending domains: the rollup it reads (appended by triggers,
 * folded here: domain_stat_delta into domain_daily_stat), each domain's judgement
 * (the health columns of sending_domain) and the account's (account_health), all
 * under the guard's advisory lock.
 */
export class DomainHealthRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Marks a domain's completion rate low since `since`, or no longer low (null). */
  async setCompletionLow(client: pg.PoolClient, domainId: string, since: Date | null): Promise<void> {
    await client.query('UPDATE sending_domain SET completion_low_since = $2 WHERE id = $1', [
      domainId,
      since,
    ]);
  }

  /**
   * Runs `fn` in one transaction holding the guard's advisory lock: a second tick
   * (another replica, a manual run) waits for this one instead of judging the same
   * figures twice and raising the same alert twice.
   */
  async underGuardLock<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [GUARD_LOCK_KEY]);
      return fn(client);
    });
  }

  /**
   * Moves the increments the triggers appended into the per-day rollup. Only under
   * the guard lock: the DELETE sees the increments committed when it starts; later
   * ones stay for the next fold. Costs what was recorded since the last tick.
   * @returns how many increments were folded.
   */
  async fold(client: pg.PoolClient): Promise<number> {
    const r = await client.query(
      `WITH moved AS (DELETE FROM domain_stat_delta RETURNING domain_id, day, sends, bounces, complaints, replies, ended, completed),
       summed AS (
         SELECT domain_id, day, SUM(sends)::int AS sends, SUM(bounces)::int AS bounces, SUM(complaints)::int AS complaints,
                SUM(replies)::int AS replies, SUM(ended)::int AS ended, SUM(completed)::int AS completed, count(*)::int AS n
         FROM moved GROUP BY domain_id, day),
       upserted AS (
         INSERT INTO domain_daily_stat AS s (domain_id, day, sends, bounces, complaints, replies, ended, completed)
         SELECT domain_id, day, sends, bounces, complaints, replies, ended, completed FROM summed
         ON CONFLICT (domain_id, day) DO UPDATE SET sends = s.sends + EXCLUDED.sends, bounces = s.bounces + EXCLUDED.bounces,
           complaints = s.complaints + EXCLUDED.complaints, replies = s.replies + EXCLUDED.replies,
           ended = s.ended + EXCLUDED.ended, completed = s.completed + EXCLUDED.completed)
       SELECT COALESCE(SUM(n), 0)::int AS folded FROM summed`,
    );
    return r.rows[0]?.folded ?? 0;
  }

  /**
   * Every domain with its counts over the UTC days `from`..`to` (inclusive): the
   * rollup rows of the window only, `days x domains`, whatever the history.
   */
  async windowCounts(client: Db, from: string, to: string): Promise<DomainWindow[]> {
    const sums = COUNT_KEYS.map((k) => `COALESCE(SUM(s.${k}), 0)::int AS w_${k}`).join(', ');
    const counted = COUNT_KEYS.map(
      (k) =>
        `COALESCE(SUM(s.${k}) FILTER (WHERE d.counted_from IS NULL OR s.day >= d.counted_from), 0)::int AS c_${k}`,
    ).join(', ');
    const { rows } = await client.query<WindowCountsRow>(
      `SELECT d.id, d.domain, d.status::text AS status, d.pause_kind, d.health_level, d.healthy_since,
              d.completion_low_since, d.counted_from::text AS counted_from, d.baseline, ${sums}, ${counted}
       FROM sending_domain d
       LEFT JOIN domain_daily_stat s ON s.domain_id = d.id AND s.day BETWEEN $1::date AND $2::date
       GROUP BY d.id ORDER BY d.domain`,
      [from, to],
    );
    return rows.map((r) => {
      const window = Object.fromEntries(COUNT_KEYS.map((k) => [k, r[`w_${k}`]])) as DomainCounts;
      // A resume inside the window: its day's counts from before the resume are not held
      // against the domain again (a resume day before the window no longer matters).
      const countedFrom: string | null =
        r.counted_from && r.counted_from >= from && r.counted_from <= to ? r.counted_from : null;
      const baseline: Partial<DomainCounts> = countedFrom ? (r.baseline ?? {}) : {};
      const counted = Object.fromEntries(
        COUNT_KEYS.map((k) => [k, Math.max(0, r[`c_${k}`] - (baseline[k] ?? 0))]),
      ) as DomainCounts;
      const span = Math.round((Date.parse(to) - Date.parse(countedFrom ?? from)) / DAY) + 1;
      return {
        id: r.id,
        domain: r.domain,
        status: r.status,
        pauseKind: r.pause_kind,
        healthLevel: r.health_level,
        healthySince: r.healthy_since,
        completionLowSince: r.completion_low_since,
        counted,
        countedDays: span,
        window,
      };
    });
  }

  /** Records each domain's band, cooling-off start and figures after a tick, in one statement. */
  async saveEvaluations(
    client: Db,
    rows: { id: string; level: string; healthySince: Date | null; figures: object }[],
    checkedAt: Date,
  ): Promise<void> {
    if (rows.length === 0) return;
    await client.query(
      `UPDATE sending_domain d SET health_level = u.level, healthy_since = u.healthy_since, figures = u.figures, checked_at = $5
       FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::jsonb[]) AS u(id, level, healthy_since, figures)
       WHERE d.id = u.id`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.level),
        rows.map((r) => r.healthySince),
        rows.map((r) => JSON.stringify(r.figures)),
        checkedAt,
      ],
    );
  }

  /** The account-wide guard's state. */
  async account(client: Db = this.pool): Promise<AccountHealth> {
    const { rows } = await client.query<AccountHealth>(
      `SELECT level, figures, settings, checked_at AS "checkedAt" FROM account_health WHERE id = 'account'`,
    );
    return rows[0] ?? { level: 'ok', figures: {}, settings: {}, checkedAt: null };
  }

  async saveAccount(
    client: Db,
    state: { level: string; figures: object; settings: object; checkedAt: Date },
  ): Promise<void> {
    await client.query(
      `INSERT INTO account_health (id, level, figures, settings, checked_at) VALUES ('account', $1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET level = EXCLUDED.level, figures = EXCLUDED.figures, settings = EXCLUDED.settings,
         checked_at = EXCLUDED.checked_at`,
      [state.level, JSON.stringify(state.figures), JSON.stringify(state.settings), state.checkedAt],
    );
  }
}
