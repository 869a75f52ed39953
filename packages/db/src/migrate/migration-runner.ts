import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import {
  MigrationChecksumError,
  MigrationFailedError,
  MigrationLockTimeoutError,
  MigrationMissingError,
  MigrationPreviouslyFailedError,
} from './migration.errors.js';
import { checksumMatches, migrationChecksum } from './migration-checksum.js';
import { type MigrationFile, readMigrationFiles } from './migration-files.reader.js';
import { connectPostgres } from './postgres-connect.js';
import { type MigrationRecord, prismaMigrationsRepository } from './prisma-migrations.repository.js';

export { dropDatabase, ensureDatabase } from './ensure-database.js';

/** `<repo>/prisma/migrations`, found from this file so that the working directory does not matter. */
/**
 * `prisma/migrations` of the nearest folder above this module that has one: the
 * repository root both when running from source (packages/db/src/migrate) and from
 * a bundle (apps/<app>/dist, cli/dist). TOUCHBASE_MIGRATIONS_DIR overrides it.
 */
function defaultMigrationsDir(): string {
  const override = process.env.TOUCHBASE_MIGRATIONS_DIR;
  if (override) return override;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return fileURLToPath(new URL('../../../../prisma/migrations/', import.meta.url));
    dir = parent;
  }
}
const DEFAULT_MIGRATIONS_DIR = defaultMigrationsDir();

// The advisory lock key Prisma Migrate itself takes, so our runners serialise with each
// other and with a `prisma migrate deploy` on the same database.
const MIGRATION_LOCK_KEY = 72707369;

// Long enough to wait out another runner's slow migration (an index build), short enough
// that a lock leaked by a dead pooled session fails a deploy instead of hanging it.
const LOCK_TIMEOUT_MS = 5 * 60_000;

/** Options of {@link applyMigrations}. */
export interface ApplyMigrationsOptions {
  /** PostgreSQL URL of the database to migrate; it must exist (see `ensureDatabase`). */
  databaseUrl: string;
  /** Directory in Prisma's layout; defaults to `<repo>/prisma/migrations`. */
  migrationsDir?: string;
  /** Receives one constant message per event, with the details in `data`. */
  log?: (msg: string, data?: object) => void;
}

/**
 * Applies the pending migrations of `migrationsDir` to the database, compatibly with
 * `prisma migrate deploy`: same `_prisma_migrations` table and rows, same checksums,
 * same advisory lock.
 *
 * Each migration runs in its own transaction together with its `_prisma_migrations`
 * row, so a failing migration leaves no trace and can be fixed and re-run. Before
 * applying anything, the applied migrations are checked against the files: an edited
 * or deleted applied migration, or one that Prisma left failed, stops the run.
 *
 * A migration.sql must not contain its own BEGIN/COMMIT, nor statements PostgreSQL
 * refuses inside a transaction (CREATE INDEX CONCURRENTLY).
 *
 * @returns the names of the migrations this call applied, in order (empty if none was pending).
 * @throws MigrationError subclasses (see their `code`); DatabaseUnreachableError when no server answers.
 */
export async function applyMigrations(opts: ApplyMigrationsOptions): Promise<{ applied: string[] }> {
  const migrationsDir = opts.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  const files = await readMigrationFiles(migrationsDir);
  const client = await connectPostgres(opts.databaseUrl);
  try {
    await acquireMigrationLock(client);
    try {
      // Read the history only once we hold the lock: a runner that waited sees what the
      // one before it applied.
      await prismaMigrationsRepository.ensureTable(client);
      const records = await prismaMigrationsRepository.list(client);
      const pending = pendingMigrations(files, records, migrationsDir);
      const applied: string[] = [];
      for (const migration of pending) {
        await applyOne(client, migration, opts.log);
        applied.push(migration.name);
      }
      opts.log?.('Migrations up to date', { applied: applied.length, total: files.length });
      return { applied };
    } finally {
      // If the connection is gone, so is the session lock: nothing to release, and the
      // error that matters is the one already propagating; the release's own is logged.
      await client
        .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
        .catch((err: Error) => opts.log?.('Migration lock release failed', { err: err.message }));
    }
  } finally {
    await client.end();
  }
}

async function acquireMigrationLock(client: pg.Client): Promise<void> {
  await client.query(`SET lock_timeout = ${LOCK_TIMEOUT_MS}`);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') throw new MigrationLockTimeoutError(LOCK_TIMEOUT_MS);
    throw error;
  } finally {
    // The timeout is for the lock only; migrations keep the server's own setting.
    await client.query('RESET lock_timeout');
  }
}

/** Checks the history against the files and returns the files still to apply, in order. */
function pendingMigrations(
  files: MigrationFile[],
  records: MigrationRecord[],
  migrationsDir: string,
): MigrationFile[] {
  const fileByName = new Map(files.map((file) => [file.name, file]));
  const appliedNames = new Set<string>();
  for (const record of records) {
    // A rolled-back row (prisma migrate resolve --rolled-back) counts as not applied.
    if (record.rolledBackAt !== null) continue;
    if (record.finishedAt === null) throw new MigrationPreviouslyFailedError(record.migrationName);
    const file = fileByName.get(record.migrationName);
    if (file === undefined) throw new MigrationMissingError(record.migrationName, migrationsDir);
    if (!checksumMatches(file.script, record.checksum)) {
      throw new MigrationChecksumError(record.migrationName, record.checksum, migrationChecksum(file.script));
    }
    appliedNames.add(record.migrationName);
  }
  return files.filter((file) => !appliedNames.has(file.name));
}

async function applyOne(
  client: pg.Client,
  migration: MigrationFile,
  log: ApplyMigrationsOptions['log'],
): Promise<void> {
  const startedAt = performance.now();
  await client.query('BEGIN');
  try {
    // No bind parameters: pg sends the script as one simple query, which runs every
    // statement in it (an extended-protocol query takes one statement only).
    await client.query(migration.script.toString('utf8'));
    await prismaMigrationsRepository.recordApplied(
      client,
      migration.name,
      migrationChecksum(migration.script),
    );
    await client.query('COMMIT');
  } catch (error) {
    // A broken connection cannot roll back, but the server discards the open transaction
    // when the session ends; either way the script's error is the one to report.
    await client
      .query('ROLLBACK')
      .catch((err: Error) =>
        log?.('Migration rollback failed', { migration: migration.name, err: err.message }),
      );
    throw new MigrationFailedError(migration.name, error);
  }
  log?.('Migration applied', {
    migration: migration.name,
    durationMs: Math.round(performance.now() - startedAt),
  });
}
