import { randomUUID } from 'node:crypto';
import type { SuppressionKeys, SuppressionKind } from '@touchbase/core';
import type pg from 'pg';
import { suppressionMatchSql } from './enrollment-stop.sql.js';

/** A suppression entry as listed. */
export type SuppressionRow = {
  id: string;
  kind: SuppressionKind;
  value: string;
  reason: string | null;
  createdAt: Date;
};

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

  /** Adds an entry in the caller's transaction (an event's effect); the value is stored as given. */
  async addIn(client: pg.PoolClient, kind: SuppressionKind, value: string, reason: string): Promise<void> {
    await client.query(
      'INSERT INTO suppression (id, kind, value, reason) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, value) DO NOTHING',
      [randomUUID(), kind, value, reason],
    );
  }

  /** Removes an entry in the caller's transaction (an erased address gives way to its hash). */
  async removeIn(client: pg.PoolClient, kind: SuppressionKind, value: string): Promise<void> {
    await client.query('DELETE FROM suppression WHERE kind = $1 AND value = $2', [kind, value]);
  }

  /** Whether any of an address's keys (core's `suppressionKeysOf`) is on the list. */
  async matchesAny(client: pg.PoolClient | pg.Pool, keys: SuppressionKeys): Promise<boolean> {
    const r = await client.query(
      `SELECT 1 FROM suppression s WHERE ${suppressionMatchSql('s', { email: '$1', domain: '$2', hash: '$3' })} LIMIT 1`,
      [keys.email, keys.domain, keys.hash],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async list(limit: number, after?: string): Promise<SuppressionRow[]> {
    const { rows } = await this.pool.query<SuppressionRow>(
      `SELECT id, kind, value, reason, created_at AS "createdAt" FROM suppression
       WHERE ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [after ?? null, limit],
    );
    return rows;
  }
}
