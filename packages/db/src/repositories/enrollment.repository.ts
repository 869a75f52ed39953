import { addressHash, DomainError, type EnrollmentStatus, type LiveEnrollmentOf } from '@touchbase/core';
import type pg from 'pg';
import { type DryRunPerson, dryRunPeopleOf } from './dry-run-people.queries.js';
import { ENROLLMENT_COLUMNS as COLUMNS, type EnrollmentRow, type EnrollResult } from './enrollment.rows.js';
import { type EnrollInput, enrollProspects, liveEnrollmentsOf } from './enrollment-admission.js';
import { enrollmentFunnel, type NodeFunnelRow, nodeFunnel } from './enrollment-funnel.queries.js';
import { LIVE_STATUSES_SQL, stopProspectsSql } from './enrollment-stop.sql.js';

export type { DryRunPerson } from './dry-run-people.queries.js';
export {
  type EnrollmentRow,
  type EnrollRefusal,
  type EnrollResult,
  HELD_FOR_DOMAIN_PAUSE,
} from './enrollment.rows.js';
export { LIVE_STATUSES_SQL, stopProspectsSql } from './enrollment-stop.sql.js';

/** The sha-256 kept in place of an erased address (core's `addressHash`). */
export const emailHash = addressHash;

/** Enrollments: creation (with the suppression and domain checks), reads, stops. */
export class EnrollmentRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Enrolls prospects on the latest version of a sequence, in one transaction
   * (enrollment-admission.ts: suppression, cooldown, exclusivity, a paused domain).
   * @throws DomainError `domain_paused` / `mailbox_paused` when the mailbox may not take new enrollments.
   */
  enroll(input: EnrollInput): Promise<EnrollResult> {
    return enrollProspects(this.pool, input);
  }

  /** The live enrollments of each prospect, with whether their sequence is exclusive (what exclusivity decides from). */
  liveEnrollmentsOf(prospectIds: string[]): Promise<Map<string, LiveEnrollmentOf[]>> {
    return liveEnrollmentsOf(this.pool, prospectIds);
  }

  /**
   * A dry run's people, read only: prospects by id or address and addresses that are no
   * prospect, with what enrolling would refuse them for (suppressed, cooling off) by the
   * query and rule enrollment uses, whether they were ever enrolled in `sequenceId`
   * (enrolling refuses them again), their company and last touch (dry-run-people.queries.ts).
   */
  dryRunPeople(
    prospectIds: readonly string[],
    addresses: readonly string[],
    now: Date,
    sequenceId: string | null = null,
  ): Promise<Map<string, DryRunPerson>> {
    return dryRunPeopleOf(this.pool, prospectIds, addresses, now, sequenceId);
  }

  async get(id: string): Promise<EnrollmentRow> {
    const { rows } = await this.pool.query<EnrollmentRow>(`SELECT ${COLUMNS} FROM enrollment WHERE id = $1`, [
      id,
    ]);
    if (!rows[0]) throw new DomainError('not_found', 'enrollment not found', { enrollmentId: id });
    return rows[0];
  }

  async list(
    filter: { status?: EnrollmentStatus; sequenceId?: string; prospectId?: string },
    limit: number,
    after?: string,
  ) {
    const { rows } = await this.pool.query<EnrollmentRow>(
      `SELECT ${COLUMNS} FROM enrollment
       WHERE ($1::text IS NULL OR status::text = $1) AND ($2::uuid IS NULL OR sequence_id = $2)
         AND ($3::uuid IS NULL OR prospect_id = $3) AND ($4::uuid IS NULL OR id > $4)
       ORDER BY id LIMIT $5`,
      [filter.status ?? null, filter.sequenceId ?? null, filter.prospectId ?? null, after ?? null, limit],
    );
    return rows;
  }

  /** Active enrollments in id order, a page at a time, for the reconciler. */
  async activePage(
    after: string | null,
    limit: number,
  ): Promise<{ id: string; currentStep: number; currentAttempt: number; nextTouchAt: Date | null }[]> {
    const { rows } = await this.pool.query(
      `SELECT id, current_step AS "currentStep", current_attempt AS "currentAttempt", next_touch_at AS "nextTouchAt"
       FROM enrollment
       WHERE status = 'active' AND ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return rows;
  }

  /**
   * Touches left in doubt (`sending`: claimed, never recorded) whose enrollment has
   * moved on: it ended, or it is at another step or attempt. Nothing runs for
   * them unless their job still exists; the reconciler gives them one back, and
   * the sender settles them from the provider's answer. Touches claimed after
   * `claimedBefore` are left alone (a sender may still be handing them over).
   */
  async strandedInDoubt(
    claimedBefore: Date,
    limit: number,
  ): Promise<{ enrollmentId: string; step: number; attempt: number }[]> {
    const { rows } = await this.pool.query(
      `SELECT t.enrollment_id AS "enrollmentId", t.step, t.attempt
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE t.status = 'sending' AND t.created_at < $1
         AND (e.status <> 'active' OR e.current_step <> t.step OR e.current_attempt <> t.attempt)
       ORDER BY t.created_at LIMIT $2`,
      [claimedBefore, limit],
    );
    return rows;
  }

  /**
   * Ends every live enrollment of a prospect (all sequences) with `status`. The
   * rows are locked in id order, as the sender's batched claim locks them, so the
   * two serialise and never deadlock.
   *
   * Providers deliver out of order: a reply that happened before the bounce that
   * ended the sequence arrives after it. With `occurredAt`, the earliest stopping
   * event decides, so the end state is the one in-order delivery gives: an end set
   * by a later event is restated (terminal to terminal: nothing is sent again; a
   * manual cancel has no event time and stays), and so is an enrollment that ran out
   * of steps after the event happened (a late or recovered webhook). One statement
   * does both, over the rows as they are once locked, so a stop committed by another
   * event meanwhile is seen and restated too.
   * @returns the stopped enrollments with the step whose job is pending.
   */
  async stopForProspect(
    client: pg.PoolClient | pg.Pool,
    prospectId: string,
    status: EnrollmentStatus,
    reason: string,
    occurredAt?: Date,
    keep: string[] = [],
  ): Promise<{ id: string; currentStep: number; currentAttempt: number }[]> {
    if (keep.length > 0) {
      // Some sequences go on after this reply (their reply actions): they are left out.
      const { rows } = await client.query<{ id: string; currentStep: number; currentAttempt: number }>(
        `WITH target AS (
           SELECT $1::uuid AS prospect_id, $2::"EnrollmentStatus" AS status, $3::text AS reason, $4::timestamptz AS at, 1 AS ord),
         ${stopProspectsSql('target', '$5::uuid[]')}
         SELECT id, "currentStep", "currentAttempt" FROM stopped WHERE live`,
        [prospectId, status, reason, occurredAt ?? null, keep],
      );
      return rows;
    }
    // Named (prepared once per connection): ingest's hot path for every reply and bounce.
    const { rows } = await client.query<{ id: string; currentStep: number; currentAttempt: number }>({
      name: 'enrollment-stop-for-prospect',
      text: `WITH target AS (
         SELECT $1::uuid AS prospect_id, $2::"EnrollmentStatus" AS status, $3::text AS reason, $4::timestamptz AS at, 1 AS ord),
       ${stopProspectsSql('target')}
       SELECT id, "currentStep", "currentAttempt" FROM stopped WHERE live`,
      values: [prospectId, status, reason, occurredAt ?? null],
    });
    return rows;
  }

  /** Ends one live enrollment (a manual cancel). */
  async stop(
    id: string,
    status: EnrollmentStatus,
    reason: string,
  ): Promise<{ id: string; currentStep: number; currentAttempt: number } | null> {
    const { rows } = await this.pool.query(
      `UPDATE enrollment SET status = $2, stop_reason = $3, next_touch_at = NULL, updated_at = now()
       WHERE id = $1 AND status IN ${LIVE_STATUSES_SQL}
       RETURNING id, current_step AS "currentStep", current_attempt AS "currentAttempt"`,
      [id, status, reason],
    );
    return rows[0] ?? null;
  }

  /** Funnel counts for one sequence (or all). */
  funnel(
    sequenceId?: string,
  ): Promise<{ enrolled: number; byStatus: Record<string, number>; sentByStep: Record<string, number> }> {
    return enrollmentFunnel(this.pool, sequenceId);
  }

  /** The funnel per node of a sequence's graph, per version (enrollment-funnel.queries.ts). */
  nodeFunnel(sequenceId: string): Promise<NodeFunnelRow[]> {
    return nodeFunnel(this.pool, sequenceId);
  }
}
