import { describe, expect, it } from 'vitest';
import {
  standardWebhookHeaders,
  standardWebhookVerifier,
  verifyStandardWebhook,
  WebhookVerificationError,
} from '../src/webhooks/standard-webhooks.js';

const SECRET = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
const NOW = Date.parse('2026-11-22T10:00:00Z');
const BODY = '{"type":"reply"}';

const codeOf = (f: () => unknown) => {
  try {
    f();
    return 'accepted';
  } catch (err) {
    return err instanceof WebhookVerificationError ? err.code : String(err);
  }
};

/** The one Standard Webhooks verifier: what it accepts and why it refuses. */
describe('Standard Webhooks', () => {
  const verify = standardWebhookVerifier({ secret: SECRET, secretName: 'X_SECRET', toleranceMs: 60_000 });
  const request = (headers: Record<string, string>, rawBody = BODY, nowMs = NOW) => ({
    method: 'POST',
    url: 'http://ingest/webhooks/http',
    headers,
    rawBody,
    nowMs,
  });

  it('accepts its own signature (the id is the delivery id), among others during a key rotation', () => {
    const headers = standardWebhookHeaders(SECRET, 'msg_1', BODY, NOW);
    expect(verify(request(headers))).toEqual({ auth: 'signature', deliveryId: 'msg_1' });
    const rotated = { ...headers, 'webhook-signature': `v1,b2xkLWtleQ== ${headers['webhook-signature']}` };
    expect(verify(request(rotated)).deliveryId).toBe('msg_1');
    expect(verifyStandardWebhook(SECRET, headers, Buffer.from(BODY), { nowMs: NOW })).toBe('msg_1');
  });

  it('refuses a changed body, another secret, a stale timestamp, missing headers and an unset secret', () => {
    const headers = standardWebhookHeaders(SECRET, 'msg_1', BODY, NOW);
    expect(codeOf(() => verify(request(headers, `${BODY} `)))).toBe('bad_signature');
    const other = standardWebhookHeaders('whsec_b3RoZXItc2VjcmV0', 'msg_1', BODY, NOW);
    expect(codeOf(() => verify(request(other)))).toBe('bad_signature');
    expect(codeOf(() => verify(request(headers, BODY, NOW + 61_000)))).toBe('stale_timestamp');
    const { 'webhook-signature': _, ...unsigned } = headers;
    expect(codeOf(() => verify(request(unsigned)))).toBe('missing_headers');
    const unset = standardWebhookVerifier({ secret: undefined, secretName: 'X_SECRET' });
    const err = (() => {
      try {
        unset(request(headers));
      } catch (e) {
        return e as WebhookVerificationError;
      }
    })();
    expect([err?.code, err?.message]).toEqual(['not_configured', 'X_SECRET is not set']);
  });
});
