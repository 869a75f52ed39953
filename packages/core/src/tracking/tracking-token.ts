import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a tracking link records: an open (the pixel) or a click (a rewritten link). */
export type TrackingKind = 'open' | 'click';

/** What a genuine tracking token names. `url` is the link's original target (clicks only). */
export type TrackingClaim = {
  touchId: string;
  enrollmentId: string;
  kind: TrackingKind;
  url?: string;
};

/** Longest token accepted: a click token carries its URL, and links longer than this are not rewritten. */
export const MAX_TRACKING_TOKEN_LENGTH = 4096;

type Wire = { t: string; e: string; k: 'o' | 'c'; u?: string };

/**
 * The token of a tracking pixel or a rewritten link: the claim (touch, enrollment,
 * kind and, for a click, the URL it leads to) in base64url JSON, then an HMAC-SHA256
 * of it under TRACKING_SECRET (160 bits kept). Whoever does not hold the secret can
 * neither forge one (so no open redirect: a click token leads only to the URL it
 * signs) nor guess one of another touch (its ids are random UUIDs under the MAC).
 */
export function signTrackingToken(claim: TrackingClaim, secret: string): string {
  const wire: Wire = {
    t: claim.touchId,
    e: claim.enrollmentId,
    k: claim.kind === 'open' ? 'o' : 'c',
    ...(claim.kind === 'click' ? { u: claim.url ?? '' } : {}),
  };
  const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
  return `${body}.${mac(body, secret)}`;
}

/**
 * The claim of a genuine token, or null (tampered, truncated, of another secret,
 * or not a token at all). Only the exact string {@link signTrackingToken} makes is
 * accepted: the MAC is checked over the body as given, then the body must decode
 * to a claim that encodes back to the same body.
 */
export function verifyTrackingToken(token: string, secret: string): TrackingClaim | null {
  if (token.length > MAX_TRACKING_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [body, given] = parts as [string, string];
  if (!body || !given) return null;
  const expected = Buffer.from(mac(body, secret));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  let wire: Wire;
  try {
    wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Wire;
  } catch {
    // A body we signed always parses; this one was signed with the secret yet is not ours.
    return null;
  }
  if (typeof wire?.t !== 'string' || typeof wire.e !== 'string' || (wire.k !== 'o' && wire.k !== 'c')) {
    return null;
  }
  if (wire.k === 'c' && typeof wire.u !== 'string') return null;
  const claim: TrackingClaim =
    wire.k === 'o'
      ? { touchId: wire.t, enrollmentId: wire.e, kind: 'open' }
      : { touchId: wire.t, enrollmentId: wire.e, kind: 'click', url: wire.u as string };
  return signTrackingToken(claim, secret) === token ? claim : null;
}

function mac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(`tracking:${body}`).digest('base64url').slice(0, 27);
}
