import { randomUUID } from 'node:crypto';
import { DomainError, type SendingWindow } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { HELD_FOR_DOMAIN_PAUSE } from './enrollment.repository.js';

/** Counts over a span of days, as the rollup keeps them. */
export type DomainCounts = {
  sends: number;
  /** Hard bounces. */
  bounces: number;
  complaints: number;
  replies: number;
  /** Enrollments that ended, and those of them that ran through every step. */
  ended: number;
  completed: number;
};

/** One domain's state and its counts over the window, as a tick reads them. */
export type DomainWindow = {
  id: string;
  domain: string;
  status: 'active' | 'paused';
  pauseKind: string | null;
  healthLevel: 'ok' | 'approaching' | 'over';
  healthySince: Date | null;
  /** Counts since the domain was last resumed (or the whole window): what the guard judges. */
  counted: DomainCounts;
  /** Days the counted figures span (fewer than the window shortly after a resume). */
  countedDays: number;
  /** Counts over the whole window whatever the resumes: what the account-wide guard adds up. */
  window: DomainCounts;
};

/** An alert to record with a change of state, in the same transaction. */
export type NewAlert = { kind: string; domainId: string | null; message: string; data: object };

/** A held enrollment on its way back: its mailbox's sending window decides when it starts. */
export type HeldEnrollment = {
  id: string;
  mailboxId: string;
  /** The mailbox's zone; the prospect's own, when it has one, is `prospectTimezone`. */
  timezone: string;
  prospectTimezone: string | null;
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  holidays: string[];
  /** The sequence's own window, which overrides the mailbox's. */
  sequenceWindow: SendingWindow | null;
};

type Db = pg.Pool | pg.PoolClient;

const COUNT_KEYS = ['sends', 'bounces', 'complaints', 'replies', 'ended', 'completed'] as const;
const ZERO: DomainCounts = { sends: 0, bounces: 0, complaints: 0, replies: 0, ended: 0, completed: 0 };

// pg_advisory_xact_lock key of the guard: one tick (scheduled or manual) at a time
// across every replica, and the only code that folds the rollup deltas.
const GUARD_LOCK_KEY = 5_431_007;

const DOMAIN_COLUMNS = `d.id, d.domain, d.status::text AS status, d.reason, d.status_since AS "statusSince",
  d.paused_by AS "pausedBy", d.pause_kind AS "pauseKind", d.hold_touches AS "holdTouches",
  d.health_level AS "healthLevel", d.healthy_since AS "healthySince", d.figures, d.checked_at AS "checkedAt",
  d.counted_from::text AS "countedFrom"`;

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Sending domains and their health: the rollup the guard reads (kept by triggers,
 * folded here), pauses and resumes with their audit entries, alerts and the
 * release of the enrollments held while a domain was paused.
 */
