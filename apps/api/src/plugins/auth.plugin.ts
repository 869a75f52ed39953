import { bearerToken, secretMatches } from '@touchbase/providers';
import { sendProblem } from '@touchbase/runtime';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is acting, for the audit log. */
    actor: string;
  }
}

/**
 * Bearer-token guard for `/v1` and `/admin` (Bull Board has no authentication of
 * its own). Without ADMIN_TOKEN the API is open, which the boot log warns about.
 */
export function registerAuth(app: FastifyInstance, token: string | undefined): void {
  app.decorateRequest('actor', 'anonymous');

  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/v1') && !req.url.startsWith('/admin')) return;
    if (!token) return;
    const given = bearerToken(req.headers.authorization);
    if (given === undefined || !secretMatches(given, token)) {
      reply.header('www-authenticate', 'Bearer');
      return sendProblem(reply, {
        status: 401,
        title: 'Unauthorized',
        code: 'unauthorized',
        detail: 'a valid Bearer token is required',
      });
    }
    req.actor = 'admin';
  });
}
