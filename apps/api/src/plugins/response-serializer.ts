import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';

/** The paths (`items.0.createdAt`) present in `given` and absent from `sent`, both plain JSON. */
export function droppedPaths(given: unknown, sent: unknown, at = ''): string[] {
  if (Array.isArray(given)) {
    if (!Array.isArray(sent)) return [];
    return given.flatMap((g, i) => droppedPaths(g, sent[i], `${at}${i}.`));
  }
  if (given === null || typeof given !== 'object') return [];
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return [];
  const out = sent as Record<string, unknown>;
  return Object.entries(given as Record<string, unknown>).flatMap(([key, value]) =>
    Object.hasOwn(out, key) ? droppedPaths(value, out[key], `${at}${key}.`) : [`${at}${key}`],
  );
}

/** A field the handler answered that its response schema does not declare (so it was not sent). */
export class UndeclaredResponseFieldError extends Error {
  constructor(
    readonly route: string,
    readonly paths: string[],
  ) {
    super(
      `${route}: the answer has fields its response schema does not declare, so they were dropped: ${paths.slice(0, 20).join(', ')}`,
    );
    this.name = 'UndeclaredResponseFieldError';
  }
}

/** Outside strict mode, a route's answers compared first, then one in {@link CHECKED_ONE_IN}. */
const CHECKED_FIRST = 100;
const CHECKED_ONE_IN = 1024;

/**
 * fastify-type-provider-zod's serializer (the response schema encodes the answer, dates
 * become ISO strings), which also compares what the handler gave with what the schema let
 * through: a field the schema does not declare is dropped from the answer by zod, silently.
 * `strict` (the tests) throws then for a success, so a route whose schema misses a field
 * fails its test; otherwise (and for problem documents, whose schema keeps `field` and
 * `message` of each error by design) each route's first drop is logged as a warning and
 * the answer goes out; there the comparison samples a route's answers (its first 100, then
 * one in 1,024, none after its warning), so a production answer costs its encoding alone. A success whose values do not match their schema (a type the schema
 * does not allow) is a 500 with `strict`; otherwise it goes out unchecked, logged as an error.
 */
export function checkedSerializerCompiler(opts: {
  strict: boolean;
  log: {
    warn(fields: { route: string; dropped: string[] }, msg: string): void;
    error(fields: { route: string; err: unknown }, msg: string): void;
  };
}): FastifySerializerCompiler<unknown> {
  const warned = new Set<string>();
  const compile = serializerCompiler as unknown as FastifySchemaCompiler<unknown>;
  return (route) => {
    const serialize = compile(route) as unknown as (data: unknown) => string;
    const where = `${route.method} ${route.url} ${route.httpStatus}`;
    // Problem documents keep the members they declare (errors: field and message) by design.
    const success = String(route.httpStatus).startsWith('2');
    // Outside strict tests the comparison (a second JSON.stringify of every answer) is a
    // sample: a route's first CHECKED_FIRST answers, then one in CHECKED_ONE_IN, and none
    // once it has warned, as it warns once. A production answer pays for its encoding only.
    let answered = 0;
    let routeWarned = false;
    const compared = () => {
      if (opts.strict) return true;
      if (routeWarned) return false;
      answered++;
      return answered <= CHECKED_FIRST || answered % CHECKED_ONE_IN === 0;
    };
    return (data: unknown) => {
      let sent: string;
      try {
        sent = serialize(data);
      } catch (err) {
        // A success that does not match its schema (a value of another type than declared):
        // the tests fail on it; a live client still gets its answer, and the log says why.
        if (opts.strict || !success) throw err;
        opts.log.error(
          { route: where, err },
          'Response does not match its schema: sent as the handler gave it',
        );
        return JSON.stringify(data);
      }
      if (!compared()) return sent;
      const given = JSON.stringify(data);
      if (given === undefined || given === sent) return sent;
      const dropped = droppedPaths(JSON.parse(given), JSON.parse(sent));
      if (dropped.length === 0) return sent;
      if (opts.strict && success) throw new UndeclaredResponseFieldError(where, dropped);
      routeWarned = true;
      if (!warned.has(where)) {
        warned.add(where);
        opts.log.warn(
          { route: where, dropped: dropped.slice(0, 20) },
          'Response fields not in the schema were dropped',
        );
      }
      return sent;
    };
  };
}
