import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/** The suppression list: absolute, checked at enrollment and again at every claim. */
export class SuppressionRepository {
  constructor(private readonly pool: pg.Pool) {}

  async add(
    kind: 'email' | 'domain' | 'hash',
    value: string,
    reason: string,
  ): Promise<{ id: string; created: boolean }> {
    // Addresses, domains and hashes alike: compared in lower case.
    const v = value.trim().toLowerCase();
    const r = await this.pool.query(
      `INSERT INTO suppression (id, kind, value, reason) VALUES ($1, $2, $3, $4)
       ON CONFLICT (kind, value) DO NOTHING RETURNING id`,
      [randomUUID(), kind, v, reason],
    );
    if (r.rows[0]) return { id: r.rows[0].id, created: true };
    const existing = await this.pool.query('SELECT id FROM suppression WHERE kind = $1 AND value = $2', [
      kind,
      v,
    ]);
    return { id: existing.rows[0].id, created: false };
  }

  async list(limit: number, after?: string) {
    const { rows } = await this.pool.query(
      `SELECT id, kind, value, reason, created_at AS "createdAt" FROM suppression
       WHERE ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [after ?? null, limit],
    );
    return rows;
  }
}
