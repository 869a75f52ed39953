import type { CanonicalEvent, OwnEnrollment } from '@touchbase/core';
import type pg from 'pg';
import { TOUCHES_IN_FLIGHT_SQL } from './enrollment-effect.repository.js';
import { LIVE_STATUSES_SQL } from './enrollment-stop.sql.js';
import { eventRowValues } from './event-rows.js';
import type { EnrollmentTargetRow } from './event-target.repository.js';

const FINISH_SQL =
  'UPDATE event SET applied_at = now(), outcome = $2, prospect_id = $3, enrollment_id = $4 WHERE id = $1';

/** An event as the log lists it (no payload: it holds only hashes, and timelines need none). */
export type EventRow = {
  seq: number;
  id: string;
  source: string;
  externalId: string;
  type: string;
  prospectId: string | null;
  enrollmentId: string | null;
  receivedAt: Date;
  appliedAt: Date | null;
  outcome: string | null;
  classification: string | null;
  why: string[] | null;
};

/** Which events a list shows: by prospect, type, and the time received (`from` included, `to` not). */
export type EventListFilter = { prospectId?: string; type?: string; from?: Date; to?: Date };

/**
 * The event log (`event`): each event recorded once by (source, external id) and
 * never changed after it is applied; the payload holds no address.
 */
