import { randomUUID } from 'node:crypto';
import type { EnrollmentStatus } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { emailHash } from './enrollment.repository.js';

/** Everything the sender needs to decide on and send one touch, in one read. */
export type SendContext = {
  enrollmentId: string;
  status: EnrollmentStatus;
  currentStep: number;
  sequenceId: string;
  sequenceVersionId: string;
  conversationId: string | null;
  firstMessageId: string | null;
  prospect: {
    id: string;
    email: string;
    emailStatus: string;
    firstName: string | null;
    lastName: string | null;
    company: string | null;
    timezone: string | null;
    attributes: Record<string, string>;
  };
  mailbox: { id: string; address: string; provider: string; status: string; timezone: string; windowDays: number[]; windowStart: string; windowEnd: string };
  domain: { id: string; domain: string; status: string };
  nextTouchAt: Date | null;
};

/** The outcome of a claim: the touch is ours to send, ours to resolve, already settled, or fenced off. */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_doubt' }
  | { kind: 'settled'; status: string }
  | { kind: 'fenced' }
  | { kind: 'suppressed' };

/** Touch rows and the enrollment updates that go with them; the sender's hot path. */
export class TouchRepository {
  constructor(private readonly pool: pg.Pool) {}

  async loadForSend(enrollmentId: string): Promise<SendContext | null> {
    const { rows } = await this.pool.query(
      `SELECT e.id, e.status, e.current_step, e.sequence_id, e.sequence_version_id, e.conversation_id, e.first_message_id,
              e.next_touch_at,
              p.id AS p_id, p.email, p.email_status, p.first_name, p.last_name, p.company, p.timezone AS p_tz, p.attributes,
              m.id AS m_id, m.address, m.provider, m.status AS m_status, m.timezone AS m_tz, m.window_days, m.window_start, m.window_end,
              d.id AS d_id, d.domain, d.status AS d_status
       FROM enrollment e JOIN prospect p ON p.id = e.prospect_id
       JOIN mailbox m ON m.id = e.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
       WHERE e.id = $1`,
      [enrollmentId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      enrollmentId: r.id,
      status: r.status,
      currentStep: r.current_step,
      sequenceId: r.sequence_id,
      sequenceVersionId: r.sequence_version_id,
      conversationId: r.conversation_id,
      firstMessageId: r.first_message_id,
      nextTouchAt: r.next_touch_at,
      prospect: {
        id: r.p_id,
        email: r.email,
        emailStatus: r.email_status,
        firstName: r.first_name,
        lastName: r.last_name,
        company: r.company,
        timezone: r.p_tz,
        attributes: r.attributes ?? {},
      },
      mailbox: {
        id: r.m_id,
        address: r.address,
        provider: r.provider,
        status: r.m_status,
        timezone: r.m_tz,
        windowDays: r.window_days,
        windowStart: r.window_start,
        windowEnd: r.window_end,
      },
      domain: { id: r.d_id, domain: r.domain, status: r.d_status },
    };
  }

  /**
   * Claims touch `step` of an enrollment: the reply fence. The conditional UPDATE
   * locks the enrollment row, so it serialises with ingest's status change: once
   * ingest has committed a reply, this sees it and refuses. The suppression list is
   * read under the same lock, and the touch row (unique per enrollment and step) is
   * written before the provider is called, so a crash leaves a trace: "in doubt".
   */
  async claim(enrollmentId: string, step: number, idempotencyKey: string, email: string): Promise<Claim> {
    return inTransaction(this.pool, async (client) => {
      const locked = await client.query(
        `UPDATE enrollment SET updated_at = now() WHERE id = $1 AND status = 'active' AND current_step = $2 RETURNING id`,
        [enrollmentId, step],
      );
      if (locked.rowCount === 0) return { kind: 'fenced' } as const;
      const existing = await client.query<{ status: string }>(
        'SELECT status FROM touch WHERE enrollment_id = $1 AND step = $2',
        [enrollmentId, step],
      );
      const found = existing.rows[0];
      if (found) return found.status === 'sending' ? ({ kind: 'in_doubt' } as const) : ({ kind: 'settled', status: found.status } as const);
      const sup = await client.query(
        `SELECT 1 FROM suppression WHERE (kind = 'email' AND value = $1) OR (kind = 'domain' AND value = $2) OR (kind = 'hash' AND value = $3) LIMIT 1`,
        [email, email.split('@')[1] ?? '', emailHash(email)],
      );
      if ((sup.rowCount ?? 0) > 0) {
        await client.query(
          `UPDATE enrollment SET status = 'cancelled', stop_reason = 'suppressed', next_touch_at = NULL, updated_at = now() WHERE id = $1`,
          [enrollmentId],
        );
        return { kind: 'suppressed' } as const;
      }
      await client.query(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key) VALUES ($1, $2, $3, 'sending', $4)`,
        [randomUUID(), enrollmentId, step, idempotencyKey],
      );
      return { kind: 'claimed' } as const;
    });
  }

  /**
   * Records an accepted touch and moves the enrollment to the next step, in one
   * transaction. The enrollment only advances if it is still active at this step: a
   * reply that arrived while the provider was being called keeps its status.
   * @returns whether the enrollment advanced (and so needs its next job).
   */
  async recordSent(input: {
    enrollmentId: string;
    step: number;
    messageId: string;
    conversationId: string;
    nextTouchAt: Date;
    status?: 'sent' | 'unknown';
  }): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await client.query(
        `UPDATE touch SET status = $3, provider_message_id = $4, sent_at = now() WHERE enrollment_id = $1 AND step = $2`,
        [input.enrollmentId, input.step, input.status ?? 'sent', input.messageId || null],
      );
      const adv = await client.query(
        `UPDATE enrollment SET current_step = $2 + 1, next_touch_at = $3, updated_at = now(),
           conversation_id = COALESCE(conversation_id, $4), first_message_id = COALESCE(first_message_id, $5)
         WHERE id = $1 AND current_step = $2 AND status = 'active'`,
        [input.enrollmentId, input.step, input.nextTouchAt, input.conversationId || null, input.messageId || null],
      );
      return (adv.rowCount ?? 0) > 0;
    });
  }

  /** The step after the last: the sequence ran out without an answer. */
  async exhaust(enrollmentId: string, step: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE enrollment SET status = 'exhausted', stop_reason = 'exhausted', next_touch_at = NULL, updated_at = now()
       WHERE id = $1 AND status = 'active' AND current_step = $2`,
      [enrollmentId, step],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** A permanent refusal: the touch and its enrollment fail with the provider's reason. */
  async fail(enrollmentId: string, step: number, reason: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(`UPDATE touch SET status = 'failed', error = $3 WHERE enrollment_id = $1 AND step = $2`, [
        enrollmentId,
        step,
        reason,
      ]);
      await client.query(
        `UPDATE enrollment SET status = 'failed', stop_reason = $3, next_touch_at = NULL, updated_at = now()
         WHERE id = $1 AND current_step = $2 AND status IN ('active', 'paused')`,
        [enrollmentId, step, reason.slice(0, 500)],
      );
    });
  }

  /** A fenced touch that was claimed but never handed over. */
  async cancel(enrollmentId: string, step: number, reason: string): Promise<void> {
    await this.pool.query(
      `UPDATE touch SET status = 'cancelled', error = $3 WHERE enrollment_id = $1 AND step = $2 AND status = 'sending'`,
      [enrollmentId, step, reason],
    );
  }

  /** Pauses an active enrollment at its current step, with the reason (a missing variable, say). */
  async pause(enrollmentId: string, step: number, reason: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE enrollment SET status = 'paused', stop_reason = $3, next_touch_at = NULL, updated_at = now()
       WHERE id = $1 AND status = 'active' AND current_step = $2`,
      [enrollmentId, step, reason],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** Touches per enrollment, for the timeline. */
  async forEnrollment(enrollmentId: string) {
    const { rows } = await this.pool.query(
      `SELECT step, status, idempotency_key AS "idempotencyKey", provider_message_id AS "providerMessageId",
              error, created_at AS "createdAt", sent_at AS "sentAt"
       FROM touch WHERE enrollment_id = $1 ORDER BY step`,
      [enrollmentId],
    );
    return rows;
  }
}
