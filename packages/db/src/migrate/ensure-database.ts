import pg from 'pg';
import { connectPostgres, databaseName } from './postgres-connect.js';

// duplicate_database, and the catalog's unique violation that a concurrent CREATE DATABASE
// of the same name can raise instead: either way someone else created it first.
const ALREADY_EXISTS_CODES = new Set(['42P04', '23505']);

/**
 * Creates the database named in `databaseUrl` if it does not exist yet, connecting to the
 * `postgres` maintenance database on the same server with the same credentials.
 *
 * @returns whether this call created it.
 * @throws DatabaseUnreachableError when no server answers at the URL's host and port.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const { name, client } = await connectMaintenance(databaseUrl);
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount !== 0) return false;
    // CREATE DATABASE takes no bind parameters: the name is quoted as an identifier.
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== undefined && ALREADY_EXISTS_CODES.has(code)) return false;
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Drops the database named in `databaseUrl` if it exists, ending the sessions still
 * connected to it (WITH (FORCE): a demo left running with --keep holds connections).
 * For state that is made fresh on every run (the demo's own database), never a user's.
 */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const { name, client } = await connectMaintenance(databaseUrl);
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The database `databaseUrl` names, and a connection to the `postgres` maintenance database of its server. */
async function connectMaintenance(databaseUrl: string): Promise<{ name: string; client: pg.Client }> {
  const name = databaseName(databaseUrl);
  if (name === '') throw new Error('The database URL names no database (its path is empty)');
  const maintenanceUrl = new URL(databaseUrl);
  maintenanceUrl.pathname = '/postgres';
  return { name, client: await connectPostgres(maintenanceUrl.toString()) };
}
