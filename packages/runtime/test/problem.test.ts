import { DomainError } from '@touchbase/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS, registerProblemHandler } from '../src/index.js';

/** A server error as pg raises it (pg-protocol's DatabaseError: its SQLSTATE in `code`). */
const serverError = (code: string, message: string) =>
  Object.assign(new Error(message), { name: 'error', code, severity: 'FATAL' });

/** Errors a route may meet, as pg, pg-pool and Prisma's pg adapter raise them. */
const THROWN: Record<string, () => unknown> = {
  refused: () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  reset: () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  terminated: () => new Error('Connection terminated unexpectedly'),
  'pool-timeout': () => new Error('timeout exceeded when trying to connect'),
  'admin-shutdown': () => serverError('57P01', 'terminating connection due to administrator command'),
  'starting-up': () => serverError('57P03', 'the database system is starting up'),
  'prisma-closed': () =>
    Object.assign(new Error('Server has closed the connection.'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2010',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } } },
    }),
  'prisma-unreachable': () =>
    Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), {
      name: 'PrismaClientKnownRequestError',
      code: 'P1001',
    }),
  'unique-violation': () => serverError('23505', 'duplicate key value violates unique constraint'),
  bug: () => new TypeError("Cannot read properties of undefined (reading 'id')"),
  'fetch-failed': () =>
    new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3002'), { code: 'ECONNREFUSED' }),
    }),
  'not-found': () => new DomainError('not_found', 'Enrollment not found'),
};

async function build(opts?: { databaseRetryAfterSec?: number }): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerProblemHandler(app, opts);
  app.get<{ Params: { kind: string } }>('/throw/:kind', async (req) => {
    throw THROWN[req.params.kind]!();
  });
  await app.ready();
  return app;
}

/**
 * The one error handler: PostgreSQL being unavailable (connection errors of pg,
 * pg-pool and Prisma) is a 503 problem+json with Retry-After, so clients and
 * webhook providers try again; any other failure stays a 500 without internals.
 */
describe('problem handler: database unavailable → 503', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await build();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['refused', 'cannot be reached'],
    ['reset', 'connection to it was lost'],
    ['terminated', 'connection to it was lost'],
    ['pool-timeout', 'timed out'],
    ['admin-shutdown', 'shutting down'],
    ['starting-up', 'shutting down or starting up'],
    ['prisma-closed', 'connection to it was lost'],
    ['prisma-unreachable', 'cannot be reached'],
  ])('%s → 503 problem+json with Retry-After', async (kind, why) => {
    const res = await app.inject({ method: 'GET', url: `/throw/${kind}` });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    const body = res.json();
    expect(body).toMatchObject({
      type: 'https://touchbase.dev/problems/database_unavailable',
      title: 'Database unavailable',
      status: 503,
      code: 'database_unavailable',
    });
    expect(body.detail).toMatch(/^The database is unavailable/);
    expect(body.detail).toContain(why);
    // No internals: neither the driver's message nor an address.
    expect(res.body).not.toMatch(/127\.0\.0\.1|ECONN|57P0|P2010/);
  });

  it.each([
    ['unique-violation', 500],
    ['bug', 500],
    ['fetch-failed', 500],
    ['not-found', 404],
  ])('%s is no outage: %i, without Retry-After', async (kind, status) => {
    const res = await app.inject({ method: 'GET', url: `/throw/${kind}` });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('Retry-After as configured', async () => {
    const other = await build({ databaseRetryAfterSec: 30 });
    try {
      const res = await other.inject({ method: 'GET', url: '/throw/refused' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json().detail).toContain('30 s');
    } finally {
      await other.close();
    }
  });
});
