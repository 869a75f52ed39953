import {
  type EnrollmentStatus,
  OUT_OF_OFFICE_REASON,
  type OwnEnrollment,
  TIMED_PAUSE_REASONS,
} from '@touchbase/core';
import type { EnrollmentStep, ResumedEnrollment } from '@touchbase/use-cases';
import type pg from 'pg';
import { LIVE_STATUSES_SQL, PAUSED_BY_OUT_OF_OFFICE_SQL, sqlList } from './enrollment-stop.sql.js';

const STEP = `id, current_step AS "currentStep", current_attempt AS "currentAttempt"`;

/** Touches of the enrollments in the uuid array `param` that a sender has claimed and not yet recorded. */
export const TOUCHES_IN_FLIGHT_SQL = (param: string) =>
  `SELECT enrollment_id AS "enrollmentId", step FROM touch WHERE enrollment_id = ANY(${param}::uuid[]) AND status = 'sending'`;

/**
 * What events do to enrollments besides stopping them (`EnrollmentRepository.stopForProspect`):
 * out-of-office pauses and their end, new threads and resumes after an address
 * change, and the touches a sender is handing over meanwhile.
 */
export class EnrollmentEffectRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Pauses the prospect's enrollments an out-of-office takes (core's `isPausedByOutOfOffice`)
   * until `until`, but those in `keep` (their sequence ignores out-of-office replies).
   */
  async pauseProspect(
    client: pg.PoolClient,
    prospectId: string,
    until: Date,
    keep: string[] = [],
  ): Promise<EnrollmentStep[]> {
    const { rows } = await client.query<EnrollmentStep>(
      `UPDATE enrollment SET status = 'paused', stop_reason = '${OUT_OF_OFFICE_REASON}', next_touch_at = $2, updated_at = now()
       WHERE prospect_id = $1 AND ${PAUSED_BY_OUT_OF_OFFICE_SQL} AND NOT (id = ANY($3::uuid[]))
       RETURNING ${STEP}`,
      [prospectId, until, keep],
    );
    return rows;
  }

  /** The prospect's live enrollments with their sequence's stored policies (not locked: the stop locks). */
  async liveEnrollments(client: pg.PoolClient, prospectId: string): Promise<OwnEnrollment[]> {
    // Named (prepared once per connection): every reply asks it when reply actions are on.
    const { rows } = await client.query<OwnEnrollment>({
      name: 'enrollment-live-with-policies',
      text: `SELECT e.id, e.status, e.stop_reason AS "stopReason", s.policies AS "sequencePolicies"
       FROM enrollment e JOIN sequence s ON s.id = e.sequence_id
       WHERE e.prospect_id = $1 AND e.status IN ${LIVE_STATUSES_SQL} ORDER BY e.created_at, e.id`,
      values: [prospectId],
    });
    return rows;
  }

  /** Nobody enrolls the person before `until`; a later date already set stays. */
  async setContactAfter(client: pg.PoolClient, prospectId: string, until: Date): Promise<void> {
    await client.query(
      `UPDATE prospect SET contact_after = GREATEST(COALESCE(contact_after, $2), $2) WHERE id = $1`,
      [prospectId, until],
    );
  }

  /** The prospect's live enrollments go on in new threads (its address changed). */
  async startNewThreads(client: pg.PoolClient, prospectId: string): Promise<void> {
    await client.query(
      `UPDATE enrollment SET conversation_id = NULL, first_message_id = NULL, updated_at = now()
       WHERE prospect_id = $1 AND status IN ${LIVE_STATUSES_SQL}`,
      [prospectId],
    );
  }

  /** Makes the prospect's enrollments in `status` active again, due now, in new threads. */
  async resumeEnded(
    client: pg.PoolClient,
    prospectId: string,
    status: EnrollmentStatus,
  ): Promise<ResumedEnrollment[]> {
    const { rows } = await client.query<ResumedEnrollment>(
      `UPDATE enrollment SET status = 'active', stop_reason = NULL, next_touch_at = now(),
         conversation_id = NULL, first_message_id = NULL, updated_at = now()
       WHERE prospect_id = $1 AND status = $2::"EnrollmentStatus"
       RETURNING ${STEP}, next_touch_at AS "nextTouchAt"`,
      [prospectId, status],
    );
    return rows;
  }

  /**
   * Ends the timed pauses whose time has come (an out-of-office, a colleague's reply,
   * an operator's pause until a date): the enrollments are active again at the step
   * where they stopped; the reconciler then gives each its job.
   */
  async resumeExpiredPauses(now: Date, limit = 5_000): Promise<ResumedEnrollment[]> {
    const { rows } = await this.pool.query<ResumedEnrollment>(
      `UPDATE enrollment SET status = 'active', stop_reason = NULL, updated_at = now()
       WHERE id IN (SELECT id FROM enrollment WHERE status = 'paused' AND stop_reason IN ${sqlList(TIMED_PAUSE_REASONS)} AND next_touch_at <= $1
                    ORDER BY next_touch_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         AND status = 'paused'
       RETURNING ${STEP}, next_touch_at AS "nextTouchAt"`,
      [now, limit],
    );
    return rows;
  }

  /** Touches of these enrollments that a sender has claimed and not yet recorded. */
  async touchesBeingSent(
    client: pg.Pool | pg.PoolClient,
    enrollments: { id: string }[],
  ): Promise<{ enrollmentId: string; step: number }[]> {
    const { rows } = await client.query<{ enrollmentId: string; step: number }>({
      name: 'event-touches-in-flight',
      text: TOUCHES_IN_FLIGHT_SQL('$1'),
      values: [enrollments.map((e) => e.id)],
    });
    return rows;
  }

  /** How many of these touches are still being handed to the provider (claimed, not yet recorded). */
  async touchesInFlight(keys: { enrollmentId: string; step: number }[]): Promise<number> {
    if (keys.length === 0) return 0;
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM touch t
       JOIN unnest($1::uuid[], $2::int[]) AS k(enrollment_id, step) ON k.enrollment_id = t.enrollment_id AND k.step = t.step
       WHERE t.status = 'sending'`,
      [keys.map((k) => k.enrollmentId), keys.map((k) => k.step)],
    );
    return rows[0]?.n ?? 0;
  }
}
