import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of a one-click unsubscribe link (`/u/{token}`): the enrollment id and
 * an HMAC of it, so the link names its enrollment and cannot be forged or
 * enumerated. No address in the URL.
 */
export function signUnsubscribeToken(enrollmentId: string, secret: string): string {
  return `${Buffer.from(enrollmentId).toString('base64url')}.${mac(enrollmentId, secret)}`;
}

/** The enrollment id of a genuine token, or null. */
export function verifyUnsubscribeToken(token: string, secret: string): string | null {
  const [id64, given] = token.split('.', 2);
  if (!id64 || !given) return null;
  const enrollmentId = Buffer.from(id64, 'base64url').toString();
  const expected = Buffer.from(mac(enrollmentId, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? enrollmentId : null;
}

function mac(enrollmentId: string, secret: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${enrollmentId}`).digest('base64url').slice(0, 27);
}
