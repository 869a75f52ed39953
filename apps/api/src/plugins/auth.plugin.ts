import { bearerToken } from '@touchbase/providers';
import { sendProblem } from '@touchbase/runtime';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
} from 'fastify';
import { scopeAllows } from '../auth/api-scope.js';
import { type Authenticator, LOCAL_PRINCIPAL, type Principal } from '../auth/authenticator.js';
import { loginPage, safeNext } from '../auth/login-page.js';
import { readSessionCookie } from '../auth/session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is acting, for the audit log: the key's name (`admin` for ADMIN_TOKEN, `local` when open). */
    actor: string;
    /** The checked credentials of a request of the guarded scope; null elsewhere. */
    principal: Principal | null;
  }
}

/** The request decorations the guard fills; called once on the root instance. */
export function decorateAuth(app: FastifyInstance): void {
  app.decorateRequest('actor', 'anonymous');
  app.decorateRequest('principal', null);
}

export type GuardedScopeOptions = {
  authenticator: Authenticator;
  /** Registers every guarded route (and the plugins that add routes) on the scope. */
  routes: (scope: FastifyInstance) => Promise<void>;
};

/**
 * The guarded scope: an encapsulated plugin (deliberately not wrapped in
 * fastify-plugin) whose `onRequest` hook authenticates every request routed to
 * one of its routes (`/v1`, Bull Board, guarded `/docs` and `/metrics`, any later
 * UI page). The guard hangs on the route the router picked, not on the URL text,
 * so no spelling of a path (percent-encoding, `//`, `/./`, `;params`, case)
 * reaches a handler without it: a spelling the router does not resolve is a 404
 * and never runs a handler.
 *
 * Every route of the scope declares the scope a key needs (`config.scope`); the
 * API refuses to start when one does not, and the doc shows it (`x-scope`).
 */
export const guardedScope: FastifyPluginAsync<GuardedScopeOptions> = async (scope, opts) => {
  const routes: RouteOptions[] = [];
  scope.addHook('onRoute', (route) => {
    routes.push(route);
  });
  // At onReady, not onRoute: a nested plugin's onRoute hook (withScope) runs after this
  // scope's, so only now is every route's scope known.
  scope.addHook('onReady', async () => {
    const undeclared = routes.filter((r) => !r.config?.scope).map((r) => `${r.method} ${r.url}`);
    if (undeclared.length > 0)
      throw new Error(
        `Guarded routes must declare config.scope (read, write or admin): ${undeclared.join(', ')}`,
      );
    for (const route of routes) {
      route.schema = {
        ...route.schema,
        security: [{ bearer: [] }, { session: [] }],
        'x-scope': route.config?.scope,
      } as RouteOptions['schema'];
    }
  });

  scope.addHook('onRequest', async (req, reply) => {
    const principal = await authenticate(opts.authenticator, req);
    if (!principal) return refuseUnauthenticated(req, reply);
    req.principal = principal;
    req.actor = principal.actor;
    const required = req.routeOptions.config.scope;
    if (!required) {
      // Unreachable after the onReady check; fail closed rather than trust it.
      req.log.error(
        { url: req.routeOptions.url, method: req.method },
        'Guarded route without a scope refused',
      );
      return sendProblem(reply, { status: 500, title: 'Route declares no scope', code: 'internal' });
    }
    if (!scopeAllows(principal.scope, required)) {
      reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${required}"`);
      return sendProblem(reply, {
        status: 403,
        title: 'Forbidden',
        code: 'insufficient_scope',
        detail: `this route needs a key with the ${required} scope; this key has ${principal.scope}`,
        requiredScope: required,
        grantedScope: principal.scope,
      });
    }
  });

  await opts.routes(scope);
};

/**
 * Registers a plugin whose routes cannot declare a scope themselves (Bull Board,
 * swagger-ui, /metrics) with every route given `scope`.
 */
export function withScope<O extends object>(
  scope: 'read' | 'write' | 'admin',
  plugin: FastifyPluginAsync<O>,
  opts: O,
): FastifyPluginAsync {
  return async (child) => {
    child.addHook('onRoute', (route) => {
      route.config = { ...route.config, scope: route.config?.scope ?? scope };
    });
    await child.register(plugin, opts);
  };
}

/**
 * A Bearer token wins (a wrong one is a 401, never a fall-back to the cookie);
 * then the session cookie of the login form; then the open mode, while no
 * credential exists at all.
 */
async function authenticate(authenticator: Authenticator, req: FastifyRequest): Promise<Principal | null> {
  const bearer = bearerToken(req.headers.authorization);
  if (bearer !== undefined) return authenticator.fromSecret(bearer);
  const session = readSessionCookie(req, Date.now());
  if (session) return authenticator.fromSession(session);
  return (await authenticator.isOpen()) ? LOCAL_PRINCIPAL : null;
}

/**
 * 401. A browser asking for a page gets the login form in the body (still a 401,
 * not a redirect: nothing guarded answers 3xx without credentials); anything else
 * gets problem+json and `WWW-Authenticate: Bearer`.
 */
function refuseUnauthenticated(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('www-authenticate', 'Bearer');
  const wantsPage = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
  if (wantsPage) {
    return reply
      .code(401)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(loginPage({ next: safeNext(req.url) }));
  }
  return sendProblem(reply, {
    status: 401,
    title: 'Unauthorized',
    code: 'unauthorized',
    detail: 'a valid API key is required: Authorization: Bearer <key>, or sign in at /login',
  });
}
