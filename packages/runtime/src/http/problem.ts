import { DomainError, type DomainErrorCode } from '@touchbase/core';
import { type DatabaseOutage, databaseOutageOf } from '@touchbase/db';
import { isRedisOutage } from '@touchbase/queues';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodError } from 'zod';
import type { FieldError, Problem } from './problem.types.js';
import { problemOfError } from './problem-of-error.js';

export type { FieldError, Problem } from './problem.types.js';

const STATUS: Record<DomainErrorCode, number> = {
  not_found: 404,
  suppressed: 409,
  already_enrolled: 409,
  in_other_sequence: 409,
  cooling_off: 409,
  invalid_state: 409,
  domain_paused: 409,
  mailbox_paused: 409,
  invalid_sequence: 422,
  invalid_migration: 422,
  population_changed: 409,
  conflict: 409,
};

/** How long a client is told to wait (Retry-After, seconds) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const OUTAGE_DETAIL: Record<DatabaseOutage, string> = {
  unreachable: 'it cannot be reached',
  connection_lost: 'the connection to it was lost',
  timeout: 'connecting to it timed out',
  shutting_down: 'it is shutting down or starting up',
  too_many_connections: 'it has no connection left',
};

/** A problem's document as sent: `type` derived from its code unless given. */
export function problemDocument(problem: Omit<Problem, 'type'> & { type?: string }): Problem {
  return {
    type: problem.type ?? `https://touchbase.dev/problems/${problem.code ?? problem.status}`,
    ...problem,
  } as Problem;
}

/** Sends an RFC 9457 problem+json response. */
export function sendProblem(
  reply: FastifyReply,
  problem: Omit<Problem, 'type'> & { type?: string },
): FastifyReply {
  return reply
    .code(problem.status as number)
    .type('application/problem+json')
    .send(problemDocument(problem));
}

/** A zod failure as field errors (`steps.1.subject: Required`). */
export function fieldErrors(error: ZodError, prefix = ''): FieldError[] {
  return error.issues.map((i) => ({
    field: [prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(body)',
    message: i.message,
  }));
}

/**
 * The problem+json of a database outage: 503 with Retry-After, so a client (a
 * provider redelivering a webhook) tries again rather than giving up.
 */
export function sendDatabaseUnavailable(
  reply: FastifyReply,
  outage: DatabaseOutage,
  retryAfterSec = DATABASE_RETRY_AFTER_SECONDS,
): FastifyReply {
  reply.header('retry-after', String(retryAfterSec));
  return sendProblem(reply, databaseUnavailable(outage, retryAfterSec));
}

function databaseUnavailable(outage: DatabaseOutage, retryAfterSec: number): Omit<Problem, 'type'> {
  return {
    status: 503,
    title: 'Database unavailable',
    code: 'database_unavailable',
    detail: `The database is unavailable: ${OUTAGE_DETAIL[outage]}. Retry after ${retryAfterSec} s.`,
    reason: outage,
  };
}

/** What an error becomes over HTTP: the problem document and the headers that go with it. */
export type ProblemAnswer = { problem: Problem; headers: Record<string, string> };

/** Where {@link problemAnswerOf} logs the failures it expects (outages) and those it does not. */
export type ProblemLog = {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/**
 * The one place errors become HTTP: validation → 400 naming each field, domain
 * errors → their status by code, the errors with a stable code of webhooks,
 * CRM lookups and unsubscribe links → theirs ({@link problemOfError}), the
 * database being unavailable (unreachable,
 * connection lost, shutting down) or Redis being away → 503 with Retry-After, anything else → 500
 * without internals. Registered as Fastify's error handler by
 * {@link registerProblemHandler}; a route served outside Fastify (ingest's webhook
 * fast path) answers its errors with it too, so both answer alike.
 */
export function problemAnswerOf(
  err: FastifyError,
  log: ProblemLog,
  opts: { databaseRetryAfterSec?: number } = {},
): ProblemAnswer {
  const answer = (
    problem: Omit<Problem, 'type'> & { type?: string },
    headers: Record<string, string> = {},
  ): ProblemAnswer => ({ problem: problemDocument(problem), headers });
  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext ?? 'body';
    const errors = err.validation.map((v) => ({
      field: [where, ...v.instancePath.split('/').filter(Boolean)].join('.'),
      message: v.message ?? 'invalid',
    }));
    return answer({
      status: 400,
      title: 'Invalid request',
      code: 'validation_failed',
      detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    });
  }
  if (err instanceof DomainError) {
    // Details are extensions; they never override the members RFC 9457 defines.
    return answer({
      ...err.details,
      status: STATUS[err.code],
      title: err.message,
      code: err.code,
      detail: err.message,
    });
  }
  const known = problemOfError(err);
  if (known) return answer(known.problem, known.headers ?? {});
  const retryAfterSec = opts.databaseRetryAfterSec ?? DATABASE_RETRY_AFTER_SECONDS;
  const outage = databaseOutageOf(err);
  if (outage) {
    // Expected while PostgreSQL is away: one line, not a stack per request.
    log.warn({ reason: outage, err: err.message }, 'Request failed: database unavailable');
    return answer(databaseUnavailable(outage, retryAfterSec), { 'retry-after': String(retryAfterSec) });
  }
  if (isRedisOutage(err)) {
    // The queues' store is away: as transient as the database being away.
    log.warn({ err: err.message }, 'Request failed: Redis unavailable');
    return answer(
      {
        status: 503,
        title: 'Queue store unavailable',
        code: 'redis_unavailable',
        detail: `Redis, where the schedule is kept, is unavailable. Retry after ${retryAfterSec} s.`,
      },
      { 'retry-after': String(retryAfterSec) },
    );
  }
  const status = err.statusCode ?? 500;
  if (status < 500) {
    // Fastify's own 4xx: a body that is not JSON, too large, a wrong content type.
    return answer({ status, title: err.message, code: err.code ?? 'bad_request', detail: err.message });
  }
  log.error({ err }, 'Request failed');
  return answer({ status: 500, title: 'Internal Server Error', code: 'internal' });
}

/** Registers the 404 handler and {@link problemAnswerOf} as the app's error handler. */
export function registerProblemHandler(
  app: FastifyInstance,
  opts: { databaseRetryAfterSec?: number } = {},
): void {
  app.setNotFoundHandler((req, reply) =>
    sendProblem(reply, {
      status: 404,
      title: 'Not Found',
      code: 'route_not_found',
      detail: `${req.method} ${req.url.split('?')[0]} is not a route`,
    }),
  );
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const { problem, headers } = problemAnswerOf(err, req.log, opts);
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    return reply.code(problem.status).type('application/problem+json').send(problem);
  });
}
