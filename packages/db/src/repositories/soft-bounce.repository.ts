import {
  type CanonicalEvent,
  RESENDABLE_TOUCH_STATUSES,
  type SendingWindow,
  SOFT_BOUNCE_STREAK_BREAKERS,
} from '@touchbase/core';
import type { BouncedTouchRow, EventTarget, ResendContextRow } from '@touchbase/use-cases';
import type pg from 'pg';
import { sqlList } from './enrollment-stop.sql.js';

/** Soft bounces: the streak read from the event log, and the resend of the bounced touch. */
export class SoftBounceRepository {
  /**
   * Soft bounces of this prospect since the last sign the address works (core's
   * `SOFT_BOUNCE_STREAK_BREAKERS`) or the last hard bounce.
   */
  async inARow(client: pg.PoolClient, prospectId: string): Promise<number> {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event
       WHERE prospect_id = $1 AND type = 'bounce' AND payload->'bounce'->>'hard' = 'false'
         AND seq > COALESCE((SELECT max(seq) FROM event WHERE prospect_id = $1
           AND (type IN ${sqlList(SOFT_BOUNCE_STREAK_BREAKERS)}
                OR (type = 'bounce' AND payload->'bounce'->>'hard' = 'true'))), 0)`,
      [prospectId],
    );
    return rows[0]?.n ?? 0;
  }

  /** The bounced touch: by our message id, else the last touch handed over in the enrollment the event names. */
  async bouncedTouch(
    client: pg.PoolClient,
    event: CanonicalEvent,
    target: EventTarget,
  ): Promise<BouncedTouchRow | null> {
    if (event.messageId) {
      const r = await client.query<BouncedTouchRow>(
        `SELECT t.enrollment_id AS "enrollmentId", t.step, t.attempt, t.status::text AS status
         FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
         WHERE t.provider_message_id = $1 AND e.prospect_id = $2 LIMIT 1`,
        [event.messageId, target.prospectId],
      );
      if (r.rows[0]) return r.rows[0];
    }
    if (event.enrollmentId && target.enrollmentId === event.enrollmentId) {
      const r = await client.query<BouncedTouchRow>(
        `SELECT enrollment_id AS "enrollmentId", step, attempt, status::text AS status FROM touch
         WHERE enrollment_id = $1 AND status IN ${sqlList(RESENDABLE_TOUCH_STATUSES)} ORDER BY step DESC, attempt DESC LIMIT 1`,
        [target.enrollmentId],
      );
      if (r.rows[0]) return r.rows[0];
    }
    return null;
  }

  /** Locks the enrollment (as a sender's claim does) and reads its position and sending window. */
  async lockForResend(client: pg.PoolClient, enrollmentId: string): Promise<ResendContextRow | null> {
    const { rows } = await client.query<ResendContextRow & { sendingWindow: SendingWindow | null }>(
      `SELECT e.status::text AS status, e.current_step AS "currentStep", e.current_attempt AS "currentAttempt",
              e.waiting_node AS "waitingNode", p.timezone AS "prospectTimeZone", p.attributes AS "prospectAttributes",
              m.timezone AS "mailboxTimeZone",
              m.window_days AS "windowDays", m.window_start AS "windowStart", m.window_end AS "windowEnd",
              m.holidays, s.sending_window AS "sendingWindow"
       FROM enrollment e JOIN prospect p ON p.id = e.prospect_id JOIN mailbox m ON m.id = e.mailbox_id
       JOIN sequence s ON s.id = e.sequence_id
       WHERE e.id = $1 FOR UPDATE OF e`,
      [enrollmentId],
    );
    return rows[0] ?? null;
  }

  /** Whether a touch after (step, attempt) exists, read after the lock (a claim committed before it is seen). */
  async laterTouchExists(
    client: pg.PoolClient,
    enrollmentId: string,
    step: number,
    attempt: number,
  ): Promise<boolean> {
    const later = await client.query(
      // In a graph a later touch may be of a lower node number: created after this one.
      `SELECT 1 FROM touch t WHERE t.enrollment_id = $1 AND (t.step > $2 OR (t.step = $2 AND t.attempt > $3)
         OR t.created_at > (SELECT b.created_at FROM touch b WHERE b.enrollment_id = $1 AND b.step = $2 AND b.attempt = $3))
       LIMIT 1`,
      [enrollmentId, step, attempt],
    );
    return (later.rowCount ?? 0) > 0;
  }

  /** Moves the enrollment back to `step` at `attempt`, due at `nextTouchAt`; a first step starts a new thread. */
  async moveToResend(
    client: pg.PoolClient,
    enrollmentId: string,
    step: number,
    attempt: number,
    nextTouchAt: Date,
    nextTouchUnfittedAt: Date | null = null,
  ): Promise<void> {
    await client.query(
      `UPDATE enrollment SET current_step = $2, current_attempt = $3, next_touch_at = $4::timestamptz, updated_at = now(),
         next_touch_unfitted_at = $5, next_touch_fitted_at = CASE WHEN $5::timestamptz IS NULL THEN NULL ELSE $4::timestamptz END,
         conversation_id = CASE WHEN $2 = 1 THEN NULL ELSE conversation_id END,
         first_message_id = CASE WHEN $2 = 1 THEN NULL ELSE first_message_id END
       WHERE id = $1`,
      [enrollmentId, step, attempt, nextTouchAt, nextTouchUnfittedAt],
    );
  }
}
