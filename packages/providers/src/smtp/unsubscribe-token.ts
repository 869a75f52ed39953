import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of a one-click unsubscribe link (`/u/{token}`): the enrollment id and
 * an HMAC of it, so the link names its enrollment and cannot be forged or
 * enumerated. No address in the URL.
 */
export function signUnsubscribeToken(enrollmentId: string, secret: string): string {
  return `${Buffer.from(enrollmentId).toString('base64url')}.${mac(enrollmentId, secret)}`;
}

/**
 * The enrollment id of a genuine token, or null. Only the exact string
 * {@link signUnsubscribeToken} produces is accepted: Node's base64 decoder skips
 * characters it does not know and `split('.', 2)` would drop a third part, so
 * without the round trip many spellings of one token would verify (and look like
 * different clicks).
 */
export function verifyUnsubscribeToken(token: string, secret: string): string | null {
  if (token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [id64, given] = parts as [string, string];
  if (!id64 || !given) return null;
  const enrollmentId = Buffer.from(id64, 'base64url').toString();
  if (Buffer.from(enrollmentId).toString('base64url') !== id64) return null;
  const expected = Buffer.from(mac(enrollmentId, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? enrollmentId : null;
}

function mac(enrollmentId: string, secret: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${enrollmentId}`).digest('base64url').slice(0, 27);
}

/** A one-click unsubscribe link whose token is not genuine: 404 problem+json, nothing recorded. */
export class UnsubscribeTokenError extends Error {
  override readonly name = 'UnsubscribeTokenError';
  readonly code = 'invalid_unsubscribe_token';
  constructor() {
    super('the token is not one of ours or was changed');
  }
}
