import { createHmac } from 'node:crypto';
import { type CanonicalEvent, effectOf, outOfOfficeResumeAt, softBounceEffect } from '@touchbase/core';
import {
  httpWebhookProvider,
  hubspotWebhookProvider,
  inboundWebhookProvider,
  lemlistWebhookProvider,
  signHubspot,
  smartleadWebhookProvider,
  standardWebhookHeaders,
  WebhookPayloadError,
  type WebhookRequest,
  WebhookVerificationError,
} from '@touchbase/providers';
import { describe, expect, it } from 'vitest';

const NOW = Date.parse('2026-11-18T14:00:00Z'); // a Wednesday
const request = (over: Partial<WebhookRequest>): WebhookRequest => ({
  method: 'POST',
  url: 'https://ingest.example/webhooks/x',
  headers: {},
  rawBody: '{}',
  nowMs: NOW,
  ...over,
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.code;
    throw err;
  }
  return 'accepted';
};

describe('verification over the raw body', () => {
  const TOKEN = 'a-token-of-sixteen-chars';
  const smartlead = smartleadWebhookProvider({ token: TOKEN });

  it('a token endpoint accepts its token in the path, a header or a Bearer, and nothing else', () => {
    expect(codeOf(() => smartlead.verify(request({ pathToken: TOKEN })))).toBe('accepted');
    expect(codeOf(() => smartlead.verify(request({ headers: { 'x-touchbase-token': TOKEN } })))).toBe(
      'accepted',
    );
    expect(codeOf(() => smartlead.verify(request({ headers: { authorization: `Bearer ${TOKEN}` } })))).toBe(
      'accepted',
    );
    expect(codeOf(() => smartlead.verify(request({ pathToken: `${TOKEN}x` })))).toBe('bad_token');
    expect(codeOf(() => smartlead.verify(request({ pathToken: 'short' })))).toBe('bad_token');
    expect(codeOf(() => smartlead.verify(request({})))).toBe('missing_headers');
    expect(
      codeOf(() => smartleadWebhookProvider({ token: undefined }).verify(request({ pathToken: TOKEN }))),
    ).toBe('not_configured');
    expect(smartlead.verify(request({ pathToken: TOKEN })).auth).toBe('token');
  });

  it('smartlead with a signing secret also requires X-Smartlead-Signature over the exact body', () => {
    const signed = smartleadWebhookProvider({ token: TOKEN, signingSecret: 'smartlead-signing-secret' });
    const body = '{"event_type":"EMAIL_REPLY"}';
    const sig = `sha256=${createHmac('sha256', 'smartlead-signing-secret').update(body).digest('hex')}`;
    const ok = request({ pathToken: TOKEN, rawBody: body, headers: { 'x-smartlead-signature': sig } });
    expect(codeOf(() => signed.verify(ok))).toBe('accepted');
    expect(codeOf(() => signed.verify({ ...ok, rawBody: `${body} ` }))).toBe('bad_signature');
    expect(codeOf(() => signed.verify({ ...ok, headers: {} }))).toBe('bad_signature');
  });

  it('Standard Webhooks: a good signature passes; tampered, stale or future deliveries do not', () => {
    const http = httpWebhookProvider({ secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' });
    const body = '{"type":"reply"}';
    const headers = standardWebhookHeaders('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0', 'msg_1', body, NOW);
    expect(http.verify(request({ rawBody: body, headers })).deliveryId).toBe('msg_1');
    expect(codeOf(() => http.verify(request({ rawBody: `${body} `, headers })))).toBe('bad_signature');
    expect(codeOf(() => http.verify(request({ rawBody: body, headers, nowMs: NOW + 301_000 })))).toBe(
      'stale_timestamp',
    );
    expect(codeOf(() => http.verify(request({ rawBody: body, headers, nowMs: NOW - 301_000 })))).toBe(
      'stale_timestamp',
    );
    expect(
      codeOf(() => http.verify(request({ rawBody: body, headers: { ...headers, 'webhook-id': 'msg_2' } }))),
    ).toBe('bad_signature');
  });

  it('HubSpot v3: method, URL, body and timestamp are signed; five minutes of tolerance', () => {
    const hubspot = hubspotWebhookProvider({ clientSecret: 'hubspot-client-secret' });
    const body = '[{"eventId":1}]';
    const url = 'https://ingest.example/webhooks/hubspot';
    const ts = String(NOW);
    const sig = signHubspot('hubspot-client-secret', 'POST', url, body, ts).toString('base64');
    const headers = { 'x-hubspot-signature-v3': sig, 'x-hubspot-request-timestamp': ts };
    expect(codeOf(() => hubspot.verify(request({ url, rawBody: body, headers })))).toBe('accepted');
    expect(codeOf(() => hubspot.verify(request({ url: `${url}?x=1`, rawBody: body, headers })))).toBe(
      'bad_signature',
    );
    expect(codeOf(() => hubspot.verify(request({ url, rawBody: body, headers, nowMs: NOW + 300_001 })))).toBe(
      'stale_timestamp',
    );
    // Behind a proxy the public URL, the one HubSpot signed, is configured.
    const proxied = hubspotWebhookProvider({ clientSecret: 'hubspot-client-secret', publicUrl: url });
    expect(
      codeOf(() =>
        proxied.verify(request({ url: 'http://10.0.0.1:3001/webhooks/hubspot', rawBody: body, headers })),
      ),
    ).toBe('accepted');
  });
});

describe('normalising provider bodies', () => {
  const at = new Date(NOW);
  const token = { auth: 'token' as const, deliveryId: null };

  it('smartlead: the reply text decides the kind; a 4.x.x bounce notice is soft; events we do not use are dropped', async () => {
    const sl = smartleadWebhookProvider({ token: 'x'.repeat(16) });
    const [reply] = await sl.normalise(
      JSON.stringify({
        event_type: 'EMAIL_REPLY',
        stats_id: 'st1',
        to_email: 'Lead@Example.com',
        reply_message: { message_id: '<r1@x>', html: '<div>Please unsubscribe me from this list.</div>' },
      }),
      token,
      at,
    );
    expect(reply).toMatchObject({
      source: 'smartlead',
      type: 'unsubscribe',
      email: 'Lead@Example.com',
      auth: 'token',
    });
    expect(reply!.why!.length).toBeGreaterThan(0);
    const [bounce] = await sl.normalise(
      JSON.stringify({
        event_type: 'EMAIL_BOUNCE',
        stats_id: 'st2',
        to_email: 'lead@example.com',
        bounce_message: {
          text: 'Delivery has been delayed.\n\n450 4.2.2 The email account that you tried to reach is over quota.',
        },
      }),
      token,
      at,
    );
    expect(bounce!.type).toBe('bounce');
    expect(bounce!.bounce?.hard).toBe(false);
    expect(await sl.normalise(JSON.stringify({ event_type: 'LEAD_CATEGORY_UPDATED' }), token, at)).toEqual(
      [],
    );
    await expect(
      sl.normalise(JSON.stringify({ event_type: 'EMAIL_REPLY' }), token, at),
    ).rejects.toBeInstanceOf(WebhookPayloadError);
    await expect(sl.normalise('{"event_type":', token, at)).rejects.toMatchObject({ code: 'malformed_json' });
  });

  it('lemlist: activities map to canonical events; a LinkedIn reply is a reply on the LinkedIn channel', async () => {
    const ll = lemlistWebhookProvider({ token: 'x'.repeat(16) });
    const [li] = await ll.normalise(
      JSON.stringify({
        _id: 'act_1',
        type: 'linkedinReplied',
        linkedinUrl: 'https://linkedin.com/in/x',
        text: "Yes, I'm interested. Let's set up a call next week.",
      }),
      token,
      at,
    );
    expect(li).toMatchObject({
      type: 'reply',
      channel: 'linkedin',
      externalId: 'act_1',
      classification: 'meeting_request',
    });
    const [unsub] = await ll.normalise(
      JSON.stringify({ _id: 'act_2', type: 'emailsUnsubscribed', leadEmail: 'a@b.example' }),
      token,
      at,
    );
    expect(unsub!.type).toBe('unsubscribe');
    expect(
      await ll.normalise(
        JSON.stringify({ _id: 'act_3', type: 'warmed', leadEmail: 'a@b.example' }),
        token,
        at,
      ),
    ).toEqual([]);
  });

  it('hubspot: a batch becomes one event per CRM change, named by the contact id', async () => {
    const hs = hubspotWebhookProvider({ clientSecret: 'x'.repeat(16) });
    const events = await hs.normalise(
      JSON.stringify([
        { eventId: 1, subscriptionType: 'contact.privacyDeletion', occurredAt: NOW, objectId: 11 },
        {
          eventId: 2,
          subscriptionType: 'contact.propertyChange',
          occurredAt: NOW,
          objectId: 12,
          propertyName: 'email',
          propertyValue: 'n@x.example',
        },
        {
          eventId: 3,
          subscriptionType: 'contact.propertyChange',
          occurredAt: NOW,
          objectId: 13,
          propertyName: 'firstname',
          propertyValue: 'A',
        },
        {
          eventId: 4,
          subscriptionType: 'deal.propertyChange',
          occurredAt: NOW,
          objectId: 14,
          propertyName: 'dealstage',
          propertyValue: 'closedwon',
        },
      ]),
      { auth: 'signature', deliveryId: null },
      at,
    );
    expect(events.map((e) => [e.type, e.crmId, e.externalId])).toEqual([
      ['erasure_request', '11', '1'],
      ['email_changed', '12', '2'],
      ['crm.deal_won', '14', '4'],
    ]);
  });

  it('inbound: an ARF complaint names the original recipient', async () => {
    const inbound = inboundWebhookProvider({ token: 'x'.repeat(16) });
    const raw = [
      'From: abuse@isp.example',
      'To: fbl@ingest.example',
      'Subject: Complaint about message',
      'Message-ID: <arf-1@isp.example>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=feedback-report; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'This is an email abuse report.',
      '--b',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      'Original-Rcpt-To: <angry@isp.example>',
      '--b',
      'Content-Type: text/rfc822-headers',
      '',
      'Message-ID: <touch-1@sandbox>',
      'To: angry@isp.example',
      '--b--',
      '',
    ].join('\r\n');
    const [e] = await inbound.normalise(raw, token, at);
    expect(e).toMatchObject({
      type: 'complaint',
      email: 'angry@isp.example',
      messageId: '<touch-1@sandbox>',
      externalId: '<arf-1@isp.example>',
    });
  });
});

describe('the rule book', () => {
  const base: CanonicalEvent = {
    source: 't',
    externalId: '1',
    type: 'email_changed',
    occurredAt: new Date(NOW),
    channel: 'email',
    data: {},
  };

  it('a token delivery may stop or pause, never start a send: an address change from it is refused', () => {
    expect(effectOf({ ...base, newEmail: 'n@x.example' }).kind).toBe('email_changed');
    expect(effectOf({ ...base, newEmail: 'n@x.example', auth: 'token' })).toEqual({
      kind: 'none',
      reason: 'refused_unsigned',
    });
    expect(effectOf({ ...base, type: 'reply', auth: 'token' }).kind).toBe('stop');
    expect(effectOf({ ...base, type: 'out_of_office', auth: 'token' }).kind).toBe('pause');
  });

  it('the third soft bounce in a row counts as hard', () => {
    const soft = { ...base, type: 'bounce' as const, bounce: { hard: false, status: '4.2.2' } };
    expect(softBounceEffect(soft, 1).kind).toBe('soft_bounce');
    expect(softBounceEffect(soft, 2).kind).toBe('soft_bounce');
    expect(softBounceEffect(soft, 3)).toMatchObject({
      kind: 'stop',
      status: 'bounced',
      suppress: true,
      invalidateEmail: true,
    });
  });

  it('an out-of-office resumes the business day after the return date (or after 7 days), at the same time of day', () => {
    const wed = new Date(NOW);
    expect(outOfOfficeResumeAt(wed, '2026-11-20').toISOString()).toBe('2026-11-23T14:00:00.000Z'); // Fri → Mon
    expect(outOfOfficeResumeAt(wed, '2026-11-23').toISOString()).toBe('2026-11-24T14:00:00.000Z'); // Mon → Tue
    expect(outOfOfficeResumeAt(wed, null).toISOString()).toBe('2026-11-26T14:00:00.000Z'); // +7 d = Wed → Thu
    expect(outOfOfficeResumeAt(wed, '2020-01-01').toISOString()).toBe('2026-11-19T14:00:00.000Z'); // past: tomorrow
    // Compressed for the sandbox: eight days at TIME_SCALE 86400 last eight seconds.
    expect(outOfOfficeResumeAt(wed, null, { timeScale: 86_400 }).getTime() - NOW).toBe(8_000);
  });
});
