import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { databaseOutageOf } from './database-outage.js';
import { PrismaClient } from './generated/prisma/client.js';

export type { PrismaClient };

/** One pool per process, shared by Prisma (through its pg adapter) and the hot-path SQL. */
export type Database = {
  pool: pg.Pool;
  prisma: PrismaClient;
  close(): Promise<void>;
};

/** Thrown when PostgreSQL cannot be reached at boot; says how to get it. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  readonly code = 'database_unavailable';
  constructor(url: string, cause: unknown, variable = 'DATABASE_URL') {
    const u = new URL(url);
    super(
      `Could not connect to PostgreSQL at ${u.hostname}:${u.port || 5432} (${(cause as Error)?.message ?? cause}). ` +
        `Start it with \`docker compose up -d postgres\`, or install the OS package (apt-get install postgresql); set ${variable} if it runs elsewhere.`,
      { cause },
    );
  }
}

/**
 * Opens the database. `pg` returns BIGINT as string by default; our bigints are
 * sequence numbers well below 2^53, so they are parsed as numbers. With
 * `connectTimeoutMs`, taking a connection (opening one, or waiting for a free one)
 * fails after that long instead of waiting for as long as the server is unreachable.
 */
export function createDatabase(
  url: string,
  opts: {
    poolSize?: number;
    connectTimeoutMs?: number;
    /** Told when an idle pooled connection loses its server (a restart, a failover). */
    onIdleError?: (err: Error) => void;
  } = {},
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    ...(opts.connectTimeoutMs ? { connectionTimeoutMillis: opts.connectTimeoutMs } : {}),
  });
  // An idle client that loses its server must not crash the process; the pool
  // replaces it and the next query reports the failure where it can be handled.
  pool.on('error', (err) => opts.onIdleError?.(err));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    pool,
    prisma,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** Runs `fn` in one transaction on one pooled client (READ COMMITTED). */
export async function inTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  /** What opens it: `BEGIN`, or `BEGIN` with `SET LOCAL`s in the same round trip. */
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  // A checked-out client has no error listener (pg-pool removes its idle one), so a
  // connection reset between two statements would be an uncaught 'error' event and
  // take the whole process down. Keep it: the statement in flight rejects anyway,
  // and the broken client is discarded on release instead of going back to the pool.
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
  };
  client.on('error', onError);
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A client that cannot roll back must not go back to the pool with its transaction
    // open: it is discarded on release. The error to report is still the first one.
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      broken ??= rollbackErr;
    });
    broken ??= databaseOutageOf(err) ? (err as Error) : undefined;
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Checks the server answers (and, unless the database is about to be created,
 * that the database exists), with a message saying how to get PostgreSQL.
 */
export async function assertDatabaseReachable(
  url: string,
  serverOnly: boolean,
  /** The variable the URL came from, named in the error. */
  variable = 'DATABASE_URL',
): Promise<void> {
  const target = new URL(url);
  if (serverOnly) target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: 3000 });
  // The failure that fires 'error' also rejects the connect or query below, which reports it.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    if ((err as { code?: string }).code === '3D000') {
      throw new DatabaseUnavailableError(
        url,
        new Error(`database ${new URL(url).pathname.slice(1)} does not exist; run \`npx touchbase migrate\``),
        variable,
      );
    }
    throw new DatabaseUnavailableError(url, err, variable);
  } finally {
    // pg's Client.end() never rejects (test/pg-client-end.test.ts), so the error above stays the one given.
    await client.end();
  }
}
