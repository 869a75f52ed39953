import { createHash, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './standard-webhooks.js';
import type { VerifiedDelivery, WebhookRequest } from './webhook-provider.js';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Verifies the per-endpoint secret token of a provider that cannot sign its
 * webhooks: in the path (`/webhooks/smartlead/{token}`), or in the
 * `x-touchbase-token` header, or as a Bearer token. Compared as sha-256 digests
 * with a timing-safe compare, so neither the value nor its length leaks.
 *
 * Such a delivery proves only that the sender knows the token: its events may stop
 * or pause sequences, never start a send (see `effectOf`).
 */
export function verifyEndpointToken(expected: string | undefined, req: WebhookRequest): VerifiedDelivery {
  if (!expected)
    throw new WebhookVerificationError('not_configured', 'this webhook endpoint has no secret configured');
  const header = first(req.headers['x-touchbase-token']);
  const bearer = first(req.headers.authorization);
  const given = req.pathToken ?? header ?? (bearer?.startsWith('Bearer ') ? bearer.slice(7) : undefined);
  if (!given)
    throw new WebhookVerificationError(
      'missing_headers',
      'the endpoint token is required (path or x-touchbase-token)',
    );
  if (!timingSafeEqual(digest(given), digest(expected))) {
    throw new WebhookVerificationError('bad_token', 'the endpoint token does not match');
  }
  return { auth: 'token', deliveryId: null };
}

export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
