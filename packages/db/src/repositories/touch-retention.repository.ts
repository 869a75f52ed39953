import { RETIRABLE_TOUCH_STATUSES, TOUCH_RETIRABLE_ENROLLMENT_STATUSES } from '@touchbase/core';
import type pg from 'pg';

/**
 * The touch retention's store (docs/scaling.md#the-touch-table): moves touches of
 * enrollments that ended before the cutoff into `touch_archive`, which the readers of
 * ended enrollments' touches see through the view `touch_fact`.
 */
export class TouchRetentionRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Archives up to `limit` touches made before `cutoff` whose enrollment ended before
   * it (its last change is older than the cutoff), in one statement: the delete and the
   * archive insert commit together, so a reader finds each touch in one of the two.
   * Rows another run holds are skipped. Answers how many were archived (0: done).
   */
  async archiveBatch(cutoff: Date, limit: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `WITH picked AS (
         SELECT t.id FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
         WHERE e.status::text = ANY($2::text[]) AND e.updated_at < $1
           AND t.status::text = ANY($3::text[]) AND COALESCE(t.sent_at, t.created_at) < $1
         LIMIT $4 FOR UPDATE OF t SKIP LOCKED),
       moved AS (
         DELETE FROM touch t USING picked p WHERE t.id = p.id
         RETURNING t.enrollment_id, t.step, t.attempt, t.status, t.provider_message_id, t.created_at,
                   t.sent_at, t.variant, t.sequence_version_id),
       archived AS (
         INSERT INTO touch_archive (enrollment_id, step, attempt, status, provider_message_id, created_at,
                                    sent_at, variant, sequence_version_id)
         -- No ON CONFLICT: a touch already archived cannot be live again; if one were, the
         -- statement fails and nothing is deleted.
         SELECT * FROM moved RETURNING 1)
       SELECT (SELECT count(*) FROM moved)::int AS n`,
      [cutoff, TOUCH_RETIRABLE_ENROLLMENT_STATUSES, RETIRABLE_TOUCH_STATUSES, limit],
    );
    return rows[0]?.n ?? 0;
  }
}
