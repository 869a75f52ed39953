import { describe, expect, it } from 'vitest';
import { decideBounce } from '../../src/classify/bounce-reason.js';
import { classifyRawMessage } from '../../src/classify/index.js';

// Bounce kinds found by reading the misses of the used-up holdouts (issue 18),
// written here in other words than theirs.
const crlf = (lines: string[]): string => lines.join('\r\n');

describe('bounce kinds: the phase, the code and the words', () => {
  it('a bare "unknown user" answered to DATA stays a filter (Japanese carriers)', () => {
    const verdict = decideBounce({
      status: '5.0.0',
      diagnostic: '550 Unknown user ann@carrier.test (in reply to end of DATA command)',
    });
    expect(verdict).toMatchObject({ reason: 'filtered', hard: false });
  });

  it.each([
    '550 Mailbox <ann@acme.test> does not exist (in reply to end of DATA command)',
    '550 Delivery refused -- invalid mailbox. Local mailbox ann@acme.test is unavailable: account not found (in reply to end of DATA command)',
    '552 Requested action aborted: recipient not found (in reply to end of DATA command)',
  ])(
    'a server that spells out "does not exist" or "not found" is believed even at DATA: %s',
    (diagnostic) => {
      const verdict = decideBounce({ status: '5.0.0', diagnostic });
      expect(verdict).toMatchObject({ reason: 'userunknown', hard: true });
      expect(verdict.why.join(' ')).toContain('even in reply to DATA');
    },
  );

  it('reads "mailbox <address> unavailable" as no such mailbox', () => {
    const verdict = decideBounce({
      status: '5.0.0',
      diagnostic: '550 mailbox zoe@acme.test unavailable (in reply to RCPT TO command)',
    });
    expect(verdict).toMatchObject({ reason: 'userunknown', hard: true });
  });

  it('status 5.1.0 with words that name the recipient is a dead address; naming the sender is not', () => {
    expect(
      decideBounce({ status: '5.1.0', diagnostic: '550 5.1.0 Recipient rejected: <x@acme.test>' }),
    ).toMatchObject({ reason: 'userunknown', hard: true });
    expect(decideBounce({ status: '5.1.0', diagnostic: '550 5.1.0 Sender rejected' }).hard).toBe(false);
  });

  it.each(['550 This account has been closed', '550 user is terminated', '550 mailbox deleted'])(
    'a closed, terminated or deleted account is a dead address: %s',
    (diagnostic) => {
      expect(decideBounce({ status: '', diagnostic })).toMatchObject({ reason: 'userunknown', hard: true });
    },
  );

  it.each([
    '550 This mailbox has been permanently disabled',
    '550 Address rejected: recipient no longer exists',
    '550 unroutable address',
  ])('a mailbox gone for good is a dead address: %s', (diagnostic) => {
    expect(decideBounce({ status: '', diagnostic }).hard).toBe(true);
  });

  it('a mailbox disabled for now stays soft', () => {
    expect(decideBounce({ status: '', diagnostic: '550 mailbox temporarily disabled' })).toMatchObject({
      reason: 'suspend',
      hard: false,
    });
  });

  it('our own account closed is not the recipient dead', () => {
    expect(
      decideBounce({ status: '', diagnostic: '550 Your account has been closed for sending' }).hard,
    ).toBe(false);
  });

  it('an MMS gateway with "no valid recipients" is a dead address', () => {
    const verdict = decideBounce({
      status: '',
      diagnostic: '',
      notice: 'Error: No valid recipients for this message',
    });
    expect(verdict).toMatchObject({ reason: 'userunknown', hard: true });
  });

  it('a Japanese notice that the mailbox is full is soft', () => {
    expect(
      decideBounce({ status: '', diagnostic: '', notice: '宛先のメールボックスがいっぱいです。' }),
    ).toMatchObject({
      reason: 'mailboxfull',
      hard: false,
    });
  });
});

