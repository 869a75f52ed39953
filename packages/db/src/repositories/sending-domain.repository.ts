import { randomUUID } from 'node:crypto';
import { DomainError } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { HELD_FOR_DOMAIN_PAUSE } from './enrollment.repository.js';
import {
  COUNT_KEYS,
  DAY,
  type Db,
  DOMAIN_COLUMNS,
  type DomainCounts,
  type DomainDayRow,
  dayOf,
  type HeldEnrollment,
  type NewAlert,
  type SendingDomainDetail,
  type SendingDomainRow,
  ZERO,
} from './sending-domain.rows.js';

export type {
  AccountHealth,
  DomainCounts,
  DomainDayRow,
  DomainWindow,
  HeldEnrollment,
  NewAlert,
  SendingDomainDetail,
  SendingDomainRow,
} from './sending-domain.rows.js';

/**
 * Sending domains: pauses and resumes with their audit entries and alerts, and the
 * release of the enrollments held while a domain was paused. The guard's rollup and
 * judgements are {@link DomainHealthRepository}'s.
 */
export class SendingDomainRepository {
  constructor(private readonly pool: pg.Pool) {}

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
    const snap = await client.query<DomainCounts>(
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

    const held = await client.query<HeldEnrollment>(
      `SELECT e.id, m.id AS "mailboxId", m.timezone, p.timezone AS "prospectTimezone", p.attributes AS "prospectAttributes", m.window_days AS "windowDays",
              m.window_start AS "windowStart", m.window_end AS "windowEnd", COALESCE(m.holidays, '{}') AS holidays,
              s.sending_window AS "sequenceWindow"
       FROM enrollment e JOIN mailbox m ON m.id = e.mailbox_id JOIN prospect p ON p.id = e.prospect_id
       JOIN sequence s ON s.id = e.sequence_id
       WHERE m.domain_id = $1 AND e.status = 'queued' AND e.stop_reason = $2
       ORDER BY e.created_at, e.id FOR UPDATE OF e`,
      [input.domainId, HELD_FOR_DOMAIN_PAUSE],
    );
    const released = held.rows.map((h, i) => ({
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

  /** Sending domains in name order, a page at a time, with their last figures. */
  async list(limit: number, after?: string): Promise<SendingDomainRow[]> {
    const { rows } = await this.pool.query<SendingDomainRow>(
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
  async get(id: string, windowDays: number, now = new Date()): Promise<SendingDomainDetail> {
    const { rows } = await this.pool.query<Omit<SendingDomainDetail, 'days'>>(
      `SELECT ${DOMAIN_COLUMNS},
              (SELECT count(*)::int FROM mailbox m WHERE m.domain_id = d.id) AS mailboxes,
              (SELECT count(*)::int FROM enrollment e JOIN mailbox m ON m.id = e.mailbox_id
                WHERE m.domain_id = d.id AND e.status = 'queued' AND e.stop_reason = $2) AS "heldEnrollments"
       FROM sending_domain d WHERE d.id = $1`,
      [id, HELD_FOR_DOMAIN_PAUSE],
    );
    const domain = rows[0];
    if (!domain) throw new DomainError('not_found', 'sending domain not found', { domainId: id });
    const days = await this.pool.query<DomainDayRow>(
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
