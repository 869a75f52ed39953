import { ProblemSchema } from '@touchbase/runtime';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** A problem+json response of the OpenAPI document, for a status an operation declares itself. */
export const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema } },
});

/**
 * The error answers every guarded `/v1` route can give, whatever it does: the
 * guard's (401, 403), the rate limit's (429), the one problem handler's (400 for a
 * request that fails validation or is not JSON, 404, 503 while PostgreSQL or Redis
 * is away) and a domain error's 4xx (409, 413, 422). Each is problem+json.
 */
export const PROBLEM_RESPONSES = {
  400: problemResponse('Invalid request: `errors` names each field and why'),
  401: problemResponse('No valid credentials (an API key as Bearer, or a session after /login)'),
  403: problemResponse('The key lacks the scope this operation needs (`x-scope`): insufficient_scope'),
  404: problemResponse('No such route, or no such entity'),
  '4xx': problemResponse('Another refusal with a stable code: 409 (state or conflict), 413, 422'),
  429: problemResponse('Rate limit of the key reached: Retry-After says when to try again'),
  503: problemResponse('PostgreSQL or Redis is unavailable: Retry-After says when to try again'),
} as const;

/**
 * Adds {@link PROBLEM_RESPONSES} to the schema of every `/v1` route registered in
 * `scope` (an `onRoute` hook, so routes added later, by any plugin, get them too),
 * keeping what a route declares itself. The OpenAPI document then lists each error
 * status, and the serializer checks the problem bodies against the schema.
 */
export function declareProblemResponses(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/v1/')) return;
    const schema = (route.schema ?? {}) as NonNullable<RouteOptions['schema']> & { response?: object };
    route.schema = { ...schema, response: { ...PROBLEM_RESPONSES, ...(schema.response ?? {}) } };
  });
}
