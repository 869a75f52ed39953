import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/** One message nobody we know wrote, waiting for a person. */
export type TriageItemRow = {
  id: string;
  eventId: string;
  source: string;
  kind: 'unknown_sender' | 'cold_inbound' | 'referral';
  email: string | null;
  classification: string | null;
  why: string[];
  receivedAt: Date;
  resolvedAt: Date | null;
};

const COLUMNS = `id, event_id AS "eventId", source, kind, email, classification, why,
  received_at AS "receivedAt", resolved_at AS "resolvedAt"`;

/**
 * The triage list: replies from addresses we do not know and cold inbounds. They
 * are recorded as events and change no enrollment; a person decides what to do.
 */
export class TriageRepository {
  constructor(private readonly pool?: pg.Pool) {}

  /** Adds an item in the event's transaction. */
  async record(
    client: pg.PoolClient,
    item: {
      eventId: string;
      source: string;
      kind: TriageItemRow['kind'];
      email: string | null;
      classification: string | null;
      why: string[];
    },
  ): Promise<string> {
    const id = randomUUID();
    await client.query(
      `INSERT INTO triage_item (id, event_id, source, kind, email, classification, why)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (event_id) DO NOTHING`,
      [id, item.eventId, item.source, item.kind, item.email, item.classification, JSON.stringify(item.why)],
    );
    return id;
  }

  /** Open items (or all), newest last, a page at a time. */
  async list(
    filter: { open?: boolean; kind?: string },
    limit: number,
    after?: string,
  ): Promise<TriageItemRow[]> {
    const { rows } = await this.db().query<TriageItemRow>(
      `SELECT ${COLUMNS} FROM triage_item
       WHERE ($1::boolean IS NOT TRUE OR resolved_at IS NULL) AND ($2::text IS NULL OR kind = $2)
         AND ($3::uuid IS NULL OR (received_at, id) > (SELECT received_at, id FROM triage_item WHERE id = $3))
       ORDER BY received_at, id LIMIT $4`,
      [filter.open ?? true, filter.kind ?? null, after ?? null, limit],
    );
    return rows;
  }

  /** Marks an item handled. @returns the item, or null when there is none. */
  async resolve(id: string): Promise<TriageItemRow | null> {
    const { rows } = await this.db().query<TriageItemRow>(
      `UPDATE triage_item SET resolved_at = COALESCE(resolved_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0] ?? null;
  }

  private db(): pg.Pool {
    if (!this.pool) throw new Error('TriageRepository was built without a pool');
    return this.pool;
  }
}