export class EventLogRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Inserts the event, not yet applied, in the caller's transaction. @returns false when recorded before. */
  async insert(client: pg.PoolClient, id: string, event: CanonicalEvent): Promise<boolean> {
    const inserted = await client.query({
      name: 'event-insert',
      text: `INSERT INTO event (id, source, external_id, type, payload, classification, why) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (source, external_id) DO NOTHING RETURNING seq`,
      values: eventRowValues(id, event),
    });
    return (inserted.rowCount ?? 0) > 0;
  }

  /**
   * `insert`, and in the same statement the enrollment the event names with its
   * prospect (what `EventTargetRepository.resolve` reads first), or null when there is none.
   */
  async insertReadingEnrollment(
    client: pg.PoolClient,
    id: string,
    event: CanonicalEvent & { enrollmentId: string },
    /** Also the live enrollments of the enrollment's prospect, as `liveEnrollments` reads them. */
    withLive = false,
  ): Promise<{ inserted: boolean; enrollment: EnrollmentTargetRow | null; live: OwnEnrollment[] | null }> {
    const { rows } = await client.query<
      EnrollmentTargetRow & { inserted: boolean; live: OwnEnrollment[] | null }
    >({
      name: 'event-insert-read-enrollment',
      text: `WITH ins AS (
           INSERT INTO event (id, source, external_id, type, payload, classification, why) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (source, external_id) DO NOTHING RETURNING seq)
         SELECT EXISTS (SELECT 1 FROM ins) AS inserted, e.id, p.id AS prospect_id, p.email, p.merged_into,
           CASE WHEN $9::boolean AND p.id IS NOT NULL THEN (
             SELECT COALESCE(json_agg(json_build_object('id', l.id, 'status', l.status, 'stopReason', l.stop_reason,
                                                        'sequencePolicies', s.policies) ORDER BY l.created_at, l.id), '[]')
             FROM enrollment l JOIN sequence s ON s.id = l.sequence_id
             WHERE l.prospect_id = p.id AND l.status IN ${LIVE_STATUSES_SQL}) END AS live
         FROM (SELECT 1) one LEFT JOIN (enrollment e JOIN prospect p ON p.id = e.prospect_id) ON e.id = $8`,
      values: [...eventRowValues(id, event), event.enrollmentId, withLive],
    });
    const { inserted, live, ...row } = rows[0]!;
    return { inserted, enrollment: row.id ? row : null, live };
  }

  /**
   * Marks an event applied, with its outcome and whom it was about. With `inFlightOf`,
   * the same statement reads those enrollments' touches being sent (claimed, not yet
   * recorded), as `touchesBeingSent` does, saving the transaction a round trip.
   */
  async finish(
    client: pg.PoolClient,
    id: string,
    outcome: string,
    prospectId: string | null,
    enrollmentId: string | null,
    inFlightOf?: { id: string }[],
  ): Promise<{ enrollmentId: string; step: number }[]> {
    if (!inFlightOf || inFlightOf.length === 0) {
      await client.query({
        name: 'event-finish',
        text: FINISH_SQL,
        values: [id, outcome, prospectId, enrollmentId],
      });
      return [];
    }
    const { rows } = await client.query<{ enrollmentId: string; step: number }>({
      name: 'event-finish-touches-in-flight',
      text: `WITH finished AS (${FINISH_SQL}) ${TOUCHES_IN_FLIGHT_SQL('$5')}`,
      values: [id, outcome, prospectId, enrollmentId, inFlightOf.map((e) => e.id)],
    });
    return rows;
  }

  /**
   * Inserts an event already applied, in one statement and so one transaction. The
   * row ends as the general path leaves it; the domain rollup trigger watches
   * inserts that are already applied too. @returns false when recorded before.
   */
  async insertApplied(
    id: string,
    event: CanonicalEvent,
    outcome: string,
    target: { prospectId: string; enrollmentId: string | null } | null,
  ): Promise<boolean> {
    const inserted = await this.pool.query({
      name: 'event-insert-applied',
      text: `INSERT INTO event (id, source, external_id, type, payload, classification, why, applied_at, outcome, prospect_id, enrollment_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now(), $8, $9, $10)
       ON CONFLICT (source, external_id) DO NOTHING RETURNING seq`,
      values: [
        ...eventRowValues(id, event),
        outcome,
        target?.prospectId ?? null,
        target?.enrollmentId ?? null,
      ],
    });
    return (inserted.rowCount ?? 0) > 0;
  }

  /**
   * The person's latest applied reply: its class (`unclassified` when none), and
   * whether it took a `replied` edge (outcome `edge_taken`); null when none. The
   * sender's re-check reads it.
   */
  async lastReply(prospectId: string): Promise<{ replyClass: string; tookRepliedEdge: boolean } | null> {
    const { rows } = await this.pool.query<{ replyClass: string; tookRepliedEdge: boolean }>(
      `SELECT COALESCE(classification, 'unclassified') AS "replyClass", outcome = 'edge_taken' AS "tookRepliedEdge"
       FROM event WHERE prospect_id = $1 AND type = 'reply' AND applied_at IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      [prospectId],
    );
    return rows[0] ?? null;
  }

  /** A person's quotes kept by the classifier go with them (erasure). */
  async forgetQuotes(client: pg.PoolClient, prospectId: string): Promise<void> {
    await client.query('UPDATE event SET why = NULL WHERE prospect_id = $1', [prospectId]);
  }

  async list(filter: EventListFilter, limit: number, afterSeq?: number): Promise<EventRow[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT seq, id, source, external_id AS "externalId", type, prospect_id AS "prospectId", enrollment_id AS "enrollmentId",
              received_at AS "receivedAt", applied_at AS "appliedAt", outcome, classification, why
       FROM event WHERE ($1::uuid IS NULL OR prospect_id = $1) AND ($2::text IS NULL OR type = $2) AND ($3::bigint IS NULL OR seq > $3)
         AND ($5::timestamptz IS NULL OR received_at >= $5) AND ($6::timestamptz IS NULL OR received_at < $6)
       ORDER BY seq LIMIT $4`,
      [
        filter.prospectId ?? null,
        filter.type ?? null,
        afterSeq ?? null,
        limit,
        filter.from ?? null,
        filter.to ?? null,
      ],
    );
    return rows;
  }

  /** Recorded events by (source, external id) and outcome, for tests and recovery reports. */
  async countBySource(source: string): Promise<{ externalId: string; n: number; outcome: string | null }[]> {
    const { rows } = await this.pool.query<{ externalId: string; n: number; outcome: string | null }>(
      `SELECT external_id AS "externalId", count(*)::int AS n, max(outcome) AS outcome FROM event
       WHERE source = $1 GROUP BY external_id ORDER BY external_id`,
      [source],
    );
    return rows;
  }
}
