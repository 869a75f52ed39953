import {
  FUNNEL_ARCHIVED_EVENT_TYPES,
  RETIRABLE_EVENT_TYPES,
  RETIRABLE_STREAK_BREAKERS,
  SOFT_BOUNCE_STREAK_BREAKERS,
} from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';

/** One batch of a retention run: where the scan got to, and what it retired. */
export type RetentionBatch = {
  /** The highest event seq the batch looked at (the next batch starts after it); null: no event left. */
  lastSeq: number | null;
  /** The batch reached events received at or after the cutoff: the run is done. */
  reachedCutoff: boolean;
  retired: number;
  /** Of those, the ones whose funnel facts were archived. */
  archived: number;
};

/**
 * The retention job's store (docs/scaling.md#event-retention). It walks the log in
 * seq order, which is arrival order, so it needs no index of its own on the hot
 * table. Which types may go, and which are archived for the funnel, is core's.
 */
export class EventRetentionRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Turns on the trigger that keeps a retired key a duplicate (created disabled by its
   * migration, so that ingest pays its probe only once retention is used). Committed
   * before the first key is written; a no-op once on.
   */
  async guardRetiredKeys(): Promise<void> {
    const { rows } = await this.pool.query<{ enabled: string }>(
      `SELECT tgenabled AS enabled FROM pg_trigger WHERE tgrelid = 'event'::regclass AND tgname = 'event_not_retired'`,
    );
    if (!rows[0]) throw new Error('trigger event_not_retired is missing: run `touchbase migrate`');
    if (rows[0].enabled === 'D') await this.pool.query('ALTER TABLE event ENABLE TRIGGER event_not_retired');
  }

  /**
   * Retires, among the `limit` events after `afterSeq`, those of a retirable type
   * received before `cutoff`, in two commits: first their keys (`event_retired`,
   * which keeps a redelivery a duplicate) and their funnel facts, then the rows. A
   * stop between the two leaves a key and a fact for an event still there: a
   * redelivery is a duplicate either way, and the funnel counts distinct enrollments.
   * A prospect's latest streak breaker stays while it is the latest, so the
   * soft-bounce streak reads the same.
   */
  async retireBatch(cutoff: Date, afterSeq: number, limit: number): Promise<RetentionBatch> {
    await this.guardRetiredKeys();
    const marked = await inTransaction(this.pool, (client) =>
      client.query<{ last_seq: number | null; reached: boolean | null; seqs: number[]; archived: number }>(
        `WITH scanned AS (
           SELECT seq, source, external_id, type, prospect_id, enrollment_id, payload, received_at
           FROM event WHERE seq > $1 ORDER BY seq LIMIT $2),
         candidates AS (
           SELECT s.* FROM scanned s
           WHERE s.received_at < $3 AND s.type = ANY($4::text[])
             AND NOT (s.type = ANY($5::text[]) AND s.prospect_id IS NOT NULL AND NOT EXISTS (
               SELECT 1 FROM event later
               WHERE later.prospect_id = s.prospect_id AND later.seq > s.seq
                 AND (later.type = ANY($7::text[])
                      OR (later.type = 'bounce' AND later.payload->'bounce'->>'hard' = 'true'))))),
         archived AS (
           INSERT INTO event_funnel_archive (seq, type, prospect_id, enrollment_id, message_id, at)
           -- The same expressions the funnel's raw_event reads from the row.
           SELECT seq, type, prospect_id, enrollment_id, payload->>'messageId',
                  COALESCE((payload->>'occurredAt')::timestamptz, received_at)
           FROM candidates WHERE type = ANY($6::text[])
           ON CONFLICT (seq) DO NOTHING RETURNING seq),
         retired AS (
           INSERT INTO event_retired (source, external_id) SELECT source, external_id FROM candidates
           ON CONFLICT DO NOTHING)
         SELECT (SELECT max(seq) FROM scanned) AS last_seq,
                (SELECT bool_or(received_at >= $3) FROM scanned) AS reached,
                ARRAY(SELECT seq FROM candidates) AS seqs,
                (SELECT count(*)::int FROM candidates WHERE type = ANY($6::text[])) AS archived`,
        [
          afterSeq,
          limit,
          cutoff,
          RETIRABLE_EVENT_TYPES,
          RETIRABLE_STREAK_BREAKERS,
          FUNNEL_ARCHIVED_EVENT_TYPES,
          // Every streak breaker, retirable or not (a later reply also starts a new streak).
          SOFT_BOUNCE_STREAK_BREAKERS,
        ],
      ),
    );
    const row = marked.rows[0];
    const seqs = (row?.seqs ?? []).map(Number);
    if (seqs.length > 0) {
      // The keys above are committed first, so an insert racing this delete sees the row
      // (unique conflict) or the key (the trigger skips it). The one gap: an insert whose
      // trigger ran before that commit and whose unique check runs after this delete
      // commits (docs/scaling.md#event-retention).
      await this.pool.query('DELETE FROM event WHERE seq = ANY($1::bigint[])', [seqs]);
    }
    return {
      lastSeq: row?.last_seq ?? null,
      reachedCutoff: row?.reached ?? false,
      retired: seqs.length,
      archived: row?.archived ?? 0,
    };
  }
}
