import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { VerifiedDelivery, WebhookRequest } from './webhook-provider.js';

/**
 * Why a webhook was refused (401, nothing recorded): headers missing, a signature
 * or token that does not match, a timestamp outside the tolerance, or an endpoint
 * whose secret is not configured (it accepts nothing).
 */
export type WebhookVerificationCode =
  | 'missing_headers'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'bad_token'
  | 'not_configured';

/** Why a webhook was refused. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
  ) {
    super(message);
  }
}

function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/**
 * Signs a payload as the Standard Webhooks spec says: `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`, over the body's bytes as sent (a string is taken as UTF-8).
 */
export function signStandardWebhook(
  secret: string,
  id: string,
  timestampSec: number,
  body: string | Buffer,
): string {
  return `v1,${macOf(secretBytes(secret), id, timestampSec, body).toString('base64')}`;
}

/** The HMAC-SHA256 of `id.timestamp.body` under `key`, as bytes. */
function macOf(key: Buffer | KeyObject, id: string, timestampSec: number, body: string | Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestampSec}.`).update(body).digest();
}

/** The three headers of a Standard Webhooks delivery. */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  body: string | Buffer,
  nowMs = Date.now(),
): Record<string, string> {
  const ts = Math.floor(nowMs / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(ts),
    'webhook-signature': signStandardWebhook(secret, id, ts, body),
  };
}

/**
 * Verifies a Standard Webhooks delivery over the raw body with a timing-safe
 * compare; refuses a timestamp outside the tolerance (replays of old deliveries).
 * @returns the webhook id.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string | Buffer,
  opts: { toleranceSec?: number; nowMs?: number } = {},
): string {
  return verifyWithKey(createSecretKey(secretBytes(secret)), headers, rawBody, opts);
}

/**
 * {@link verifyStandardWebhook} with the secret already decoded: an endpoint decodes its
 * secret once, not per delivery, into a KeyObject (an HMAC keyed by a KeyObject costs
 * about a third less than one keyed by a Buffer, which is imported per call). The
 * signature is compared as bytes (the HMAC's digest against each candidate's base64
 * decoded), never re-encoded.
 */
function verifyWithKey(
  key: KeyObject,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string | Buffer,
  opts: { toleranceSec?: number; nowMs?: number },
): string {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sig = header(headers, 'webhook-signature');
  if (!id || !ts || !sig)
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );
  const tsNum = Number(ts);
  const now = Math.floor((opts.nowMs ?? Date.now()) / 1000);
  if (!Number.isInteger(tsNum) || Math.abs(now - tsNum) > (opts.toleranceSec ?? 300)) {
    throw new WebhookVerificationError('stale_timestamp', 'webhook-timestamp is outside the tolerance');
  }
  const expected = macOf(key, id, tsNum, rawBody);
  // The header may carry several space-separated signatures (key rotation).
  for (const candidate of sig.split(' ')) {
    const [version, mac] = candidate.split(',', 2);
    if (version !== 'v1' || !mac) continue;
    const given = Buffer.from(mac, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return id;
  }
  throw new WebhookVerificationError('bad_signature', 'webhook-signature does not match');
}

/**
 * The `verify` of a webhook endpoint signed with Standard Webhooks, the one every
 * such endpoint uses (the generic HTTP provider, the sandbox): while its secret is
 * not set it accepts nothing (`not_configured`, naming `secretName`); otherwise
 * {@link verifyStandardWebhook} within `toleranceMs` (default 5 min). The
 * delivery id is the webhook-id, so a redelivery is recorded once.
 */
export function standardWebhookVerifier(opts: {
  secret: string | undefined;
  /** The variable that sets the secret, named in the refusal while it is unset. */
  secretName: string;
  toleranceMs?: number | undefined;
}): (req: WebhookRequest) => VerifiedDelivery {
  const toleranceSec = Math.round((opts.toleranceMs ?? 300_000) / 1000);
  const key = opts.secret ? createSecretKey(secretBytes(opts.secret)) : null;
  return (req) => {
    if (!key) throw new WebhookVerificationError('not_configured', `${opts.secretName} is not set`);
    const id = verifyWithKey(key, req.headers, req.rawBody, {
      toleranceSec,
      nowMs: req.nowMs,
    });
    return { auth: 'signature', deliveryId: id };
  };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
