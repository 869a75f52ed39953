import { DomainError } from '@touchbase/core';
import type pg from 'pg';

/** What an API key may do; each scope includes the ones before it. */
export type ApiKeyScope = 'read' | 'write' | 'admin';

/** An API key as stored: never the key itself, only its hash. */
export type ApiKeyRow = {
  id: string;
  name: string;
  scope: ApiKeyScope;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const COLUMNS = `id, name, scope, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How stale `last_used_at` may get: one write per key per minute, not one per request. */
const LAST_USED_RESOLUTION = '1 minute';

/** The API keys (`api_key`): created, listed, found by the hash of a presented key, revoked. */
export class ApiKeyRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Stores a new key by the hash of its secret.
   * @throws DomainError `conflict` when the name is taken (also by a revoked key).
   */
  async create(key: { id: string; name: string; scope: ApiKeyScope; keyHash: string }): Promise<ApiKeyRow> {
    try {
      const { rows } = await this.pool.query<ApiKeyRow>(
        `INSERT INTO api_key (id, name, scope, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [key.id, key.name, key.scope, key.keyHash],
      );
      return rows[0] as ApiKeyRow;
    } catch (err) {
      if ((err as { constraint?: string }).constraint === 'api_key_name_key')
        throw new DomainError('conflict', 'an API key with this name exists (names are never reused)', {
          field: 'name',
        });
      throw err;
    }
  }

  /**
   * Keys in id order, revoked ones only when asked: a page of `limit` after the id
   * `after` (the API's cursor), or every key when no limit is given (the CLI).
   */
  async list(opts: { includeRevoked?: boolean; limit?: number; after?: string } = {}): Promise<ApiKeyRow[]> {
    const { rows } = await this.pool.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_key
       WHERE ($1::boolean OR revoked_at IS NULL) AND ($2::uuid IS NULL OR id > $2)
       ORDER BY id LIMIT $3`,
      [opts.includeRevoked ?? false, opts.after ?? null, opts.limit ?? null],
    );
    return rows;
  }

  /** The live key whose secret hashes to `keyHash`, marking it used; null when none. */
  async findActiveByHash(keyHash: string): Promise<ApiKeyRow | null> {
    const { rows } = await this.pool.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_key WHERE key_hash = $1 AND revoked_at IS NULL`,
      [keyHash],
    );
    const row = rows[0];
    if (row) await this.markUsed(row);
    return row ?? null;
  }

  /** The live key with this id (a browser session names its key by id); null when none. */
  async findActiveById(id: string): Promise<ApiKeyRow | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.pool.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_key WHERE id = $1 AND revoked_at IS NULL`,
      [id],
    );
    const row = rows[0];
    if (row) await this.markUsed(row);
    return row ?? null;
  }

  /** Live keys; the API uses it at boot to decide whether it may leave loopback. */
  async countActive(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_key WHERE revoked_at IS NULL',
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Revokes a key by id or by name; it stops working at once.
   * @returns the key, or null when there is no live key by that id or name.
   */
  async revoke(idOrName: string): Promise<ApiKeyRow | null> {
    const { rows } = await this.pool.query<ApiKeyRow>(
      `UPDATE api_key SET revoked_at = now()
        WHERE revoked_at IS NULL AND (name = $1 OR ($2::uuid IS NOT NULL AND id = $2::uuid))
        RETURNING ${COLUMNS}`,
      [idOrName, UUID.test(idOrName) ? idOrName : null],
    );
    return rows[0] ?? null;
  }

  private async markUsed(row: ApiKeyRow): Promise<void> {
    if (row.lastUsedAt && Date.now() - row.lastUsedAt.getTime() < 60_000) return;
    await this.pool.query(
      `UPDATE api_key SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '${LAST_USED_RESOLUTION}')`,
      [row.id],
    );
  }
}
