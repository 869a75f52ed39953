import pg from 'pg';
import { databaseOutageOf } from '../database-outage.js';
import { DatabaseMissingError, DatabaseUnreachableError } from './migration.errors.js';

// A black-holed host would otherwise hang for the OS TCP timeout (minutes).
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens one `pg.Client` on `databaseUrl`, turning "server not reachable" and "database does
 * not exist" into {@link DatabaseUnreachableError} and {@link DatabaseMissingError}.
 * The caller owns the client and must `end()` it.
 */
export async function connectPostgres(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'touchbase-migrate',
  });
  // Without a listener, a connection dropped while idle would crash the process; the
  // next query on it rejects with the failure, which the migration run reports.
  client.on('error', () => {});
  try {
    await client.connect();
    return client;
  } catch (error) {
    // pg's Client.end() never rejects (test/pg-client-end.test.ts), so the connect error stays the one reported.
    await client.end();
    throw translateConnectError(error, databaseUrl);
  }
}

/** `host:port` of a PostgreSQL URL: safe to show, unlike the URL with its password. */
export function serverAddress(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname || 'localhost'}:${url.port || '5432'}`;
}

/** The database name in a PostgreSQL URL (its path, percent-decoded). */
export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
}

/**
 * A database that does not exist, or a server that cannot serve us (not listening,
 * unreachable, timing out, starting up or out of connection slots, as the services
 * tell it: databaseOutageOf); a server that answered and refused (bad password,
 * missing role) keeps PostgreSQL's own message.
 */
function translateConnectError(error: unknown, databaseUrl: string): unknown {
  const code = errorCode(error);
  if (code === '3D000') {
    return new DatabaseMissingError(databaseName(databaseUrl), serverAddress(databaseUrl), { cause: error });
  }
  const outage = databaseOutageOf(error);
  if (outage) {
    return new DatabaseUnreachableError(serverAddress(databaseUrl), code ?? outage, { cause: error });
  }
  return error;
}

// Node reports a failed dual-stack connect (localhost → ::1 and 127.0.0.1) as an
// AggregateError whose own code may be missing; the per-address errors carry it.
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const code = errorCode(inner);
      if (code !== undefined) return code;
    }
  }
  return undefined;
}
