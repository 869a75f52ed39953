import { randomBytes } from 'node:crypto';
import pg from 'pg';
// Relative, not `@touchbase/db`: that package exports only its index, and the runner
// must not pull the Prisma client into every test that needs a database.
import { applyMigrations } from '../../db/src/migrate/migration-runner.js';
import { connectPostgres } from '../../db/src/migrate/postgres-connect.js';

const DEFAULT_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

// PostgreSQL truncates identifiers to 63 bytes; keep room for the prefix and the suffix.
const MAX_LABEL_LENGTH = 30;

/** A throwaway database with every migration applied. */
export interface TestDatabase {
  /** Connection URL of the database, for Prisma or pg. */
  url: string;
  /** Its name: `touchbase_test_<label>_<random>`. */
  name: string;
  /** Ends every connection to it and drops it. Safe to call twice. */
  drop(): Promise<void>;
}

/**
 * Creates a database of its own for a test file on the server of `TEST_DATABASE_SERVER_URL`
 * (default `postgresql://postgres@127.0.0.1:5432/postgres`) and applies prisma/migrations,
 * so tests run side by side without sharing rows. Call `drop()` in `afterAll`.
 *
 * @param label a hint of who owns it, shown in the name (lowercased, reduced to `[a-z0-9_]`).
 */
export async function createTestDatabase(label = 'db'): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL || DEFAULT_SERVER_URL;
  const safeLabel =
    label
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .slice(0, MAX_LABEL_LENGTH) || 'db';
  const name = `touchbase_test_${safeLabel}_${randomBytes(4).toString('hex')}`;

  await onServer(serverUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;

  const drop = () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  try {
    await applyMigrations({ databaseUrl: url.toString() });
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), name, drop };
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  // connectPostgres: when no server runs, the test fails saying how to start one.
  const client = await connectPostgres(serverUrl);
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
