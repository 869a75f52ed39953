// The migration errors are one family, so they share a file: each is a few lines and a
// caller switches on `code`, never on the message.

/** Stable codes of the errors the migration runner throws. */
export type MigrationErrorCode =
  | 'DATABASE_UNREACHABLE'
  | 'DATABASE_MISSING'
  | 'MIGRATION_CHECKSUM_MISMATCH'
  | 'MIGRATION_MISSING'
  | 'MIGRATION_SCRIPT_MISSING'
  | 'MIGRATION_PREVIOUSLY_FAILED'
  | 'MIGRATION_FAILED'
  | 'MIGRATION_LOCK_TIMEOUT';

/** Base class of every error the migration runner throws on purpose. */
export abstract class MigrationError extends Error {
  abstract readonly code: MigrationErrorCode;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * PostgreSQL could not be reached. The message names host and port and how to start a
 * server; it never contains the connection URL, which may hold a password.
 */
export class DatabaseUnreachableError extends MigrationError {
  readonly code = 'DATABASE_UNREACHABLE';

  constructor(
    readonly address: string,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(
      `Could not connect to PostgreSQL at ${address} (${reason}). ` +
        'Start one with `docker compose up -d postgres`, or install and start the OS package `postgresql` ' +
        '(apt install postgresql, brew install postgresql@15), then check DATABASE_URL.',
      options,
    );
  }
}

/** The server answered but the database in the URL does not exist. */
export class DatabaseMissingError extends MigrationError {
  readonly code = 'DATABASE_MISSING';

  constructor(
    readonly database: string,
    readonly address: string,
    options?: ErrorOptions,
  ) {
    super(
      `Database "${database}" does not exist on ${address}; create it with \`npm run db:migrate\`.`,
      options,
    );
  }
}

/** An applied migration's migration.sql was edited after it was applied. */
export class MigrationChecksumError extends MigrationError {
  readonly code = 'MIGRATION_CHECKSUM_MISMATCH';

  constructor(
    readonly migrationName: string,
    readonly appliedChecksum: string,
    readonly fileChecksum: string,
  ) {
    super(
      `Migration ${migrationName} was modified after it was applied ` +
        `(applied checksum ${appliedChecksum}, file checksum ${fileChecksum}). ` +
        'Restore the file and put the change in a new migration.',
    );
  }
}

/** A migration recorded as applied has no directory on disk. */
export class MigrationMissingError extends MigrationError {
  readonly code = 'MIGRATION_MISSING';

  constructor(
    readonly migrationName: string,
    readonly migrationsDir: string,
  ) {
    super(
      `Migration ${migrationName} is applied to the database but missing from ${migrationsDir}. ` +
        'Restore it (is this checkout older than the database?).',
    );
  }
}

/** A migration directory without its migration.sql. */
export class MigrationScriptMissingError extends MigrationError {
  readonly code = 'MIGRATION_SCRIPT_MISSING';

  constructor(
    readonly migrationName: string,
    readonly path: string,
  ) {
    super(`Migration ${migrationName} has no migration.sql (expected ${path}).`);
  }
}

/**
 * `_prisma_migrations` holds a row that was started and neither finished nor rolled back:
 * `prisma migrate deploy` failed there (our runner never leaves such a row). Prisma
 * refuses to go on in that state (P3009), and so do we.
 */
export class MigrationPreviouslyFailedError extends MigrationError {
  readonly code = 'MIGRATION_PREVIOUSLY_FAILED';

  constructor(readonly migrationName: string) {
    super(
      `Migration ${migrationName} failed in an earlier run and is recorded as unfinished. ` +
        `Fix the database by hand, then run \`prisma migrate resolve --rolled-back ${migrationName}\` ` +
        '(or set rolled_back_at on its _prisma_migrations row).',
    );
  }
}

/** A migration's SQL failed; its transaction was rolled back and nothing was recorded. */
export class MigrationFailedError extends MigrationError {
  readonly code = 'MIGRATION_FAILED';

  constructor(
    readonly migrationName: string,
    cause: unknown,
  ) {
    super(
      `Migration ${migrationName} failed and was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** Another runner held the migration lock for longer than we are willing to wait. */
export class MigrationLockTimeoutError extends MigrationError {
  readonly code = 'MIGRATION_LOCK_TIMEOUT';

  constructor(readonly waitedMs: number) {
    super(
      `Timed out after ${waitedMs} ms waiting for the migration lock (pg_advisory_lock(72707369)); ` +
        'another migration run is in progress or a dead session still holds the lock.',
    );
  }
}
