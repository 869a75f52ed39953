import {
  type EnrollmentStatus,
  MANUAL_PAUSE_REASON,
  MANUAL_PAUSE_UNTIL_REASON,
  MISSING_VARIABLE_PREFIX,
  OUT_OF_OFFICE_REASON,
  type PauseKind,
} from '@touchbase/core';
import type pg from 'pg';
import { LIVE_STATUSES_SQL } from './enrollment-stop.sql.js';

/** Which enrollments an operator's action takes: named ones, or those matching a filter. */
export type EnrollmentSelection = {
  ids?: string[];
  sequenceId?: string;
  mailboxId?: string;
  status?: EnrollmentStatus;
  /** Paused ones only: why they are paused. */
  pausedFor?: PauseKind;
};

/** An enrollment an action changed, with the step whose job is pending (or due). */
export type ActedEnrollment = {
  id: string;
  currentStep: number;
  currentAttempt: number;
  nextTouchAt: Date | null;
};

/** What a bulk action did: how many matched, how many it changed, and whether more matched than the cap. */
export type ActionCount = { changed: ActedEnrollment[]; matched: number; capped: boolean };

const RETURNING = `RETURNING e.id, e.current_step AS "currentStep", e.current_attempt AS "currentAttempt", e.next_touch_at AS "nextTouchAt"`;

/** The `stop_reason` condition of a pause kind (core's `pauseKindOf`), for a row alias `e`. */
function pausedForSql(kind: PauseKind): string {
  switch (kind) {
    case 'manual':
      return `e.stop_reason IN ('${MANUAL_PAUSE_REASON}', '${MANUAL_PAUSE_UNTIL_REASON}')`;
    case 'out_of_office':
      return `e.stop_reason = '${OUT_OF_OFFICE_REASON}'`;
    case 'missing_variable':
      return `e.stop_reason LIKE '${MISSING_VARIABLE_PREFIX}%'`;
    case 'other':
      return `(e.stop_reason IS NULL OR (e.stop_reason NOT IN ('${MANUAL_PAUSE_REASON}', '${MANUAL_PAUSE_UNTIL_REASON}', '${OUT_OF_OFFICE_REASON}')
        AND e.stop_reason NOT LIKE '${MISSING_VARIABLE_PREFIX}%'))`;
  }
}

/**
 * An operator's pause, resume and cancel, of one enrollment or of many by a filter.
 * Each statement changes only the rows whose status allows it (the state machine,
 * which the database's transition trigger enforces too), locked in id order as the
 * sender's claim locks them, and at most `cap` of them.
 */
export class EnrollmentActionRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Pauses active enrollments: until `until` (the reconciler resumes them then) or until resumed. */
  pause(selection: EnrollmentSelection, until: Date | null, cap: number): Promise<ActionCount> {
    return this.act(
      selection,
      `status = 'active'`,
      // A timed pause keeps its end in next_touch_at, as an out-of-office does; an open one keeps the due time.
      `status = 'paused', stop_reason = $5::text, next_touch_at = COALESCE($6::timestamptz, e.next_touch_at)`,
      [until ? MANUAL_PAUSE_UNTIL_REASON : MANUAL_PAUSE_REASON, until],
      cap,
    );
  }

  /** Resumes paused enrollments at the step where they stopped, due at their due time or now, whichever is later. */
  resume(selection: EnrollmentSelection, now: Date, cap: number): Promise<ActionCount> {
    return this.act(
      selection,
      `status = 'paused'`,
      `status = 'active', stop_reason = NULL, next_touch_at = GREATEST(COALESCE(e.next_touch_at, $5::timestamptz), $5::timestamptz)`,
      [now],
      cap,
    );
  }

  /** Cancels live enrollments for good. */
  cancel(selection: EnrollmentSelection, reason: string, cap: number): Promise<ActionCount> {
    return this.act(
      selection,
      `status IN ${LIVE_STATUSES_SQL}`,
      `status = 'cancelled', stop_reason = $5::text, next_touch_at = NULL`,
      [reason],
      cap,
    );
  }

  private async act(
    selection: EnrollmentSelection,
    from: string,
    set: string,
    values: unknown[],
    cap: number,
  ): Promise<ActionCount> {
    // $1..$4 are the selection; the SET clause's values follow from $5, the cap last.
    const where = [
      `e.${from}`,
      '($1::uuid[] IS NULL OR e.id = ANY($1::uuid[]))',
      '($2::uuid IS NULL OR e.sequence_id = $2::uuid)',
      '($3::uuid IS NULL OR e.mailbox_id = $3::uuid)',
      '($4::text IS NULL OR e.status::text = $4::text)',
      ...(selection.pausedFor ? [pausedForSql(selection.pausedFor)] : []),
    ].join(' AND ');
    const capParam = `$${values.length + 5}`;
    const { rows } = await this.pool.query<ActedEnrollment & { matched: number }>(
      `WITH matched AS (SELECT count(*)::int AS n FROM enrollment e WHERE ${where}),
       picked AS (SELECT e.id FROM enrollment e WHERE ${where} ORDER BY e.id LIMIT ${capParam} FOR UPDATE),
       changed AS (UPDATE enrollment e SET ${set}, updated_at = now() FROM picked p WHERE e.id = p.id AND e.${from} ${RETURNING})
       SELECT c.*, m.n AS matched FROM matched m LEFT JOIN changed c ON true`,
      [
        selection.ids ?? null,
        selection.sequenceId ?? null,
        selection.mailboxId ?? null,
        selection.status ?? null,
        ...values,
        cap,
      ],
    );
    const matched = rows[0]?.matched ?? 0;
    const changed = rows.filter((r) => r.id !== null).map(({ matched: _m, ...r }) => r);
    return { changed, matched, capped: matched > cap };
  }
}
