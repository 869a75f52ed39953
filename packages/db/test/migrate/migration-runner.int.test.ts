import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DatabaseUnreachableError,
  MigrationChecksumError,
  MigrationFailedError,
  MigrationMissingError,
  MigrationPreviouslyFailedError,
} from '../../src/migrate/migration.errors.js';
import { applyMigrations, ensureDatabase } from '../../src/migrate/migration-runner.js';
import { createMigrationsFixture, type MigrationsFixture } from './support/migrations-fixture.js';
import { createScratchDatabase, type ScratchDatabase, withClient } from './support/scratch-database.js';

const REPO_MIGRATIONS_DIR = fileURLToPath(new URL('../../../../prisma/migrations/', import.meta.url));
const REPO_MIGRATIONS = readdirSync(REPO_MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const FIRST = '20260101000000_first';
const SECOND = '20260102000000_second';
const FIRST_SQL = 'CREATE TABLE "first" ("id" INTEGER NOT NULL PRIMARY KEY);\n';
const SECOND_SQL = 'CREATE TABLE "second" ("id" INTEGER NOT NULL PRIMARY KEY);\n';

describe('applyMigrations', () => {
  let db: ScratchDatabase;
  let fixture: MigrationsFixture | undefined;

  beforeEach(async () => {
    db = await createScratchDatabase('runner');
  });

  afterEach(async () => {
    await db.drop();
    await fixture?.cleanup();
    fixture = undefined;
  });

  const query = <R extends pg.QueryResultRow>(sql: string, values?: unknown[]) =>
    withClient(db.url, async (client) => (await client.query<R>(sql, values)).rows);
  const tables = async () =>
    (
      await query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      )
    ).map((row) => row.table_name);
  const recorded = async () =>
    (
      await query<{ migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations ORDER BY migration_name',
      )
    ).map((row) => row.migration_name);

  it('applies every migration of prisma/migrations to a fresh database', async () => {
    const messages: string[] = [];

    const result = await applyMigrations({ databaseUrl: db.url, log: (msg) => messages.push(msg) });

    expect(result.applied).toEqual(REPO_MIGRATIONS);
    expect(await recorded()).toEqual(REPO_MIGRATIONS);
    expect(await tables()).toEqual(
      expect.arrayContaining(['_prisma_migrations', 'enrollment', 'touch', 'event']),
    );
    expect(messages).toContain('Migration applied');
  });

  it('applies nothing when run a second time', async () => {
    await applyMigrations({ databaseUrl: db.url });

    const second = await applyMigrations({ databaseUrl: db.url });

    expect(second.applied).toEqual([]);
    expect(await recorded()).toEqual(REPO_MIGRATIONS);
  });

  it('applies each migration once when two runners start at the same time', async () => {
    // The sleep keeps the first runner inside its migration while the second arrives.
    fixture = await createMigrationsFixture({
      [FIRST]: `${FIRST_SQL}SELECT pg_sleep(0.5);\n`,
      [SECOND]: SECOND_SQL,
    });

    const results = await Promise.all([
      applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir }),
      applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir }),
    ]);

    expect(results.map((r) => r.applied).sort((a, b) => a.length - b.length)).toEqual([[], [FIRST, SECOND]]);
    expect(await recorded()).toEqual([FIRST, SECOND]);
  });

  it('refuses to run when an applied migration was changed, and applies nothing', async () => {
    fixture = await createMigrationsFixture({ [FIRST]: FIRST_SQL });
    await applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });
    await fixture.write(FIRST, `${FIRST_SQL}-- edited after it was applied\n`);
    await fixture.write(SECOND, SECOND_SQL);

    const run = applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });

    await expect(run).rejects.toBeInstanceOf(MigrationChecksumError);
    await expect(run).rejects.toMatchObject({ code: 'MIGRATION_CHECKSUM_MISMATCH', migrationName: FIRST });
    expect(await recorded()).toEqual([FIRST]);
    expect(await tables()).not.toContain('second');
  });

  it('accepts an applied migration whose line endings git turned into CRLF', async () => {
    fixture = await createMigrationsFixture({ [FIRST]: FIRST_SQL });
    await applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });
    await fixture.write(FIRST, FIRST_SQL.replaceAll('\n', '\r\n'));

    const result = await applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });

    expect(result.applied).toEqual([]);
  });

  it('refuses to run when an applied migration is missing from disk', async () => {
    fixture = await createMigrationsFixture({ [FIRST]: FIRST_SQL, [SECOND]: SECOND_SQL });
    await applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });
    await fixture.remove(FIRST);

    const run = applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });

    await expect(run).rejects.toBeInstanceOf(MigrationMissingError);
    await expect(run).rejects.toMatchObject({ code: 'MIGRATION_MISSING', migrationName: FIRST });
  });

  it('rolls a failing migration back entirely, records nothing, and applies it once fixed', async () => {
    const broken = [
      'CREATE TABLE "second" ("id" INTEGER NOT NULL PRIMARY KEY);',
      'INSERT INTO "second" ("id") VALUES (1);',
      'SELECT * FROM "no_such_table";',
    ].join('\n');
    fixture = await createMigrationsFixture({ [FIRST]: FIRST_SQL, [SECOND]: broken });

    const run = applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });

    await expect(run).rejects.toBeInstanceOf(MigrationFailedError);
    await expect(run).rejects.toMatchObject({
      code: 'MIGRATION_FAILED',
      migrationName: SECOND,
      message: expect.stringMatching(new RegExp(`${SECOND}.*no_such_table`)),
    });
    // The first migration committed on its own; nothing of the second remains.
    expect(await recorded()).toEqual([FIRST]);
    expect(await tables()).toContain('first');
    expect(await tables()).not.toContain('second');

    await fixture.write(SECOND, SECOND_SQL);
    const retry = await applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });

    expect(retry.applied).toEqual([SECOND]);
  });

  it('commits a migration and its _prisma_migrations row together or not at all', async () => {
    // The script succeeds but makes recording its own row fail: if script and row were
    // separate transactions, table "second" would stay behind, unrecorded.
    const refusesItsRow = [
      SECOND_SQL,
      `ALTER TABLE _prisma_migrations ADD CONSTRAINT "refuse_second" CHECK (migration_name <> '${SECOND}');`,
    ].join('\n');
    fixture = await createMigrationsFixture({ [FIRST]: FIRST_SQL, [SECOND]: refusesItsRow });

    await expect(applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir })).rejects.toMatchObject({
      code: 'MIGRATION_FAILED',
      migrationName: SECOND,
    });

    expect(await recorded()).toEqual([FIRST]);
    expect(await tables()).not.toContain('second');
  });

  it('writes _prisma_migrations exactly as prisma migrate deploy does', async () => {
    const started = new Date();
    await applyMigrations({ databaseUrl: db.url });

    const columns = await query(
      `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
         FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      {
        column_name: 'id',
        data_type: 'character varying',
        character_maximum_length: 36,
        is_nullable: 'NO',
        column_default: null,
      },
      {
        column_name: 'checksum',
        data_type: 'character varying',
        character_maximum_length: 64,
        is_nullable: 'NO',
        column_default: null,
      },
      {
        column_name: 'finished_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'migration_name',
        data_type: 'character varying',
        character_maximum_length: 255,
        is_nullable: 'NO',
        column_default: null,
      },
      {
        column_name: 'logs',
        data_type: 'text',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'rolled_back_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'YES',
        column_default: null,
      },
      {
        column_name: 'started_at',
        data_type: 'timestamp with time zone',
        character_maximum_length: null,
        is_nullable: 'NO',
        column_default: 'now()',
      },
      {
        column_name: 'applied_steps_count',
        data_type: 'integer',
        character_maximum_length: null,
        is_nullable: 'NO',
        column_default: '0',
      },
    ]);
    const primaryKey = await query(
      `SELECT a.attname::text AS column FROM pg_index i
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = '_prisma_migrations'::regclass AND i.indisprimary`,
    );
    expect(primaryKey).toEqual([{ column: 'id' }]);

    const rows = await query<Record<string, unknown>>(
      'SELECT * FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows).toHaveLength(REPO_MIGRATIONS.length);
    for (const [i, row] of rows.entries()) {
      const name = REPO_MIGRATIONS[i]!;
      const script = await readFile(join(REPO_MIGRATIONS_DIR, name, 'migration.sql'));
      expect(row).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        checksum: createHash('sha256').update(script).digest('hex'),
        finished_at: expect.any(Date),
        migration_name: name,
        logs: null,
        rolled_back_at: null,
        started_at: expect.any(Date),
        applied_steps_count: 1,
      });
      const startedAt = row.started_at as Date;
      const finishedAt = row.finished_at as Date;
      // Allow for clock skew between this process and the server.
      expect(startedAt.getTime()).toBeGreaterThan(started.getTime() - 60_000);
      expect(finishedAt.getTime()).toBeGreaterThanOrEqual(startedAt.getTime());
    }
  });

  it('refuses to run past a migration that prisma migrate deploy left failed, until it is rolled back', async () => {
    fixture = await createMigrationsFixture({ [FIRST]: FIRST_SQL, [SECOND]: SECOND_SQL });
    await fixture.remove(SECOND);
    await applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });
    await fixture.write(SECOND, SECOND_SQL);
    // What Prisma leaves behind when a migration fails: started, not finished, logs set.
    await query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, applied_steps_count)
       VALUES (gen_random_uuid()::text, $1, $2, 'ERROR: boom', 0)`,
      [createHash('sha256').update(SECOND_SQL).digest('hex'), SECOND],
    );

    const run = applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });

    await expect(run).rejects.toBeInstanceOf(MigrationPreviouslyFailedError);
    await expect(run).rejects.toMatchObject({ code: 'MIGRATION_PREVIOUSLY_FAILED', migrationName: SECOND });

    // `prisma migrate resolve --rolled-back` marks the row; the migration is then pending again.
    await query('UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1', [SECOND]);
    const retry = await applyMigrations({ databaseUrl: db.url, migrationsDir: fixture.dir });

    expect(retry.applied).toEqual([SECOND]);
  });
});

