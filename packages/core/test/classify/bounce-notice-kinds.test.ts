import { describe, expect, it } from 'vitest';
import { classifyRawMessage } from '../../src/classify/index.js';

const crlf = (lines: string[]): string => lines.join('\r\n');

describe('bounce notices that are not plain RFC 3464', () => {
  it('reads a delivery report nested inside a message/rfc822 part', async () => {
    const inner = crlf([
      'From: MAILER-DAEMON@mx.acme.test',
      'Subject: Undelivered Mail Returned to Sender',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="in"',
      '',
      '--in',
      'Content-Type: text/plain',
      '',
      'Your message could not be delivered.',
      '--in',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.acme.test',
      '',
      'Final-Recipient: rfc822; bob@acme.test',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 <bob@acme.test>: Recipient address rejected: User unknown',
      '--in--',
      '',
    ]);
    const outer = crlf([
      'From: helpdesk@relay.test',
      'Subject: FW: returned mail',
      'Content-Type: multipart/mixed; boundary="out"',
      '',
      '--out',
      'Content-Type: text/plain',
      '',
      'Forwarding the attached notice.',
      '--out',
      'Content-Type: message/rfc822',
      '',
      inner,
      '--out--',
      '',
    ]);
    const got = await classifyRawMessage(outer);
    expect(got).toMatchObject({ class: 'bounce', hard: true, status: '5.1.1' });
    expect(got.why[0]).toContain('nested');
  });

  it('reads a Japanese notice', async () => {
    const got = await classifyRawMessage(
      crlf([
        'From: system@mail.acme.test',
        'Subject: =?UTF-8?B?6YWN5L+h5LiN6IO9?=',
        'Content-Type: text/plain; charset=UTF-8',
        '',
        '以下のアドレスへ送信できませんでした。',
        'bob@acme.test: 550 5.1.1 ユーザが存在しません',
        '',
      ]),
    );
    expect(got).toMatchObject({ class: 'bounce', hard: true });
  });

  it('reads a Polish notice by its subject', async () => {
    const got = await classifyRawMessage(
      crlf([
        'From: serwer@poczta.acme.test',
        'Subject: =?UTF-8?Q?Wiadomo=C5=9B=C4=87_niedostarczona?=',
        'Content-Type: text/plain; charset=UTF-8',
        '',
        'Nie można dostarczyć wiadomości do bob@acme.test.',
        '550 5.1.1 Użytkownik nie istnieje',
        '',
      ]),
    );
    expect(got).toMatchObject({ class: 'bounce', hard: true });
  });

  it("reads a gateway's notice that keeps a reply subject with the verdict at its end", async () => {
    const got = await classifyRawMessage(
      crlf([
        'From: gateway@relay.acme.test',
        'Subject: RE: Our offer : non remis',
        '\t(delivery failed)',
        'Content-Type: text/plain; charset=US-ASCII',
        '',
        "Votre message n'a pas pu etre delivre a bob@acme.test",
        'Your message could not be delivered to bob@acme.test',
        '',
      ]),
    );
    expect(got.class).toBe('bounce');
    expect(got.why.join(' ')).toContain('delivery verdict');
  });

  it('keeps a person\'s reply whose subject ends with "undeliverable" but whose text is a reply', async () => {
    const got = await classifyRawMessage(
      crlf([
        'From: Bob <bob@acme.test>',
        'Subject: Re: why was my parcel - undeliverable',
        'Content-Type: text/plain; charset=US-ASCII',
        '',
        'Thanks, that sounds interesting. Can we talk on Tuesday?',
        '',
      ]),
    );
    expect(got.class).toBe('reply');
  });

  it('reads an MDaemon notice as a bounce', async () => {
    const got = await classifyRawMessage(
      crlf([
        'From: MDaemon@mail.acme.test',
        'Subject: Warning: bob@acme.test - User unknown!',
        'Content-Type: text/plain; charset=US-ASCII',
        '',
        'bob@acme.test - no such user here.',
        'There is no user by that name at this server.',
        '',
      ]),
    );
    expect(got).toMatchObject({ class: 'bounce', hard: true });
  });
});