describe('bounce kinds: telling a notice from a person', () => {
  it('reads a stored message that begins with blank lines', async () => {
    const got = await classifyRawMessage(
      `\n   \n${crlf([
        'From: postmaster@acme.test',
        'Subject: Delivery Status Notification (Failure)',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'Delivery to these recipients failed.',
        '--b',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.acme.test',
        '',
        'Final-Recipient: rfc822; pat@acme.test',
        'Action: failed',
        'Status: 5.1.1',
        '--b--',
        '',
      ])}`,
    );
    expect(got).toMatchObject({ class: 'bounce', hard: true, status: '5.1.1' });
  });

  it('reads a message from the null sender "<>" as a notice, whatever its headers say', async () => {
    const got = await classifyRawMessage(
      crlf([
        'From: <>',
        'Auto-Submitted: auto-replied',
        'Subject: Re: your note',
        '',
        'Mail for lee@acme.test could not be handed over: no such user here.',
        '',
      ]),
    );
    expect(got.class).toBe('bounce');
    expect(got.why.join(' ')).toContain('null address');
  });

  it('reads a notice whose envelope sender is MAILER-DAEMON and whose subject says it failed', async () => {
    const got = await classifyRawMessage(
      crlf([
        'Return-Path: <MAILER-DAEMON@gw.acme.test>',
        'From: scanner@gw.acme.test',
        'Subject: Message could not be delivered',
        '',
        'Unable to deliver message to <kim@acme.test>.',
        '',
      ]),
    );
    expect(got.class).toBe('bounce');
  });

  it('reads a plain-text notice that a colleague forwarded whole', async () => {
    const got = await classifyRawMessage(
      crlf([
        'From: Office Desk <desk@acme.test>',
        'Subject: FW: returned',
        'Content-Type: multipart/mixed; boundary="f"',
        '',
        '--f',
        'Content-Type: text/plain',
        '',
        'This came back, FYI.',
        '--f',
        'Content-Type: message/rfc822',
        '',
        'From: Mail Delivery System <MAILER-DAEMON@gw.acme.test>',
        'Subject: Undelivered Mail Returned to Sender',
        'Content-Type: text/plain',
        '',
        '<lou@acme.test>: host gw.acme.test said: 550 5.1.1 <lou@acme.test>: Recipient address rejected: User unknown (in reply to RCPT TO command)',
        '--f--',
        '',
      ]),
    );
    expect(got).toMatchObject({ class: 'bounce', hard: true });
    expect(got.why[0]).toContain('nested');
  });

  it.each([
    'lou est introuvable sur acme.test.',
    'lou no se encontró en acme.test.',
    'lou werd niet gevonden op acme.test.',
  ])('reads a localized Exchange "not found at the domain": %s', (notice) => {
    expect(decideBounce({ status: '', diagnostic: '', notice }).hard).toBe(true);
  });

  // A security gateway that could not deliver sometimes names no reason and returns,
  // in place of our message, the report the next server sent it.
  const gatewayNotice = (returned: string[]): string =>
    crlf([
      'From: postmaster@gw.acme.test ("Gateway Notification")',
      'Subject: Mail could not be delivered',
      'Content-Type: multipart/mixed; boundary="g"',
      '',
      '--g',
      'Content-Type: text/plain',
      '',
      'Unable to deliver message to <ivo@acme.test>.',
      '--g',
      'Content-Type: message/rfc822',
      '',
      'From: us@sender.test',
      'To: ivo@acme.test',
      'Subject: hello',
      'Content-Type: text/plain',
      '',
      ...returned,
      '--g--',
      '',
    ]);

  it("reads the remote server's transcript that a reasonless notice returns", async () => {
    const got = await classifyRawMessage(
      gatewayNotice([
        '   ----- Transcript of the session follows -----',
        '... while talking to mx.acme.test.:',
        '>>> RCPT To:<ivo@acme.test>',
        '<<< 550 5.1.1 <ivo@acme.test>... No such mailbox',
      ]),
    );
    expect(got).toMatchObject({ class: 'bounce', hard: true, status: '5.1.1' });
    expect(got.why.join(' ')).toContain('transcript');
  });

  it('reads a returned transcript with a full mailbox as soft', async () => {
    const got = await classifyRawMessage(
      gatewayNotice(['<ivo@acme.test>: host mx.acme.test said: 552 5.2.2 Mailbox full']),
    );
    expect(got).toMatchObject({ class: 'bounce', hard: false, status: '5.2.2' });
  });

  it('does not read codes in a returned message that holds no transcript (our own words)', async () => {
    const got = await classifyRawMessage(
      gatewayNotice(['Our plan costs 550 5.1.1 credits a month; see section 5.1.1 of the offer.']),
    );
    expect(got).toMatchObject({ class: 'bounce', hard: false });
    expect(got.why.join(' ')).not.toContain('transcript');
  });
});
