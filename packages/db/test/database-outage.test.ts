import { createServer, type Socket } from 'node:net';
import { freePort } from '@touchbase/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, databaseOutageOf } from '../src/index.js';

/** A loopback TCP server that accepts and then does what it is told, standing in for a sick PostgreSQL. */
async function fakeServer(
  onConnection: (socket: Socket) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {}).on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/touchbase`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

/** A server error as `pg` reports it (pg-protocol's DatabaseError, with its SQLSTATE). */
function databaseError(code: string, message: string): Error {
  return Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code, severity: 'FATAL' });
}

/**
 * Which errors mean "the database is unavailable": the real errors of pg, pg-pool
 * and Prisma's pg adapter against servers that refuse, reset or never answer, and
 * the shapes they take for server-side stops; and which do not.
 */
describe('databaseOutageOf', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    // Each server before its pool (its sockets destroyed): no pool waits on a connection that never ends.
    for (const close of closers) await close();
  });

  it('a refused connection, through pg and through Prisma', async () => {
    const db = createDatabase(`postgresql://postgres@127.0.0.1:${await freePort()}/touchbase`, {
      poolSize: 1,
    });
    closers.push(() => db.close());
    const viaPg = await failureOf(() => db.pool.query('SELECT 1'));
    expect((viaPg as { code: string }).code).toBe('ECONNREFUSED');
    expect(databaseOutageOf(viaPg)).toBe('unreachable');
    const viaPrisma = await failureOf(() => db.prisma.sequence.findMany({ take: 1 }));
    expect((viaPrisma as { code: string }).code).toBe('P1001');
    expect(databaseOutageOf(viaPrisma)).toBe('unreachable');
  });

  it('a connection reset or closed by the server, through pg and through Prisma', async () => {
    const { url, close } = await fakeServer((socket) => socket.resetAndDestroy());
    closers.push(close);
    const db = createDatabase(url, { poolSize: 1 });
    closers.push(() => db.close());
    const viaPg = await failureOf(() => db.pool.query('SELECT 1'));
    expect(databaseOutageOf(viaPg)).toBe('connection_lost');
    const viaPrisma = await failureOf(() => db.prisma.$queryRaw`SELECT 1`);
    expect(databaseOutageOf(viaPrisma)).toBe('connection_lost');

    const closing = await fakeServer((socket) => socket.end());
    closers.push(closing.close);
    const ended = new pg.Pool({ connectionString: closing.url, max: 1 });
    closers.push(() => ended.end());
    const terminated = await failureOf(() => ended.query('SELECT 1'));
    expect((terminated as Error).message).toMatch(/Connection terminated/);
    expect(databaseOutageOf(terminated)).toBe('connection_lost');
  });

  it('a server that never answers: the connect timeout, and the wait for a pooled connection', async () => {
    const { url, close } = await fakeServer(() => {});
    closers.push(close);
    const db = createDatabase(url, { poolSize: 1, connectTimeoutMs: 200 });
    closers.push(() => db.close());
    const [connecting, waiting] = await Promise.all([
      failureOf(() => db.pool.query('SELECT 1')),
      failureOf(() => db.pool.query('SELECT 1')),
    ]);
    expect((connecting as Error).message).toMatch(/connection timeout/);
    expect((waiting as Error).message).toMatch(/timeout exceeded when trying to connect/);
    expect(databaseOutageOf(connecting)).toBe('timeout');
    expect(databaseOutageOf(waiting)).toBe('timeout');
  });

  it('a server shutting down, starting up, out of connections, or a broken connection (SQLSTATE)', () => {
    expect(
      databaseOutageOf(databaseError('57P01', 'terminating connection due to administrator command')),
    ).toBe('shutting_down');
    expect(databaseOutageOf(databaseError('57P03', 'the database system is starting up'))).toBe(
      'shutting_down',
    );
    expect(databaseOutageOf(databaseError('53300', 'sorry, too many clients already'))).toBe(
      'too_many_connections',
    );
    expect(databaseOutageOf(databaseError('08006', 'connection failure'))).toBe('connection_lost');
    expect(databaseOutageOf(databaseError('08001', 'could not connect'))).toBe('unreachable');
  });

  it("Prisma's wrappings: its P1xxx codes, and the driver adapter's error in meta", () => {
    // The shapes @prisma/adapter-pg 7 gives a raw query whose connection was closed or terminated.
    const prisma = (code: string, cause: object) =>
      Object.assign(new Error('Invalid `prisma.$queryRaw()` invocation'), {
        name: 'PrismaClientKnownRequestError',
        code,
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
      });
    expect(databaseOutageOf(prisma('P2010', { kind: 'ConnectionClosed' }))).toBe('connection_lost');
    expect(
      databaseOutageOf(prisma('P2010', { kind: 'postgres', originalCode: '57P01', code: '57P01' })),
    ).toBe('shutting_down');
    expect(databaseOutageOf(prisma('P1017', { kind: 'ConnectionClosed' }))).toBe('connection_lost');
    expect(databaseOutageOf(prisma('P2037', { kind: 'TooManyConnections' }))).toBe('too_many_connections');
    expect(databaseOutageOf(prisma('P2024', {}))).toBe('timeout');
    // A constraint is no outage.
    expect(databaseOutageOf(prisma('P2002', { kind: 'UniqueConstraintViolation' }))).toBeNull();
  });

  it('every address of a host refusing (AggregateError)', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: 'ECONNREFUSED' });
    expect(databaseOutageOf(new AggregateError([refused('::1'), refused('127.0.0.1')]))).toBe('unreachable');
  });

  it('anything else is not an outage: a query error, a failed HTTP call, Redis, a plain error', () => {
    expect(
      databaseOutageOf(databaseError('23505', 'duplicate key value violates unique constraint')),
    ).toBeNull();
    expect(
      databaseOutageOf(databaseError('57014', 'canceling statement due to statement timeout')),
    ).toBeNull();
    // fetch's failure is caused by a refused connection, to somewhere else than the database.
    const fetchFailed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3002'), { code: 'ECONNREFUSED' }),
    });
    expect(databaseOutageOf(fetchFailed)).toBeNull();
    expect(databaseOutageOf(new Error('Connection is closed.'))).toBeNull();
    expect(databaseOutageOf(new Error('boom'))).toBeNull();
    expect(databaseOutageOf('ECONNREFUSED')).toBeNull();
    expect(databaseOutageOf(null)).toBeNull();
  });
});
