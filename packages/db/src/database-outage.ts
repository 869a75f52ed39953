/**
 * Why PostgreSQL could not serve a query, as far as the error tells: it could not
 * be reached, the connection was lost, connecting timed out, the server is
 * shutting down or starting up, or it has no connection slot left. Each is
 * transient: the same request may succeed once the server is back.
 */
export type DatabaseOutage =
  | 'unreachable'
  | 'connection_lost'
  | 'timeout'
  | 'shutting_down'
  | 'too_many_connections';

/** Socket errors of the connection to the server (node `net`, as `pg` reports them). */
const SOCKET_CODES: Record<string, DatabaseOutage> = {
  ECONNREFUSED: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ECONNRESET: 'connection_lost',
  ECONNABORTED: 'connection_lost',
  EPIPE: 'connection_lost',
  ETIMEDOUT: 'timeout',
};

/** SQLSTATEs of an unavailable server (class 08 is handled as a whole below). */
const SQLSTATES: Record<string, DatabaseOutage> = {
  '08001': 'unreachable', // sqlclient_unable_to_establish_sqlconnection
  '08004': 'unreachable', // sqlserver_rejected_establishment_of_sqlconnection
  '57P01': 'shutting_down', // admin_shutdown (a stop, a terminated backend)
  '57P02': 'shutting_down', // crash_shutdown
  '57P03': 'shutting_down', // cannot_connect_now (starting up, in recovery)
  '53300': 'too_many_connections',
};

/** Prisma's codes for the same, when a query went through the Prisma client. */
const PRISMA_CODES: Record<string, DatabaseOutage> = {
  P1001: 'unreachable', // can't reach database server
  P1002: 'timeout', // reached but timed out
  P1008: 'timeout', // operations timed out
  P1017: 'connection_lost', // server has closed the connection
  P2024: 'timeout', // timed out fetching a connection from the pool
  P2037: 'too_many_connections',
};

/** What Prisma's driver adapter (`@prisma/adapter-pg`) calls them. */
const ADAPTER_KINDS: Record<string, DatabaseOutage> = {
  DatabaseNotReachable: 'unreachable',
  ConnectionClosed: 'connection_lost',
  SocketTimeout: 'timeout',
  TooManyConnections: 'too_many_connections',
};

/** `pg` and `pg-pool` say these in words only, without a code. */
const MESSAGES: [RegExp, DatabaseOutage][] = [
  [/Connection terminated due to connection timeout/, 'timeout'],
  [/timeout exceeded when trying to connect/, 'timeout'],
  [/Connection terminated/, 'connection_lost'],
  [/Client has encountered a connection error and is not queryable/, 'connection_lost'],
];

type ErrorLike = {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
};

/**
 * Whether an error means the database is unavailable (and why), rather than that
 * the query was wrong: `pg` socket errors, connection-class SQLSTATEs (08xxx,
 * 57P01/02/03, 53300), pool connect timeouts, and Prisma's wrappings of the same
 * (its P1xxx codes, or the driver adapter's error in `meta`). Only those wrappings
 * and AggregateError's `errors` are looked into, not any `cause`: a failed HTTP
 * call (`fetch failed`, caused by ECONNREFUSED) is no database outage.
 * @returns the reason, or null for any other error.
 */
export function databaseOutageOf(err: unknown): DatabaseOutage | null {
  return outageOf(err, 0);
}

function outageOf(err: unknown, depth: number): DatabaseOutage | null {
  if (typeof err !== 'object' || err === null || depth > 3) return null;
  const e = err as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : typeof e.originalCode === 'string' ? e.originalCode : '';
  const byCode =
    SOCKET_CODES[code] ??
    SQLSTATES[code] ??
    PRISMA_CODES[code] ??
    (/^08[0-9A-Z]{3}$/.test(code) ? 'connection_lost' : undefined);
  if (byCode) return byCode;
  if (typeof e.kind === 'string' && ADAPTER_KINDS[e.kind]) return ADAPTER_KINDS[e.kind]!;
  const adapterError = e.meta?.driverAdapterError?.cause;
  if (adapterError) {
    const inner = outageOf(adapterError, depth + 1);
    if (inner) return inner;
  }
  // Node's connect to every address of a host fails as one AggregateError.
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const found = outageOf(inner, depth + 1);
      if (found) return found;
    }
  }
  const message = typeof e.message === 'string' ? e.message : '';
  for (const [pattern, outage] of MESSAGES) if (pattern.test(message)) return outage;
  return null;
}
