import { randomUUID } from 'node:crypto';
import type pg from 'pg';

// Prisma Migrate's own DDL for its bookkeeping table, column for column, so that
// `prisma migrate deploy` run later on the same database reads our rows as its own.
const CREATE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

/** A row of `_prisma_migrations`, as far as the runner needs it. */
export interface MigrationRecord {
  migrationName: string;
  checksum: string;
  finishedAt: Date | null;
  rolledBackAt: Date | null;
}

/** Reads and writes `_prisma_migrations`, the table Prisma Migrate keeps. */
export const prismaMigrationsRepository = {
  /** Creates the table if missing. Run it under the migration lock: CREATE TABLE IF NOT EXISTS races. */
  async ensureTable(client: pg.Client): Promise<void> {
    await client.query(CREATE_TABLE_SQL);
  },

  /** Every row, oldest first. */
  async list(client: pg.Client): Promise<MigrationRecord[]> {
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at, migration_name',
    );
    return rows.map((row) => ({
      migrationName: row.migration_name,
      checksum: row.checksum,
      finishedAt: row.finished_at,
      rolledBackAt: row.rolled_back_at,
    }));
  },

  /**
   * Records a migration as applied, inside the caller's transaction. The row ends as
   * Prisma's does after a successful deploy: a v4 UUID id, one applied step (Prisma counts
   * a whole migration.sql as one step), finished, no logs.
   */
  async recordApplied(client: pg.Client, migrationName: string, checksum: string): Promise<void> {
    // now() is the start of the transaction the script ran in; clock_timestamp() is the
    // moment it finished.
    await client.query(
      `INSERT INTO _prisma_migrations
         (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, now(), 1)`,
      [randomUUID(), checksum, migrationName],
    );
  },
};
