import { randomUUID } from 'node:crypto';
import type { SuppressionKeys, SuppressionKind } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { stopProspectsSql, suppressionMatchSql } from './enrollment-stop.sql.js';

/** The prospects an entry of this kind names, by their stored (normalised) address `p.email`. */
const PROSPECTS_OF: Record<SuppressionKind, string> = {
  email: 'p.email = $2',
  domain: `split_part(p.email, '@', 2) = $2`,
  // core's addressHash: sha-256 (hex) of the normalised address.
  hash: `encode(sha256(convert_to(p.email, 'UTF8')), 'hex') = $2`,
};

/** A suppression entry as it matched an address. */
export type SuppressionMatch = { id: string; kind: SuppressionKind; value: string; reason: string | null };

/**
 * An operator's suppression entries: added with the live enrollments of every
 * prospect they name ended in the same commit (at once, not at their next claim),
 * removed, and matched against an address.
 */
export class SuppressionStopRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Adds an entry (the value normalised: lower case, trimmed) and ends, with the
   * stop statement events use (rows locked in id order, as the sender's claim locks
   * them), the live enrollments of the prospects it names: `cancelled`, with
   * `suppressed:<kind>` as the reason.
   * @returns the entry, whether it is new, and the enrollments ended with their pending step.
   */
  async addAndStop(
    kind: SuppressionKind,
    value: string,
    reason: string,
  ): Promise<{
    id: string;
    created: boolean;
    stopped: { id: string; currentStep: number; currentAttempt: number }[];
  }> {
    const v = value.trim().toLowerCase();
    return inTransaction(this.pool, async (client) => {
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO suppression (id, kind, value, reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kind, value) DO NOTHING RETURNING id`,
        [randomUUID(), kind, v, reason],
      );
      const id =
        inserted.rows[0]?.id ??
        (
          await client.query<{ id: string }>('SELECT id FROM suppression WHERE kind = $1 AND value = $2', [
            kind,
            v,
          ])
        ).rows[0]?.id;
      if (!id) throw new Error('suppression entry vanished within its transaction');
      const { rows } = await client.query<{ id: string; currentStep: number; currentAttempt: number }>(
        `WITH target AS (
           SELECT p.id AS prospect_id, 'cancelled'::"EnrollmentStatus" AS status, $1::text AS reason,
                  NULL::timestamptz AS at, row_number() OVER (ORDER BY p.id) AS ord
           FROM prospect p WHERE ${PROSPECTS_OF[kind]}),
         ${stopProspectsSql('target')}
         SELECT id, "currentStep", "currentAttempt" FROM stopped WHERE live`,
        [`suppressed:${kind}`, v],
      );
      return { id, created: inserted.rows.length > 0, stopped: rows };
    });
  }

  /** Removes an entry. @returns the entry removed, or null when there was none. */
  async remove(id: string): Promise<{ kind: SuppressionKind; value: string } | null> {
    const { rows } = await this.pool.query<{ kind: SuppressionKind; value: string }>(
      'DELETE FROM suppression WHERE id = $1 RETURNING kind, value',
      [id],
    );
    return rows[0] ?? null;
  }

  /** The entries that keep an address from being contacted (core's `suppressionKeysOf`). */
  async matching(keys: SuppressionKeys): Promise<SuppressionMatch[]> {
    const { rows } = await this.pool.query<SuppressionMatch>(
      `SELECT id, kind, value, reason FROM suppression s
       WHERE ${suppressionMatchSql('s', { email: '$1', domain: '$2', hash: '$3' })} ORDER BY kind`,
      [keys.email, keys.domain, keys.hash],
    );
    return rows;
  }
}
