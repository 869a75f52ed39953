import {
  EVENT_END_STATUSES,
  EXHAUSTED_STATUS,
  LIVE_STATUSES,
  OUT_OF_OFFICE_REASON,
  SUPPRESSION_KINDS,
} from '@touchbase/core';

/** A list of string constants as an SQL list, `('a', 'b')`; the values are core's constants, never input. */
export function sqlList(values: readonly string[]): string {
  return `(${values.map((x) => `'${x}'`).join(', ')})`;
}

/** The live statuses (LIVE_STATUSES) as an SQL list, `('queued', 'active', 'paused')`. */
export const LIVE_STATUSES_SQL = sqlList(LIVE_STATUSES);

/**
 * Core's `isPausedByOutOfOffice` over an enrollment row `e` (its columns unqualified):
 * active, or paused by an earlier out-of-office.
 */
export const PAUSED_BY_OUT_OF_OFFICE_SQL = `(status = 'active' OR (status = 'paused' AND stop_reason = '${OUT_OF_OFFICE_REASON}'))`;

/**
 * Core's suppression matching (`suppressionKeysOf`) for the relation `s` against the
 * key expressions given: `s` matches by address, by domain or by hash.
 */
export function suppressionMatchSql(
  s: string,
  keys: { email: string; domain: string; hash: string },
): string {
  const [email, domain, hash] = SUPPRESSION_KINDS;
  return `((${s}.kind = '${email}' AND ${s}.value = ${keys.email}) OR (${s}.kind = '${domain}' AND ${s}.value = ${keys.domain})
    OR (${s}.kind = '${hash}' AND ${s}.value = ${keys.hash}))`;
}

/**
 * The common table expressions that stop prospects, for a statement that does it as
 * one of its parts. `targets` names a relation with one row per prospect to stop:
 * `prospect_id`, `status`, `reason`, `at` (the event's time, or null) and `ord`.
 * `locked` takes every enrollment of those prospects in id order; `stopped` ends the
 * live ones and restates ends set by a later event, returning `id`, `"currentStep"`,
 * `"currentAttempt"`, `live` (true for an enrollment this stopped) and the target's `ord`.
 *
 * `keep`, an SQL expression of a uuid array, names enrollments left out (they go on).
 *
 * The restate condition is core's out-of-order rule (`stopActionOf`), in SQL so the
 * whole stop stays one statement; its status lists come from core.
 */
export function stopProspectsSql(targets: string, keep?: string): string {
  // A stop or restate is decided on each row as it is once locked (a row another event
  // ended meanwhile is read as that event left it), never on the statement's snapshot.
  return `locked AS MATERIALIZED (
    SELECT en.id, w.ord, en.status IN ${LIVE_STATUSES_SQL} AS live,
      ((en.status IN ${sqlList(EVENT_END_STATUSES)} AND en.status <> w.status
        AND en.stopped_by_event_at IS NOT NULL AND en.stopped_by_event_at > w.at)
       -- Ran out of steps after the event happened (its webhook came late, or was recovered):
       -- the event would have ended it (updated_at is when it was exhausted).
       OR (en.status = '${EXHAUSTED_STATUS}' AND en.updated_at > w.at)) AS restate
    FROM enrollment en JOIN ${targets} w ON w.prospect_id = en.prospect_id${keep ? ` AND NOT (en.id = ANY(${keep}))` : ''}
    ORDER BY en.id FOR UPDATE OF en),
  stopped AS (
    UPDATE enrollment e SET status = w.status, stop_reason = w.reason,
      next_touch_at = CASE WHEN l.live THEN NULL ELSE e.next_touch_at END,
      updated_at = now(), stopped_by_event_at = w.at
    FROM locked l JOIN ${targets} w ON w.ord = l.ord
    WHERE e.id = l.id AND (l.live OR l.restate)
    RETURNING e.id, e.current_step AS "currentStep", e.current_attempt AS "currentAttempt", l.live, l.ord)`;
}
