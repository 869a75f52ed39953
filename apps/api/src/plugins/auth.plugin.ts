import { createHash, timingSafeEqual } from 'node:crypto';
import { sendProblem } from '@touchbase/runtime';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is acting, for the audit log. */
    actor: string;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Bearer-token guard for `/v1` and `/admin` (Bull Board has no authentication of
 * its own). Without ADMIN_TOKEN the API is open, which the boot log warns about.
 */
export function registerAuth(app: FastifyInstance, token: string | undefined): void {
  app.decorateRequest('actor', 'anonymous');
  const expected = token ? digest(token) : null;
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/v1') && !req.url.startsWith('/admin')) return;
    if (!expected) return;
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? digest(header.slice(7)) : null;
    if (!given || !timingSafeEqual(given, expected)) {
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
