import type { ColleagueDecision, ColleagueEnrollments, SequencePoliciesText } from '@touchbase/core';
import type { EnrollmentStep } from '@touchbase/use-cases';
import type pg from 'pg';
import { LIVE_STATUSES_SQL } from './enrollment-stop.sql.js';

const STEP = `id, current_step AS "currentStep", current_attempt AS "currentAttempt"`;

/**
 * Company-level stop, persisted: finds a person's colleagues' live enrollments (same
 * company domain) and ends or pauses the ones core decided, inside the transaction of
 * the reply that caused it. Decides nothing.
 */
export class CompanyStopRepository {
  /**
   * The live enrollments of the prospect's colleagues (same `company_domain`, another
   * person), one row per sequence with its stored policies (read once, not once per
   * colleague). Not locked: most replies change no colleague, and locking a whole
   * company on every reply would serialise (and deadlock) replies from one domain;
   * `apply` locks the ones it changes.
   */
  async liveColleagueEnrollments(
    client: pg.PoolClient,
    prospectId: string,
    sequenceIds: readonly string[],
  ): Promise<ColleagueEnrollments[]> {
    // Named (prepared once per connection): every reply asks it when company stops are on.
    const { rows } = await client.query<ColleagueEnrollments>({
      name: 'company-stop-live-colleagues',
      text: `SELECT s.policies AS "sequencePolicies", array_agg(e.id::text ORDER BY e.id) AS "enrollmentIds"
       FROM prospect me
       JOIN prospect p ON p.company_domain = me.company_domain AND p.id <> me.id
       JOIN enrollment e ON e.prospect_id = p.id AND e.status IN ${LIVE_STATUSES_SQL}
         AND e.sequence_id = ANY($2::uuid[])
       JOIN sequence s ON s.id = e.sequence_id
       WHERE me.id = $1 AND me.company_domain IS NOT NULL
       GROUP BY s.id
       ORDER BY s.id`,
      values: [prospectId, sequenceIds],
    });
    return rows;
  }

  /** Every sequence's id and stored policies as JSON text (core parses each distinct text once). */
  async sequencePolicies(client: pg.PoolClient): Promise<SequencePoliciesText[]> {
    const { rows } = await client.query<SequencePoliciesText>({
      name: 'company-stop-sequence-policies',
      text: 'SELECT id::text, policies::text AS policies FROM sequence',
    });
    return rows;
  }

  /**
   * Ends (as `cancelled`) or pauses until the given time the colleagues' enrollments
   * core decided on, with `reason` as their `stop_reason`. A pause takes only an
   * active enrollment (one already paused keeps its own reason and date).
   * @returns the enrollments changed, whose pending jobs are to be removed.
   */
  async apply(
    client: pg.PoolClient,
    decisions: ColleagueDecision[],
    reason: string,
  ): Promise<EnrollmentStep[]> {
    const ends = decisions.filter((d) => d.action === 'end').map((d) => d.enrollmentId);
    const pauses = decisions.flatMap((d) => (d.action === 'pause' ? [d] : []));
    const changed: EnrollmentStep[] = [];
    if (decisions.length === 0) return changed;
    // Locked in id order, as the sender's claim and the other stops lock: a touch
    // claimed after this commit is fenced. The updates re-check each status once locked.
    await client.query('SELECT id FROM enrollment WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [
      decisions.map((d) => d.enrollmentId),
    ]);
    if (ends.length > 0) {
      const { rows } = await client.query<EnrollmentStep>(
        `UPDATE enrollment SET status = 'cancelled', stop_reason = $2, next_touch_at = NULL, updated_at = now()
         WHERE id = ANY($1::uuid[]) AND status IN ${LIVE_STATUSES_SQL}
         RETURNING ${STEP}`,
        [ends, reason],
      );
      changed.push(...rows);
    }
    if (pauses.length > 0) {
      const { rows } = await client.query<EnrollmentStep>(
        `UPDATE enrollment e SET status = 'paused', stop_reason = $3, next_touch_at = u.until, updated_at = now()
         FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, until)
         WHERE e.id = u.id AND e.status = 'active'
         RETURNING e.id, e.current_step AS "currentStep", e.current_attempt AS "currentAttempt"`,
        [pauses.map((p) => p.enrollmentId), pauses.map((p) => p.until), reason],
      );
      changed.push(...rows);
    }
    return changed;
  }
}
