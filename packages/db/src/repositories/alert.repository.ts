import { DomainError } from '@touchbase/core';
import type pg from 'pg';

/** One alert on one channel. */
export type AlertDeliveryRow = {
  channel: string;
  /** `pending`, `retrying` (failed at least once, will be retried), `delivered` or `failed` (given up). */
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
};

/** An ops alert with its deliveries. */
export type AlertRow = {
  id: string;
  kind: string;
  domainId: string | null;
  domain: string | null;
  message: string;
  data: Record<string, unknown>;
  createdAt: Date;
  settledAt: Date | null;
  deliveries: AlertDeliveryRow[];
};

const ALERT_COLUMNS = `a.id, a.kind, a.domain_id AS "domainId", d.domain, a.message, a.data, a.created_at AS "createdAt",
  a.settled_at AS "settledAt",
  COALESCE((SELECT json_agg(json_build_object('channel', x.channel, 'status', x.status, 'attempts', x.attempts,
      'lastError', x.last_error, 'lastAttemptAt', x.last_attempt_at, 'deliveredAt', x.delivered_at) ORDER BY x.channel)
    FROM alert_delivery x WHERE x.alert_id = a.id), '[]'::json) AS deliveries`;

/**
 * Ops alerts and their deliveries per channel. Each attempt is recorded, so a
 * retried job never repeats a channel that already delivered, and a failing
 * channel shows in the API.
 */
export class AlertRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** @throws DomainError `not_found`. */
  async get(id: string): Promise<AlertRow> {
    const { rows } = await this.pool.query<AlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM alert a LEFT JOIN sending_domain d ON d.id = a.domain_id WHERE a.id = $1`,
      [id],
    );
    if (!rows[0]) throw new DomainError('not_found', 'alert not found', { alertId: id });
    return rows[0];
  }

  /** Alerts, newest first, a page at a time; `failing` keeps those with a channel retrying or given up. */
  async list(
    filter: { domainId?: string; failing?: boolean },
    limit: number,
    before?: { createdAt: string; id: string },
  ): Promise<AlertRow[]> {
    const { rows } = await this.pool.query<AlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM alert a LEFT JOIN sending_domain d ON d.id = a.domain_id
       WHERE ($1::uuid IS NULL OR a.domain_id = $1)
         AND (NOT $2::boolean OR EXISTS (SELECT 1 FROM alert_delivery x WHERE x.alert_id = a.id AND x.status IN ('retrying', 'failed')))
         AND ($3::timestamptz IS NULL OR (a.created_at, a.id) < ($3::timestamptz, $4::uuid))
       ORDER BY a.created_at DESC, a.id DESC LIMIT $5`,
      [
        filter.domainId ?? null,
        filter.failing ?? false,
        before?.createdAt ?? null,
        before?.id ?? null,
        limit,
      ],
    );
    return rows;
  }

  /** Creates the delivery rows of the channels not yet tried; returns every row of the alert. */
  async deliveries(alertId: string, channels: string[]): Promise<AlertDeliveryRow[]> {
    await this.pool.query(
      `INSERT INTO alert_delivery (alert_id, channel) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [alertId, channels],
    );
    const { rows } = await this.pool.query<AlertDeliveryRow>(
      `SELECT channel, status, attempts, last_error AS "lastError", last_attempt_at AS "lastAttemptAt",
              delivered_at AS "deliveredAt"
       FROM alert_delivery WHERE alert_id = $1 ORDER BY channel`,
      [alertId],
    );
    return rows;
  }

  /** Records one attempt on one channel. */
  async recordAttempt(
    alertId: string,
    channel: string,
    outcome: 'delivered' | 'retrying' | 'failed',
    error?: string,
  ): Promise<void> {
    await this.pool.query(
      `UPDATE alert_delivery SET status = $3, attempts = attempts + 1, last_attempt_at = now(),
         last_error = COALESCE($4, last_error), delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END
       WHERE alert_id = $1 AND channel = $2`,
      [alertId, channel, outcome, error?.slice(0, 500) ?? null],
    );
  }

  /** Gives up on the channels still retrying (the job ran out of attempts). */
  async giveUp(alertId: string): Promise<void> {
    await this.pool.query(
      `UPDATE alert_delivery SET status = 'failed' WHERE alert_id = $1 AND status IN ('pending', 'retrying')`,
      [alertId],
    );
  }

  /** Marks the alert done: every channel delivered or given up. */
  async settle(alertId: string): Promise<void> {
    await this.pool.query('UPDATE alert SET settled_at = now() WHERE id = $1 AND settled_at IS NULL', [
      alertId,
    ]);
  }

  /**
   * Alerts not settled, raised between `maxAgeMs` and `minAgeMs` ago: those whose
   * job may have been lost (a crash between the commit and the enqueue).
   */
  async unsettled(minAgeMs: number, maxAgeMs: number, limit = 500): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM alert WHERE settled_at IS NULL
         AND created_at < now() - make_interval(secs => $1) AND created_at > now() - make_interval(secs => $2)
       ORDER BY created_at LIMIT $3`,
      [minAgeMs / 1000, maxAgeMs / 1000, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Deliveries that failed at least once and are not delivered, per channel (last 7 days). */
  async failingByChannel(): Promise<{ channel: string; failing: number }[]> {
    const { rows } = await this.pool.query(
      `SELECT channel, count(*)::int AS failing FROM alert_delivery
       WHERE status IN ('retrying', 'failed') AND created_at > now() - interval '7 days' GROUP BY channel`,
    );
    return rows;
  }
}
