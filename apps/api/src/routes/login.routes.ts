import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_TOKEN_KEY_ID, type Authenticator } from '../auth/authenticator.js';
import { loginPage, safeNext } from '../auth/login-page.js';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../auth/session-cookie.js';

export type LoginRoutesOptions = {
  authenticator: Authenticator;
  sessionTtlMs: number;
};

/**
 * The browser's way in: `GET /login` (a form), `POST /login` (the key typed in
 * it, answered with the session cookie and a 303 to where the browser was going),
 * `POST /logout`. Open routes, outside the guarded scope and the OpenAPI document.
 */
export const loginRoutes: FastifyPluginAsync<LoginRoutesOptions> = async (app, opts) => {
  // Only these routes take HTML form posts; the API proper speaks JSON.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const page = (reply: FastifyReply, code: number, html: string) =>
    reply.code(code).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

  app.get('/login', { schema: { hide: true } }, async (req, reply) => {
    const next = safeNext((req.query as { next?: unknown }).next);
    const session = readSessionCookie(req, Date.now());
    const principal = session ? await opts.authenticator.fromSession(session) : null;
    return page(reply, 200, loginPage({ next, ...(principal ? { signedInAs: principal.actor } : {}) }));
  });

  app.post('/login', { schema: { hide: true } }, async (req, reply) => {
    if (!sameOrigin(req)) {
      req.log.warn({ origin: req.headers.origin }, 'Login from another origin refused');
      return page(
        reply,
        403,
        loginPage({ next: '/admin/queues', error: 'Sign in from this server’s own page.' }),
      );
    }
    const body = (req.body ?? {}) as { key?: unknown; next?: unknown };
    const next = safeNext(body.next);
    const key = typeof body.key === 'string' ? body.key.trim() : '';
    const principal = key ? await opts.authenticator.fromSecret(key) : null;
    if (!principal) {
      req.log.warn({ ip: req.ip }, 'Login refused');
      return page(reply, 401, loginPage({ next, error: 'That key is unknown or revoked.' }));
    }
    setSessionCookie(
      reply,
      {
        keyId: principal.keyId,
        expiresAt: Date.now() + opts.sessionTtlMs,
        adminFingerprint:
          principal.keyId === ADMIN_TOKEN_KEY_ID ? opts.authenticator.adminFingerprint() : undefined,
      },
      opts.sessionTtlMs,
    );
    req.log.info({ actor: principal.actor, keyId: principal.keyId }, 'Browser session started');
    return reply.code(303).header('location', next).send();
  });

  app.post('/logout', { schema: { hide: true } }, async (_req, reply) => {
    clearSessionCookie(reply);
    return reply.code(303).header('location', '/login').send();
  });
};

/**
 * Login CSRF guard: a form posted from another site must not sign the browser in
 * with someone else's key. Browsers send Origin on form posts; a request without
 * one (curl) is not a browser being tricked.
 */
function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    // `Origin: null` (sandboxed frames, some redirects) is no origin we can vouch for.
    return false;
  }
}