describe('ensureDatabase', () => {
  it('creates a missing database once, quoting its name', async () => {
    // Upper case, a hyphen and a double quote: valid only as a quoted identifier.
    const name = `touchbase_test_Ensure-"q"_${randomBytes(4).toString('hex')}`;
    const server = new URL(
      process.env.TEST_DATABASE_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
    );
    const url = new URL(server);
    url.pathname = `/${encodeURIComponent(name)}`;
    try {
      expect(await ensureDatabase(url.toString())).toBe(true);
      expect(await ensureDatabase(url.toString())).toBe(false);
      const found = await withClient(
        server.toString(),
        async (client) =>
          (await client.query('SELECT datname FROM pg_database WHERE datname = $1', [name])).rowCount,
      );
      expect(found).toBe(1);
      // The URL works as a database URL for the runner too.
      expect((await applyMigrations({ databaseUrl: url.toString() })).applied).toEqual(REPO_MIGRATIONS);
    } finally {
      await withClient(server.toString(), (client) =>
        client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
      );
    }
  });
});

describe('when PostgreSQL cannot be reached', () => {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  const url = 'postgresql://touchbase:s3cret-password@127.0.0.1:1/touchbase';

  it.each([
    ['applyMigrations', () => applyMigrations({ databaseUrl: url })],
    ['ensureDatabase', () => ensureDatabase(url)],
  ])('%s says where it tried and how to start a server, without the password', async (_name, run) => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect(error).toMatchObject({ code: 'DATABASE_UNREACHABLE', address: '127.0.0.1:1' });
    const message = (error as Error).message;
    expect(message).toContain('Could not connect to PostgreSQL at 127.0.0.1:1');
    expect(message).toContain('docker compose up -d postgres');
    expect(message).toContain('postgresql');
    expect(message).not.toContain('s3cret-password');
  });
});