export class SendingDomainRepository {
  constructor(private readonly pool: pg.Pool) {}

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
    const { rows } = await client.query(
      `SELECT d.id, d.domain, d.status::text AS status, d.pause_kind, d.health_level, d.healthy_since,
              d.counted_from::text AS counted_from, d.baseline, ${sums}, ${counted}
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
      const baseline = countedFrom ? (r.baseline as Partial<DomainCounts>) : {};
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

  /**
   * Pauses an active domain: new enrollments on its mailboxes are held or refused,
   * and (with `holdTouches`) the touches of its running sequences wait. Writes the
   * reason to the domain's record and, with the figures, to the audit log; records
   * the alert in the same transaction.
   * @returns the alert id, or null when the domain was not active (nothing changed).
   */
  async pause(
    input: {
      domainId: string;
      actor: string;
      kind: 'bounce' | 'complaint' | 'account' | 'manual';
      reason: string;
      holdTouches: boolean;
      figures?: object;
      level?: string;
      alert: Omit<NewAlert, 'domainId'>;
      at?: Date;
    },
    client?: pg.PoolClient,
  ): Promise<{ alertId: string } | null> {
    if (!client) return inTransaction(this.pool, (c) => this.pause(input, c));
    const at = input.at ?? new Date();
    const r = await client.query(
      `UPDATE sending_domain SET status = 'paused', reason = $2, status_since = $3, paused_by = $4, pause_kind = $5,
         hold_touches = $6, healthy_since = NULL, health_level = COALESCE($7, health_level)
       WHERE id = $1 AND status = 'active' RETURNING id`,
      [input.domainId, input.reason, at, input.actor, input.kind, input.holdTouches, input.level ?? null],
    );
    if (r.rowCount === 0) {
      await this.mustExist(client, input.domainId);
      return null;
    }
    await this.audit(client, input.actor, 'domain.paused', input.domainId, {
      reason: input.reason,
      kind: input.kind,
      holdTouches: input.holdTouches,
      ...(input.figures ? { figures: input.figures } : {}),
    });
    const alertId = await this.raiseAlert(client, { ...input.alert, domainId: input.domainId });
    return { alertId };
  }

  /**
   * The account-wide guard's pause: every active domain at once, each with its audit
   * entry, and one alert for the account (not one per domain).
   * @returns the domains it paused.
   */
  async pauseAll(
    client: pg.PoolClient,
    input: { actor: string; reason: string; holdTouches: boolean; figures: object; at: Date },
  ): Promise<{ id: string; domain: string }[]> {
    const { rows } = await client.query<{ id: string; domain: string }>(
      `UPDATE sending_domain SET status = 'paused', reason = $1, status_since = $2, paused_by = $3, pause_kind = 'account',
         hold_touches = $4, healthy_since = NULL
       WHERE status = 'active' RETURNING id, domain`,
      [input.reason, input.at, input.actor, input.holdTouches],
    );
    if (rows.length > 0) {
      await client.query(
        `INSERT INTO audit_log (actor, action, entity_type, entity_id, data)
         SELECT $1, 'domain.paused', 'sending_domain', id::text, $3 FROM unnest($2::uuid[]) AS id`,
        [
          input.actor,
          rows.map((r) => r.id),
          JSON.stringify({ reason: input.reason, kind: 'account', figures: input.figures }),
        ],
      );
    }
    return rows;
  }

  /**
   * Resumes a paused domain, with who and why in the audit log. The guard counts
   * afresh from now on (the bounces that caused the pause are not held against it
   * again), and the enrollments held while it was paused become active, each due
   * when `firstTouchAt` says (its mailbox's sending window).
   * @returns the released enrollments with their due times, or null when the domain was not paused.
   * @throws DomainError `not_found`.
   */
  async resume(
    input: {
      domainId: string;
      actor: string;
      reason: string;
      automatic: boolean;
      firstTouchAt: (held: HeldEnrollment, index: number) => Date;
      alert: Omit<NewAlert, 'domainId'> | null;
      at?: Date;
    },
    client?: pg.PoolClient,
  ): Promise<{ released: { enrollmentId: string; dueAt: Date }[]; alertId: string | null } | null> {
    if (!client) return inTransaction(this.pool, (c) => this.resume(input, c));
    const at = input.at ?? new Date();
    const today = dayOf(at);
    const prev = await client.query<{ status: string; reason: string | null; pause_kind: string | null }>(
      'SELECT status::text AS status, reason, pause_kind FROM sending_domain WHERE id = $1 FOR UPDATE',
      [input.domainId],
    );
    const domain = prev.rows[0];
    if (!domain) throw new DomainError('not_found', 'sending domain not found', { domainId: input.domainId });
    if (domain.status !== 'paused') return null;

    // What today already holds (folded or not) is the baseline the guard subtracts from now on.
    const snap = await client.query(
      `SELECT ${COUNT_KEYS.map((k) => `COALESCE(SUM(${k}), 0)::int AS ${k}`).join(', ')} FROM (
         SELECT ${COUNT_KEYS.join(', ')} FROM domain_daily_stat WHERE domain_id = $1 AND day = $2::date
         UNION ALL
         SELECT ${COUNT_KEYS.join(', ')} FROM domain_stat_delta WHERE domain_id = $1 AND day = $2::date) AS today`,
      [input.domainId, today],
    );
    await client.query(
      `UPDATE sending_domain SET status = 'active', reason = $2, status_since = $3, paused_by = NULL, pause_kind = NULL,
         health_level = 'ok', healthy_since = NULL, counted_from = $4::date, baseline = $5
       WHERE id = $1`,
      [
        input.domainId,
        `resumed by ${input.actor}: ${input.reason}`,
        at,
        today,
        JSON.stringify(snap.rows[0] ?? ZERO),
      ],
    );

    const held = await client.query(
      `SELECT e.id, m.id AS "mailboxId", m.timezone, p.timezone AS "prospectTimezone", m.window_days AS "windowDays",
              m.window_start AS "windowStart", m.window_end AS "windowEnd", COALESCE(m.holidays, '{}') AS holidays,
              s.sending_window AS "sequenceWindow"
       FROM enrollment e JOIN mailbox m ON m.id = e.mailbox_id JOIN prospect p ON p.id = e.prospect_id
       JOIN sequence s ON s.id = e.sequence_id
       WHERE m.domain_id = $1 AND e.status = 'queued' AND e.stop_reason = $2
       ORDER BY e.created_at, e.id FOR UPDATE OF e`,
      [input.domainId, HELD_FOR_DOMAIN_PAUSE],
    );
    const released = (held.rows as HeldEnrollment[]).map((h, i) => ({
      enrollmentId: h.id,
      dueAt: input.firstTouchAt(h, i),
    }));
    if (released.length > 0) {
      await client.query(
        `UPDATE enrollment e SET status = 'active', stop_reason = NULL, next_touch_at = u.due, updated_at = now()
         FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, due) WHERE e.id = u.id AND e.status = 'queued'`,
        [released.map((r) => r.enrollmentId), released.map((r) => r.dueAt)],
      );
    }
    await this.audit(client, input.actor, 'domain.resumed', input.domainId, {
      reason: input.reason,
      automatic: input.automatic,
      previousReason: domain.reason,
      previousKind: domain.pause_kind,
      releasedEnrollments: released.length,
    });
    const alertId = input.alert
      ? await this.raiseAlert(client, { ...input.alert, domainId: input.domainId })
      : null;
    return { released, alertId };
  }

  /** Records an alert (the outbox its deliveries are made from); returns its id. */
  async raiseAlert(client: Db, alert: NewAlert): Promise<string> {
    const id = randomUUID();
    await client.query('INSERT INTO alert (id, kind, domain_id, message, data) VALUES ($1, $2, $3, $4, $5)', [
      id,
      alert.kind,
      alert.domainId,
      alert.message,
      JSON.stringify(alert.data),
    ]);
    return id;
  }

  /** Writes an audit entry inside the caller's transaction. */
  async audit(client: Db, actor: string, action: string, entityId: string, data: object): Promise<void> {
    await client.query(
      `INSERT INTO audit_log (actor, action, entity_type, entity_id, data) VALUES ($1, $2, $3, $4, $5)`,
      [actor, action, entityId === 'account' ? 'account' : 'sending_domain', entityId, JSON.stringify(data)],
    );
  }

  /** The account-wide guard's state. */
  async account(client: Db = this.pool): Promise<{
    level: 'ok' | 'approaching' | 'over';
    figures: Record<string, number>;
    settings: Record<string, unknown>;
    checkedAt: Date | null;
  }> {
    const { rows } = await client.query(
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

  /** Sending domains in name order, a page at a time, with their last figures. */
  async list(limit: number, after?: string) {
    const { rows } = await this.pool.query(
      `SELECT ${DOMAIN_COLUMNS}, (SELECT count(*)::int FROM mailbox m WHERE m.domain_id = d.id) AS mailboxes
       FROM sending_domain d WHERE ($1::text IS NULL OR d.domain > $1) ORDER BY d.domain LIMIT $2`,
      [after ?? null, limit],
    );
    return rows;
  }

  /**
   * One domain: its state, last figures, the rollup days of the window and the
   * enrollments held until it resumes.
   * @throws DomainError `not_found`.
   */
  async get(id: string, windowDays: number, now = new Date()) {
    const { rows } = await this.pool.query(
      `SELECT ${DOMAIN_COLUMNS},
              (SELECT count(*)::int FROM mailbox m WHERE m.domain_id = d.id) AS mailboxes,
              (SELECT count(*)::int FROM enrollment e JOIN mailbox m ON m.id = e.mailbox_id
                WHERE m.domain_id = d.id AND e.status = 'queued' AND e.stop_reason = $2) AS "heldEnrollments"
       FROM sending_domain d WHERE d.id = $1`,
      [id, HELD_FOR_DOMAIN_PAUSE],
    );
    const domain = rows[0];
    if (!domain) throw new DomainError('not_found', 'sending domain not found', { domainId: id });
    const days = await this.pool.query(
      `SELECT day::text AS day, ${COUNT_KEYS.join(', ')} FROM domain_daily_stat
       WHERE domain_id = $1 AND day >= $2::date ORDER BY day`,
      [id, dayOf(new Date(now.getTime() - (windowDays - 1) * DAY))],
    );
    return { ...domain, days: days.rows };
  }

  private async mustExist(client: Db, id: string): Promise<void> {
    const r = await client.query('SELECT 1 FROM sending_domain WHERE id = $1', [id]);
    if (r.rowCount === 0) throw new DomainError('not_found', 'sending domain not found', { domainId: id });
  }
}
