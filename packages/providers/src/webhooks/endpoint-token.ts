import { createHash, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './standard-webhooks.js';
import type { VerifiedDelivery, WebhookRequest } from './webhook-provider.js';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether `given` is the secret `expected`. Compared as sha-256 digests with a
 * timing-safe compare, so neither the value nor its length leaks.
 */
export function secretMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, if it holds one. */
export function bearerToken(header: string | undefined): string | undefined {
  return header?.startsWith('Bearer ') ? header.slice(7) : undefined;
}

/**
 * Verifies the per-endpoint secret token of a provider that cannot sign its
 * webhooks: in the path (`/webhooks/smartlead/{token}`), or in the
 * `x-touchbase-token` header, or as a Bearer token (see `secretMatches`).
 *
 * Such a delivery proves only that the sender knows the token: its events may stop
 * or pause sequences, never start a send (see `effectOf`).
 */
export function verifyEndpointToken(expected: string | undefined, req: WebhookRequest): VerifiedDelivery {
  if (!expected)
    throw new WebhookVerificationError('not_configured', 'this webhook endpoint has no secret configured');
  const header = first(req.headers['x-touchbase-token']);
  const given = req.pathToken ?? header ?? bearerToken(first(req.headers.authorization));
  if (!given)
    throw new WebhookVerificationError(
      'missing_headers',
      'the endpoint token is required (path or x-touchbase-token)',
    );
  if (!secretMatches(given, expected)) {
    throw new WebhookVerificationError('bad_token', 'the endpoint token does not match');
  }
  return { auth: 'token', deliveryId: null };
}

export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
