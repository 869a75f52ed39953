import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSystem } from '../support/test-system.js';
import {
  allowSharedPeople,
  createSequence,
  enroll,
  enrollment,
  eventCount,
  post,
  startWebhookSystem,
  WEBHOOK_ENV,
  type WebhookSystem,
} from './ingest-support.js';

/**
 * The webhook endpoints of providers that cannot sign (a per-endpoint token) and
 * inbound raw mail, against the whole system: each body normalised to a canonical
 * event, recorded once and applied.
 */
describe('ingest: token-guarded webhook endpoints per provider', () => {
  let sys: TestSystem;
  let mailboxId: string;
  let live: WebhookSystem['live'];
  let pending: WebhookSystem['pending'];

  beforeAll(async () => {
    ({ sys, mailboxId, live, pending } = await startWebhookSystem('ingest_webhooks_token'));
  });
  afterAll(async () => {
    await sys?.stop();
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
      // The lead is in two sequences at once: both opt out of exclusivity and the cooldown.
      const first = (await sys.api('GET', `/v1/enrollments/${p.enrollmentId}`)).body.sequenceId as string;
      for (const id of [first, other]) await allowSharedPeople(sys, id);
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
