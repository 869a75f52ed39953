import type pg from 'pg';

/** The audit log: who did what to which entity, append only. */
export class AuditRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Writes an entry in the caller's transaction, so it commits with the change it describes. */
  async writeIn(
    client: pg.PoolClient,
    entry: { actor: string; action: string; entityType: string; entityId: string; data?: object },
  ): Promise<void> {
    await client.query(
      'INSERT INTO audit_log (actor, action, entity_type, entity_id, data) VALUES ($1, $2, $3, $4, $5)',
      [entry.actor, entry.action, entry.entityType, entry.entityId, JSON.stringify(entry.data ?? {})],
    );
  }

  async write(entry: {
    actor: string;
    action: string;
    entityType: string;
    entityId: string;
    data?: object;
  }): Promise<void> {
    await this.pool.query(
      'INSERT INTO audit_log (actor, action, entity_type, entity_id, data) VALUES ($1, $2, $3, $4, $5)',
      [entry.actor, entry.action, entry.entityType, entry.entityId, JSON.stringify(entry.data ?? {})],
    );
  }

  /** Writes many entries in one statement (an operator's bulk action: one entry per entity changed). */
  async writeMany(
    entries: { actor: string; action: string; entityType: string; entityId: string; data?: object }[],
  ): Promise<void> {
    if (entries.length === 0) return;
    await this.pool.query(
      `INSERT INTO audit_log (actor, action, entity_type, entity_id, data)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[])`,
      [
        entries.map((e) => e.actor),
        entries.map((e) => e.action),
        entries.map((e) => e.entityType),
        entries.map((e) => e.entityId),
        entries.map((e) => JSON.stringify(e.data ?? {})),
      ],
    );
  }

  async list(filter: { entityType?: string; entityId?: string }, limit: number, afterId?: number) {
    const { rows } = await this.pool.query(
      `SELECT id, actor, action, entity_type AS "entityType", entity_id AS "entityId", data, at FROM audit_log
       WHERE ($1::text IS NULL OR entity_type = $1) AND ($2::text IS NULL OR entity_id = $2) AND ($3::bigint IS NULL OR id > $3)
       ORDER BY id LIMIT $4`,
      [filter.entityType ?? null, filter.entityId ?? null, afterId ?? null, limit],
    );
    return rows;
  }
}
