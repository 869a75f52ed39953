import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/** A CRM update waiting to be delivered. */
export type CrmNotificationRow = {
  id: string;
  eventId: string;
  prospectId: string | null;
  email: string;
  kind: string;
  attempts: number;
};

/**
 * The CRM outbox: a hard bounce writes its "tell the CRM" row in the event's
 * transaction, so the update survives a crash between the commit and the call;
 * a notifier delivers rows after the commit and retries them with backoff.
 */
export class CrmOutboxRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Queues a notification in the caller's transaction; once per (event, kind). */
  async enqueue(
    client: pg.PoolClient,
    n: { eventId: string; prospectId: string | null; email: string; kind: string },
  ): Promise<boolean> {
    const r = await client.query(
      `INSERT INTO crm_notification (id, event_id, prospect_id, email, kind) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (event_id, kind) DO NOTHING`,
      [randomUUID(), n.eventId, n.prospectId, n.email, n.kind],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /**
   * Takes up to `limit` due notifications and leases them for `leaseMs` (their next
   * attempt moves past the lease), so two notifiers never deliver the same row at once.
   */
  async take(limit: number, leaseMs: number): Promise<CrmNotificationRow[]> {
    const { rows } = await this.pool.query<CrmNotificationRow>(
      `UPDATE crm_notification SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $2::float / 1000)
       WHERE id IN (SELECT id FROM crm_notification WHERE status = 'pending' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, event_id AS "eventId", prospect_id AS "prospectId", email, kind, attempts`,
      [limit, leaseMs],
    );
    return rows;
  }

  async done(id: string, outcome: 'done' | 'failed', error?: string): Promise<void> {
    await this.pool.query(
      `UPDATE crm_notification SET status = $2, done_at = now(), last_error = $3 WHERE id = $1`,
      [id, outcome, error?.slice(0, 500) ?? null],
    );
  }

  async retryLater(id: string, delayMs: number, error: string): Promise<void> {
    await this.pool.query(
      `UPDATE crm_notification SET next_attempt_at = now() + make_interval(secs => $2::float / 1000), last_error = $3
       WHERE id = $1`,
      [id, delayMs, error.slice(0, 500)],
    );
  }

  /** Drops what an erased person left in the outbox (it holds their address). */
  async forget(client: pg.PoolClient, prospectId: string, email: string): Promise<void> {
    await client.query('DELETE FROM crm_notification WHERE prospect_id = $1 OR email = $2', [
      prospectId,
      email,
    ]);
  }

  async list(limit = 100): Promise<(CrmNotificationRow & { status: string; lastError: string | null })[]> {
    const { rows } = await this.pool.query(
      `SELECT id, event_id AS "eventId", prospect_id AS "prospectId", email, kind, attempts, status, last_error AS "lastError"
       FROM crm_notification ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows;
  }
}
