import { describe, expect, it } from 'vitest';
import { classifyRawMessage } from '../../src/classify/index.js';

const crlf = (lines: string[]): string => lines.join('\r\n');

function dsn(status: string, diagnostic: string, action = 'failed'): string {
  return crlf([
    'From: MAILER-DAEMON@mx.touchbase-demo.io (Mail Delivery System)',
    'To: dana@touchbase-demo.io',
    'Subject: Undelivered Mail Returned to Sender',
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
    '',
    '--B',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'Your message could not be delivered to one or more recipients.',
    '',
    '--B',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.touchbase-demo.io',
    '',
    'Final-Recipient: rfc822; alex@acme.example',
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    '--B',
    'Content-Type: message/rfc822',
    '',
    'From: dana@touchbase-demo.io',
    'Subject: Idea for your SDR team',
    '',
    'If this is not relevant, reply "unsubscribe".',
    '--B--',
    '',
  ]);
}

function reply(headers: string[], body: string): string {
  return crlf([
    'From: Alex <alex@acme.example>',
    'To: dana@touchbase-demo.io',
    'Date: Wed, 13 Mar 2024 10:00:00 +0000',
    ...headers,
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
  ]);
}

describe('classifyRawMessage', () => {
  it('reads an RFC 3464 hard bounce from the delivery-status part', async () => {
    const result = await classifyRawMessage(dsn('5.1.1', '550 5.1.1 <alex@acme.example>: User unknown'));
    expect(result).toMatchObject({ class: 'bounce', hard: true, status: '5.1.1', reason: 'userunknown' });
    expect(result.why.join(' ')).toContain('message/delivery-status');
  });

  it.each([
    ['5.7.26', '550 5.7.26 Unauthenticated email is not accepted due to DMARC policy', 'authfailure'],
    [
      '5.7.515',
      '550 5.7.515 Access denied, sending domain does not meet the required authentication level',
      'authfailure',
    ],
    ['5.7.1', '554 5.7.1 Client host rejected: blocked using zen.spamhaus.org', 'blocked'],
    ['5.2.2', '552 5.2.2 Mailbox full', 'mailboxfull'],
    ['4.4.1', '421 4.4.1 Connection timed out', 'expired'],
  ])('does not call a %s bounce hard', async (status, diagnostic, reason) => {
    const result = await classifyRawMessage(dsn(status, diagnostic));
    expect(result).toMatchObject({ class: 'bounce', hard: false, status, reason });
  });

  it('reads a success DSN as delivered', async () => {
    const result = await classifyRawMessage(dsn('2.0.0', '250 2.0.0 OK', 'delivered'));
    expect(result).toMatchObject({ class: 'delivered', hard: false, status: '2.0.0' });
  });

  it('reads an ARF report as a complaint', async () => {
    const raw = crlf([
      'From: feedback@arf.mail.example',
      'Subject: FW: Idea for your SDR team',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=feedback-report; boundary="F"',
      '',
      '--F',
      'Content-Type: text/plain',
      '',
      'This is an email abuse report.',
      '--F',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      'User-Agent: Example-FBL/1.0',
      'Version: 1',
      '--F--',
      '',
    ]);
    expect(await classifyRawMessage(raw)).toMatchObject({
      class: 'complaint',
      hard: false,
      reason: 'feedback',
    });
  });

  it('reads an Amazon SES bounce notification', async () => {
    const event = {
      notificationType: 'Bounce',
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [
          { emailAddress: 'a@example.com', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
        ],
      },
    };
    const raw = crlf([
      'From: no-reply@sns.amazonaws.com',
      'Subject: AWS Notification Message',
      'Content-Type: text/plain',
      '',
      JSON.stringify({ Type: 'Notification', Message: JSON.stringify(event) }),
    ]);
    expect(await classifyRawMessage(raw)).toMatchObject({ class: 'bounce', hard: true, status: '5.1.1' });
  });

  it('reads an out-of-office by its RFC 3834 header, with the return date', async () => {
    const result = await classifyRawMessage(
      reply(
        ['Subject: Automatic reply: Idea for your SDR team', 'Auto-Submitted: auto-replied'],
        'I am out of the office and will be back on Monday, March 18.\r\nPlease stop by our booth at the expo.',
      ),
    );
    expect(result).toMatchObject({
      class: 'out_of_office',
      reason: 'vacation',
      returnDate: '2024-03-18',
      hard: false,
    });
  });

  it('reads an unsubscribe request, ignoring our own quoted words', async () => {
    const result = await classifyRawMessage(
      reply(
        ['Subject: Re: Idea for your SDR team'],
        'Please remove me from your list.\r\n\r\nOn Tue, Mar 12, 2024 at 9:14 AM Dana <dana@touchbase-demo.io> wrote:\r\n> Interested in a call?',
      ),
    );
    expect(result).toMatchObject({ class: 'unsubscribe', replyClass: 'unsubscribe', sentiment: 'negative' });
  });

  it('reads a reply and its class', async () => {
    const result = await classifyRawMessage(
      reply(
        ['Subject: Re: Idea for your SDR team'],
        'Sure, happy to chat. How about Thursday at 2pm?\r\n\r\nOn Tue, Mar 12, 2024 at 9:14 AM Dana <dana@touchbase-demo.io> wrote:\r\n> If not, reply "stop".',
      ),
    );
    expect(result).toMatchObject({
      class: 'reply',
      replyClass: 'meeting_request',
      reason: 'meeting_request',
      sentiment: 'positive',
    });
    expect(result.why.length).toBeGreaterThan(0);
  });

  it('reads a plain-text bounce notice without a delivery-status part', async () => {
    const raw = crlf([
      'From: MAILER-DAEMON@mx.example.net',
      'Subject: failure notice',
      'Content-Type: text/plain',
      '',
      'Hi. This is the qmail-send program at mx.example.net.',
      "I'm afraid I wasn't able to deliver your message to the following addresses.",
      '',
      '<jsmith@example.net>:',
      'Sorry, no mailbox here by that name. (#5.1.1)',
      '',
      '--- Below this line is a copy of the message.',
      '',
      'Return-Path: <dana@touchbase-demo.io>',
      'Subject: Please unsubscribe here',
    ]);
    expect(await classifyRawMessage(raw)).toMatchObject({
      class: 'bounce',
      hard: true,
      status: '5.1.1',
      reason: 'userunknown',
    });
  });
});
