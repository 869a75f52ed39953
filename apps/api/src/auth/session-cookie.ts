import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** Name of the browser session cookie set by the login form. */
export const SESSION_COOKIE = 'touchbase_session';

const SessionSchema = z.object({
  /** The key's id, or `admin-token`. */
  k: z.string().min(1).max(100),
  /** Expiry, ms since the epoch: the cookie's Max-Age alone is the browser's word, not ours. */
  e: z.number().int(),
  /** For ADMIN_TOKEN sessions: a digest of the token, so a new token ends them. */
  f: z.string().max(64).optional(),
});

/** What a session cookie carries (signed with API_SESSION_SECRET by @fastify/cookie, HMAC-SHA256). */
export type Session = { keyId: string; expiresAt: number; adminFingerprint?: string | undefined };

/**
 * Sets the session cookie: signed, HttpOnly (no script reads it), SameSite=Strict
 * (no other site's page can make the browser send it, which is the CSRF defence
 * for the cookie-authenticated routes), Secure when the request came over HTTPS.
 */
export function setSessionCookie(reply: FastifyReply, session: Session, ttlMs: number): void {
  const payload = {
    k: session.keyId,
    e: session.expiresAt,
    ...(session.adminFingerprint ? { f: session.adminFingerprint } : {}),
  };
  reply.setCookie(SESSION_COOKIE, Buffer.from(JSON.stringify(payload)).toString('base64url'), {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: 'auto',
    path: '/',
    maxAge: Math.floor(ttlMs / 1000),
  });
}

/** Ends the session in the browser. */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: 'auto' });
}

/** The session of a request: undefined without a cookie, or when it is forged, malformed or expired. */
export function readSessionCookie(req: FastifyRequest, now: number): Session | undefined {
  const raw = req.cookies[SESSION_COOKIE];
  if (!raw) return undefined;
  const unsigned = req.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8'));
  } catch (err) {
    // Signed by us yet unreadable: only an older format could do that; treat as no session.
    req.log.warn({ err: (err as Error).message }, 'Session cookie unreadable');
    return undefined;
  }
  const parsed = SessionSchema.safeParse(json);
  if (!parsed.success || parsed.data.e <= now) return undefined;
  return { keyId: parsed.data.k, expiresAt: parsed.data.e, adminFingerprint: parsed.data.f };
}
