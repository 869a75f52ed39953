import { describe, expect, it } from 'vitest';
import { signHubspot, verifyHubspotSignature } from '../src/webhooks/hubspot-webhook.js';
import { standardWebhookHeaders, verifyStandardWebhook } from '../src/webhooks/standard-webhooks.js';

const SECRET = `whsec_${Buffer.from('raw-body-secret-0123456789').toString('base64')}`;
// Bytes that are not UTF-8: decoded as text they become U+FFFD, and a signature over
// the text would not be the signature over what was sent.
const BODY = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);

describe('webhook signatures are over the bytes received', () => {
  it('Standard Webhooks: the bytes verify; their decoded text does not', () => {
    const now = Date.now();
    const headers = standardWebhookHeaders(SECRET, 'msg_1', BODY, now);
    expect(verifyStandardWebhook(SECRET, headers, BODY, { nowMs: now })).toBe('msg_1');
    expect(() => verifyStandardWebhook(SECRET, headers, BODY.toString('utf8'), { nowMs: now })).toThrow(
      /does not match/,
    );
  });

  it('HubSpot v3: the bytes verify; their decoded text does not', () => {
    const now = Date.now();
    const url = 'https://hooks.example/webhooks/hubspot';
    const sig = signHubspot('hs-secret', 'POST', url, BODY, String(now)).toString('base64');
    const headers = { 'x-hubspot-signature-v3': sig, 'x-hubspot-request-timestamp': String(now) };
    expect(() =>
      verifyHubspotSignature('hs-secret', { method: 'POST', url, headers, rawBody: BODY }, { nowMs: now }),
    ).not.toThrow();
    expect(() =>
      verifyHubspotSignature(
        'hs-secret',
        { method: 'POST', url, headers, rawBody: BODY.toString('utf8') },
        { nowMs: now },
      ),
    ).toThrow(/does not match/);
  });
});
