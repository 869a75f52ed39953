import { randomUUID } from 'node:crypto';
import { emailHash } from '@touchbase/db';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  eventCount,
  importProspects,
  post,
  postHttp,
  postHubspot,
  WEBHOOK_ENV,
} from './ingest-support.js';

/**
 * Every webhook endpoint against the whole system: signatures and tokens over the
 * raw body, stale and replayed deliveries, malformed bodies, size limits, and each
 * provider's body normalised to a canonical event, recorded once and applied.
 */
describe('ingest: webhook endpoints per provider', () => {
  let sys: TestSystem;
  let mailboxId: string;
  let sequenceId: string;

  beforeAll(async () => {
    sys = await startTestSystem('ingest_webhooks', { ...WEBHOOK_ENV, INGEST_BODY_LIMIT_BYTES: '65536' });
    mailboxId = await createMailbox(sys);
    // Long waits: enrollments stay active at step 2 with a pending job while webhooks arrive.
    sequenceId = await createSequence(sys, 3, '300d');
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** A prospect enrolled whose first touch went out; returns ids and the touch's message id. */
  async function live(email: string, linkedinUrl?: string, hubspotId?: string) {
    const [prospectId] = await importProspects(sys, [
      { email, ...(linkedinUrl ? { linkedinUrl } : {}), ...(hubspotId ? { hubspotId } : {}) },
    ]);
    const [e] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
    await waitFor('touch 1 sent', async () => (await enrollment(sys, e!.id)).currentStep === 2);
    const delivery = sys.sandbox.deliveries().find((d) => d.enrollmentId === e!.id && d.step === 1)!;
    return { prospectId: prospectId!, enrollmentId: e!.id, messageId: delivery.messageId };
  }
  const pending = async (enrollmentId: string, step: number) =>
    (await sys.rt.touchQueue.existing([`${enrollmentId}-${step}`])).size;

  describe('http provider (Standard Webhooks)', () => {
    it('a signed reply ends the sequence, removes the pending job, and keeps why it got its class', async () => {
      const p = await live('http-reply@prospect.example');
      expect(await pending(p.enrollmentId, 2)).toBe(1);
      const res = await postHttp(sys, `msg_${randomUUID()}`, {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        message_id: p.messageId,
        text: 'No thanks, we are not interested.',
      });
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('applied');
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('replied');
      expect(await pending(p.enrollmentId, 2)).toBe(0);
      const events = (await sys.api('GET', `/v1/events?prospectId=${p.prospectId}`)).body.items;
      const reply = events.find((e: { type: string }) => e.type === 'reply');
      expect(reply.classification).toBe('not_interested');
      expect(reply.why.length).toBeGreaterThan(0);
    });

    it('a bad signature, a stale timestamp and missing headers get 401 problem+json; nothing is recorded', async () => {
      const before = await eventCount(sys);
      const payload = { type: 'reply', occurred_at: new Date().toISOString(), email: 'x@prospect.example' };
      const wrong = await postHttp(sys, 'msg_wrong', payload, {
        secret: 'whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.type).toContain('application/problem+json');
      expect(wrong.body.code).toBe('bad_signature');
      const stale = await postHttp(sys, 'msg_stale', payload, { nowMs: Date.now() - 6 * 60_000 });
      expect(stale.status).toBe(401);
      expect(stale.body.code).toBe('stale_timestamp');
      const bare = await post(sys, '/webhooks/http', JSON.stringify(payload));
      expect(bare.status).toBe(401);
      expect(bare.body.code).toBe('missing_headers');
      expect(await eventCount(sys)).toBe(before);
    });

    it('a replayed id is recorded once and changes nothing the second time, whatever its body says', async () => {
      const p = await live('http-replay@prospect.example');
      const id = `msg_${randomUUID()}`;
      const opened = await postHttp(sys, id, {
        type: 'opened',
        occurred_at: new Date().toISOString(),
        message_id: p.messageId,
      });
      expect(opened.body.duplicate).toBe(false);
      const before = await eventCount(sys);
      const replay = await postHttp(sys, id, {
        type: 'unsubscribe',
        occurred_at: new Date().toISOString(),
        message_id: p.messageId,
      });
      expect(replay.status).toBe(200);
      expect(replay.body.duplicate).toBe(true);
      expect(await eventCount(sys)).toBe(before);
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
    });

    it('malformed JSON, a bad field and a body naming nobody get 400 problem+json naming the field', async () => {
      const before = await eventCount(sys);
      const { standardWebhookHeaders } = await import('@touchbase/providers');
      const raw = '{"type": "reply",';
      const notJson = await post(
        sys,
        '/webhooks/http',
        raw,
        standardWebhookHeaders(WEBHOOK_ENV.HTTP_PROVIDER_WEBHOOK_SECRET, 'm1', raw),
      );
      expect(notJson.status).toBe(400);
      expect(notJson.type).toContain('application/problem+json');
      expect(notJson.body.code).toBe('malformed_json');
      const badType = await postHttp(sys, 'm2', {
        type: 'telepathy',
        occurred_at: new Date().toISOString(),
        email: 'a@b.example',
      });
      expect(badType.status).toBe(400);
      expect(badType.body.errors.map((e: { field: string }) => e.field)).toContain('body.type');
      const nobody = await postHttp(sys, 'm3', { type: 'reply', occurred_at: new Date().toISOString() });
      expect(nobody.status).toBe(400);
      expect(nobody.body.errors.map((e: { field: string }) => e.field)).toContain('body.email');
      expect(await eventCount(sys)).toBe(before);
    });

    it('a body over the limit gets 413 problem+json; nothing is recorded', async () => {
      const before = await eventCount(sys);
      const res = await postHttp(sys, 'm-big', {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        email: 'big@prospect.example',
        text: 'x'.repeat(70_000),
      });
      expect(res.status).toBe(413);
      expect(res.type).toContain('application/problem+json');
      expect(await eventCount(sys)).toBe(before);
    });

    it("an event naming a message and a prospect we do not know changes nothing; a stranger's reply goes to triage", async () => {
      const p = await live('http-unknown@prospect.example');
      const ghost = await postHttp(sys, `msg_${randomUUID()}`, {
        type: 'unsubscribe',
        occurred_at: new Date().toISOString(),
        message_id: '<never-sent@nowhere>',
      });
      expect(ghost.status).toBe(200);
      expect(ghost.body.outcome).toBe('unknown_prospect');
      const stranger = await postHttp(sys, `msg_${randomUUID()}`, {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        email: 'Stranger@Elsewhere.example',
        text: 'Who are you? Please tell me more about pricing.',
      });
      expect(stranger.body.outcome).toBe('unknown_prospect');
      expect(stranger.body.events[0].triaged).toBe(true);
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
      const triage = (await sys.api('GET', '/v1/triage')).body.items;
      const item = triage.find((t: { email: string }) => t.email === 'stranger@elsewhere.example');
      expect(item.kind).toBe('unknown_sender');
      expect(item.why.length).toBeGreaterThan(0);
    });
  });

  describe('providers that cannot sign: a per-endpoint token', () => {
    const smartleadReply = (email: string, text: string) =>
      JSON.stringify({
        event_type: 'EMAIL_REPLY',
        stats_id: randomUUID(),
        event_timestamp: new Date().toISOString(),
        from_email: 'sdr@ingest-test.example',
        to_email: email,
        sl_lead_email: email,
        subject: 'Re: Hello',
        sequence_number: 1,
        reply_message: { message_id: `<${randomUUID()}@mail.example>`, text, html: `<p>${text}</p>` },
      });

    it('smartlead: the token in the path or a header lets a reply through and it ends the sequence', async () => {
      const a = await live('sl-a@prospect.example');
      const res = await post(
        sys,
        `/webhooks/smartlead/${WEBHOOK_ENV.SMARTLEAD_WEBHOOK_TOKEN}`,
        smartleadReply('sl-a@prospect.example', 'Not interested, thanks.'),
      );
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('applied');
      expect((await enrollment(sys, a.enrollmentId)).status).toBe('replied');
      const b = await live('sl-b@prospect.example');
      const viaHeader = await post(
        sys,
        '/webhooks/smartlead',
        smartleadReply('sl-b@prospect.example', 'Please remove me from your list'),
        {
          'x-touchbase-token': WEBHOOK_ENV.SMARTLEAD_WEBHOOK_TOKEN,
        },
      );
      expect(viaHeader.status).toBe(200);
      const after = await enrollment(sys, b.enrollmentId);
      expect(after.status).toBe('unsubscribed');
      const suppressions = (await sys.api('GET', '/v1/suppressions?limit=500')).body.items;
      expect(suppressions.some((s: { value: string }) => s.value === 'sl-b@prospect.example')).toBe(true);
    });

    it('smartlead: a wrong or missing token gets 401 and nothing is recorded; events we do not use are acknowledged and ignored', async () => {
      const before = await eventCount(sys);
      const wrong = await post(
        sys,
        '/webhooks/smartlead/not-the-token-at-all',
        smartleadReply('x@p.example', 'no'),
      );
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('bad_token');
      const none = await post(sys, '/webhooks/smartlead', smartleadReply('x@p.example', 'no'));
      expect(none.status).toBe(401);
      const ignored = await post(
        sys,
        `/webhooks/smartlead/${WEBHOOK_ENV.SMARTLEAD_WEBHOOK_TOKEN}`,
        JSON.stringify({ event_type: 'CAMPAIGN_STATUS_CHANGED', campaign_id: 1 }),
      );
      expect(ignored.status).toBe(200);
      expect(ignored.body.outcome).toBe('ignored');
      expect(await eventCount(sys)).toBe(before);
    });

    it('smartlead: a bounce whose notice says 5.1.1 is hard: ended, suppressed, address invalid', async () => {
      const p = await live('sl-bounce@prospect.example');
      const res = await post(
        sys,
        `/webhooks/smartlead/${WEBHOOK_ENV.SMARTLEAD_WEBHOOK_TOKEN}`,
        JSON.stringify({
          event_type: 'EMAIL_BOUNCE',
          stats_id: randomUUID(),
          event_timestamp: new Date().toISOString(),
          to_email: 'sl-bounce@prospect.example',
          bounce_message: {
            text: 'Delivery to the following recipient failed permanently:\n\n     sl-bounce@prospect.example\n\nThe response was:\n550 5.1.1 The email account that you tried to reach does not exist.',
          },
        }),
      );
      expect(res.status).toBe(200);
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('bounced');
      const prospect = (await sys.api('GET', `/v1/prospects/${p.prospectId}`)).body;
      expect(prospect.emailStatus).toBe('invalid');
    });

    it('lemlist: an out-of-office reply pauses instead of ending', async () => {
      const p = await live('ll-ooo@prospect.example');
      const res = await post(
        sys,
        `/webhooks/lemlist/${WEBHOOK_ENV.LEMLIST_WEBHOOK_TOKEN}`,
        JSON.stringify({
          _id: `act_${randomUUID()}`,
          type: 'emailsReplied',
          createdAt: new Date().toISOString(),
          leadEmail: 'll-ooo@prospect.example',
          subject: 'Automatic reply: Hello',
          text: 'I am out of the office with limited access to email and will be back on Monday.',
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body.events[0].type).toBe('out_of_office');
      const e = await enrollment(sys, p.enrollmentId);
      expect(e.status).toBe('paused');
      expect(e.stopReason).toBe('out_of_office');
      expect(await pending(p.enrollmentId, 2)).toBe(0);
    });

    it('linkedin: a message from the lead, found by profile URL, ends every sequence of the prospect', async () => {
      const p = await live('li-lead@prospect.example', 'https://www.linkedin.com/in/li-lead-42/');
      const other = await createSequence(sys, 2, '300d');
      const [second] = await enroll(sys, other, mailboxId, [p.prospectId]);
      const res = await post(
        sys,
        '/webhooks/linkedin',
        JSON.stringify({
          id: `li_${randomUUID()}`,
          type: 'message_received',
          occurred_at: new Date().toISOString(),
          profile_url: 'linkedin.com/in/LI-Lead-42?miniProfileUrn=abc',
          text: 'Thanks for reaching out, happy to chat next week.',
        }),
        { authorization: `Bearer ${WEBHOOK_ENV.LINKEDIN_WEBHOOK_TOKEN}` },
      );
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('applied');
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('replied');
      expect((await enrollment(sys, second!.id)).status).toBe('replied');
      expect(await pending(second!.id, 1)).toBe(0);
    });
  });

  describe('hubspot (X-HubSpot-Signature-v3)', () => {
    const hubspot = (body: string, opts: { ts?: number; secret?: string } = {}) =>
      postHubspot(sys, body, opts);

    it('a GDPR deletion of a contact imported with its HubSpot id erases the prospect and keeps only a hash; stale or unsigned gets 401', async () => {
      const p = await live('hs-erase@prospect.example', undefined, '90210');
      const body = JSON.stringify([
        {
          eventId: 7001,
          subscriptionType: 'contact.privacyDeletion',
          occurredAt: Date.now(),
          objectId: 90210,
          portalId: 1,
        },
      ]);
      expect((await hubspot(body, { ts: Date.now() - 10 * 60_000 })).status).toBe(401);
      expect((await hubspot(body, { secret: 'some-other-secret-value' })).status).toBe(401);
      expect((await post(sys, '/webhooks/hubspot', body)).status).toBe(401);
      const res = await hubspot(body);
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('erased');
      expect((await sys.api('GET', `/v1/prospects/${p.prospectId}`)).status).toBe(404);
      const { rows } = await sys.rt.db.pool.query(
        `SELECT kind, value FROM suppression WHERE value LIKE '%hs-erase%' OR (kind = 'hash' AND value = $1)`,
        [emailHash('hs-erase@prospect.example')],
      );
      expect(rows).toEqual([{ kind: 'hash', value: emailHash('hs-erase@prospect.example') }]);
      const audit = (await sys.api('GET', `/v1/audit?entityType=prospect&entityId=${p.prospectId}`)).body
        .items;
      expect(audit.map((a: { action: string }) => a.action)).toContain('prospect.erased');
      const logged = await sys.rt.db.pool.query(
        `SELECT payload::text AS p FROM event WHERE source = 'hubspot'`,
      );
      expect(logged.rows.some((r: { p: string }) => r.p.includes('hs-erase@'))).toBe(false);
    });

    it('an opt-out in HubSpot of a contact imported by CSV with its HubSpot ID column ends its sequences', async () => {
      const csv = await fetch(`${sys.apiUrl}/v1/prospects/import`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: 'Email,First Name,HubSpot ID\nhs-optout@prospect.example,Opal,4242\n',
      });
      expect(csv.status).toBe(200);
      const p = await live('hs-optout@prospect.example');
      const res = await hubspot(
        JSON.stringify([
          {
            eventId: 7002,
            subscriptionType: 'contact.propertyChange',
            propertyName: 'hs_email_optout',
            propertyValue: 'true',
            occurredAt: Date.now(),
            objectId: 4242,
            portalId: 1,
          },
        ]),
      );
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('applied');
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('unsubscribed');
      expect(await pending(p.enrollmentId, 2)).toBe(0);
    });
  });

  describe('inbound raw RFC 822 mail (through the classifier)', () => {
    const token = () => `/webhooks/inbound/${WEBHOOK_ENV.INBOUND_WEBHOOK_TOKEN}`;
    const mail = (headers: string, body: string) =>
      `${headers.trim().replace(/\n/g, '\r\n')}\r\n\r\n${body.replace(/\n/g, '\r\n')}`;

    it('a reply to our touch ends the sequence', async () => {
      const p = await live('raw-reply@prospect.example');
      const raw = mail(
        `From: Raw Reply <raw-reply@prospect.example>
To: sdr@ingest-test.example
Subject: Re: Hello P0
Message-ID: <${randomUUID()}@prospect.example>
In-Reply-To: ${p.messageId}
Date: ${new Date().toUTCString()}
Content-Type: text/plain; charset=utf-8`,
        'Wrong person, I left that team. Try our new head of sales.\n\n> Touch 1 for P0',
      );
      const res = await post(sys, token(), raw, { 'content-type': 'message/rfc822' });
      expect(res.status).toBe(200);
      expect(res.body.events[0].type).toBe('reply');
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('replied');
    });

    it('a delivery status notification for our touch is a hard bounce of its recipient', async () => {
      const p = await live('raw-bounce@prospect.example');
      const raw = mail(
        `From: Mail Delivery System <MAILER-DAEMON@mx.prospect.example>
To: sdr@ingest-test.example
Subject: Undelivered Mail Returned to Sender
Message-ID: <${randomUUID()}@mx.prospect.example>
Date: ${new Date().toUTCString()}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="BOUNDARY"`,
        `--BOUNDARY
Content-Type: text/plain

I'm sorry to have to inform you that your message could not be delivered.
<raw-bounce@prospect.example>: host mx.prospect.example said: 550 5.1.1 User unknown

--BOUNDARY
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.prospect.example

Final-Recipient: rfc822; raw-bounce@prospect.example
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 <raw-bounce@prospect.example>: Recipient address rejected: User unknown

--BOUNDARY
Content-Type: text/rfc822-headers

Message-ID: ${p.messageId}
To: raw-bounce@prospect.example
Subject: Hello P0

--BOUNDARY--
`,
      );
      const res = await post(sys, token(), raw, { 'content-type': 'message/rfc822' });
      expect(res.status).toBe(200);
      expect(res.body.events[0].type).toBe('bounce');
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('bounced');
    });

    it('a cold inbound from a stranger is recorded and listed for triage; a body that is not mail gets 400', async () => {
      const raw = mail(
        `From: New Lead <cold@stranger.example>
To: sdr@ingest-test.example
Subject: Partnership idea
Message-ID: <${randomUUID()}@stranger.example>
Date: ${new Date().toUTCString()}
Content-Type: text/plain; charset=utf-8`,
        'Hi, we would love to explore a partnership. Are you free for a call?',
      );
      const res = await post(sys, token(), raw, { 'content-type': 'message/rfc822' });
      expect(res.status).toBe(200);
      expect(res.body.events[0].triaged).toBe(true);
      const items = (await sys.api('GET', '/v1/triage?kind=cold_inbound')).body.items;
      expect(items.map((i: { email: string }) => i.email)).toContain('cold@stranger.example');
      const resolved = await sys.api('POST', `/v1/triage/${items[0].id}/resolve`);
      expect(resolved.body.resolvedAt).not.toBeNull();
      const bad = await post(sys, token(), 'just some words, no headers');
      expect(bad.status).toBe(400);
    });
  });
});
