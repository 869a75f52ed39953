import type { ContactCounts, ContactHold } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';

/** The touches that reached (or may have reached) the recipient: claimed, sent, or in doubt. */
export const TOUCHED = `t.status IN ('sending', 'sent', 'unknown')`;

/** One touch about to go, and which of its counts its sequence's policies use. */
export type ContactCheck = {
  enrollmentId: string;
  step: number;
  attempt: number;
  /** The touch's idempotency key: its slot in the day caps. */
  touchKey: string;
  prospectId: string;
  sequenceId: string;
  companyDomain: string | null;
  /** The start of today in the mailbox's zone: the day the caps count. */
  dayStart: Date;
  needs: { lastContact: boolean; firstTouchesToday: boolean; domainTouchesToday: boolean };
};

/**
 * The counts core's contact policies (`contactHold`) decide from, and what follows
 * the decision, in one transaction: a touch that may go takes its slots in the day
 * caps (`contact_slot`), a touch held has its enrollment moved to the end of the
 * hold with the policy recorded (the waiting reason). The caps' scopes are locked
 * (advisory, in a fixed order) for the transaction, so touches checked at the same
 * moment count each other and never pass a cap. The decision is core's (`decide`).
 */
export class ContactPolicyRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * An erased person's day-cap slots (their keys, `{enrollmentId}-{step}...`, name
   * the person's enrollments), in
   * the erasure's transaction, before the enrollments go with the prospect.
   */
  async forget(client: pg.PoolClient, prospectId: string): Promise<void> {
    await client.query(
      `DELETE FROM contact_slot s USING enrollment e
       WHERE e.prospect_id = $1 AND s.touch_key LIKE e.id::text || '-%'`,
      [prospectId],
    );
  }

  /** @returns the hold, or null when the touch may go (its slots are then taken). */
  async check(
    input: ContactCheck,
    decide: (counts: ContactCounts) => ContactHold | null,
  ): Promise<ContactHold | null> {
    const scopes: string[] = [];
    if (input.needs.firstTouchesToday) scopes.push(`sequence:${input.sequenceId}`);
    if (input.needs.domainTouchesToday && input.companyDomain) scopes.push(`domain:${input.companyDomain}`);
    scopes.sort();
    return inTransaction(this.pool, async (client) => {
      for (const scope of scopes) {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `contact_slot:${scope}:${input.dayStart.toISOString()}`,
        ]);
      }
      const counts = await this.counts(client, input);
      const hold = decide(counts);
      if (hold) {
        await client.query(
          `UPDATE enrollment SET next_touch_at = $5, policy_hold = $4, policy_hold_until = $5, updated_at = now()
           WHERE id = $1 AND status = 'active' AND current_step = $2 AND current_attempt = $3`,
          [input.enrollmentId, input.step, input.attempt, hold.reason, hold.until],
        );
      } else if (scopes.length > 0) {
        await client.query(
          `INSERT INTO contact_slot (scope, day_start, touch_key) SELECT unnest($1::text[]), $2, $3
           ON CONFLICT DO NOTHING`,
          [scopes, input.dayStart, input.touchKey],
        );
      }
      return hold;
    });
  }

  /**
   * The counts asked for (the others come back as 0 or null). A day cap counts the
   * slots taken today and the touches of today (by their idempotency key, so a touch
   * is counted once): touches of sequences without the cap, or sent before it was
   * turned on, count too. This touch itself is never counted.
   */
  private async counts(client: pg.PoolClient, input: ContactCheck): Promise<ContactCounts> {
    const { rows } = await client.query<{ last: Date | null; first: string | null; domain: string | null }>(
      `SELECT
         CASE WHEN $4 THEN (
           SELECT max(COALESCE(t.sent_at, t.created_at)) FROM enrollment e JOIN touch_fact t ON t.enrollment_id = e.id
           WHERE e.prospect_id = $2 AND e.id <> $1 AND ${TOUCHED}) END AS last,
         CASE WHEN $5 THEN (SELECT count(*) FROM (
           SELECT touch_key FROM contact_slot WHERE scope = 'sequence:' || $3::text AND day_start = $8 AND touch_key <> $9
           UNION
           SELECT t.idempotency_key FROM enrollment e JOIN touch t ON t.enrollment_id = e.id
           WHERE e.sequence_id = $3::uuid AND t.step = 1 AND t.attempt = 1 AND ${TOUCHED}
             AND COALESCE(t.sent_at, t.created_at) >= $8 AND t.idempotency_key <> $9) AS x) END AS first,
         CASE WHEN $6 AND $7::text IS NOT NULL THEN (SELECT count(*) FROM (
           SELECT touch_key FROM contact_slot WHERE scope = 'domain:' || $7::text AND day_start = $8 AND touch_key <> $9
           UNION
           SELECT t.idempotency_key FROM prospect p JOIN enrollment e ON e.prospect_id = p.id JOIN touch t ON t.enrollment_id = e.id
           WHERE p.company_domain = $7::text AND ${TOUCHED}
             AND COALESCE(t.sent_at, t.created_at) >= $8 AND t.idempotency_key <> $9) AS x) END AS domain`,
      [
        input.enrollmentId,
        input.prospectId,
        input.sequenceId,
        input.needs.lastContact,
        input.needs.firstTouchesToday,
        input.needs.domainTouchesToday,
        input.companyDomain,
        input.dayStart,
        input.touchKey,
      ],
    );
    const r = rows[0];
    return {
      lastContactAt: r?.last ?? null,
      firstTouchesToday: Number(r?.first ?? 0),
      domainTouchesToday: r?.domain === null || r?.domain === undefined ? null : Number(r.domain),
    };
  }
}
