import { describe, expect, it } from 'vitest';
import { decideBounce } from '../../src/classify/bounce-reason.js';
import { classifyRawMessage, classifyReplyText } from '../../src/classify/index.js';
import { mayPause } from '../../src/classify/pausing-guard.js';

const raw = (headers: string, body: string): string => `${headers.trim()}\r\n\r\n${body}`;

describe('mayPause (safety rule)', () => {
  it('needs positive evidence of an absence notice', () => {
    expect(mayPause({ stoppers: [] }).pause).toBe(false);
    expect(mayPause({ absence: 'absence wording', stoppers: [] }).pause).toBe(true);
  });

  it('never pauses with evidence of a bounce, complaint, unsubscribe or a person replying', () => {
    const verdict = mayPause({ absence: 'absence subject', stoppers: ['a person declines'] });
    expect(verdict.pause).toBe(false);
    expect(verdict.why).toContain('a person declines');
  });
});

describe('a header never beats the content', () => {
  it('Auto-Submitted alone does not make an out-of-office', async () => {
    const got = await classifyRawMessage(
      raw(
        'From: helpdesk@acme.test\r\nSubject: Your request was received\r\nAuto-Submitted: auto-replied',
        'We received your message and a ticket was opened.',
      ),
    );
    expect(got.class).not.toBe('out_of_office');
  });

  it("a mail client's unsubscribe sent auto-replied stops the sequence", async () => {
    const got = await classifyRawMessage(
      raw(
        'From: a@icloud.test\r\nSubject: unsubscribe\r\nAuto-Submitted: auto-replied\r\nX-Apple-Unsubscribe: true',
        'Apple Mail sent this email to unsubscribe from the message.',
      ),
    );
    expect(got.class).toBe('complaint');
  });

  it('an unsubscribe reply with Auto-Submitted is an unsubscribe', () => {
    const got = classifyReplyText({
      subject: 'Re: hello',
      text: 'Please remove me from your mailing list.',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect(got.replyClass).toBe('unsubscribe');
  });

  it('a bounce carrying Auto-Submitted is a bounce', async () => {
    const got = await classifyRawMessage(
      raw(
        'From: MAILER-DAEMON@mx.acme.test\r\nSubject: Undelivered Mail Returned to Sender\r\nAuto-Submitted: auto-replied',
        '<bob@acme.test>: host mx.acme.test said: 550 5.1.1 User unknown (in reply to RCPT TO command)',
      ),
    );
    expect(got.class).toBe('bounce');
    expect(got.hard).toBe(true);
  });

  it("a person's hand-written answer that mentions an absence is not an out-of-office", () => {
    const got = classifyReplyText({
      subject: 'Re: hello',
      text: "I'm out of the office tomorrow, but yes, let's talk on Tuesday at 10.",
    });
    // Asking to talk on a day is a meeting request (a kind of interest).
    expect(got.replyClass).toBe('meeting_request');
    expect(got.why.join(' ')).toContain('never pausing');
  });

  it('a localized auto-reply without RFC 3834 headers pauses, with its return date', () => {
    const got = classifyReplyText({
      subject: '[Automatyczna odpowiedź] Re: hello',
      text: 'Jestem na urlopie do 12.08.2024.',
      headers: { Precedence: 'bulk', Date: 'Mon, 5 Aug 2024 10:00:00 +0200' },
    });
    expect(got).toMatchObject({ replyClass: 'out_of_office', returnDate: '2024-08-13' });
  });

  it.each([
    ['Automatická odpověď: Re: hello'],
    ['Autosvar: Re: hello'],
    ['Atvalinājums Re: hello'],
    ['Автоответ: Re: hello'],
  ])('an auto-reply whose subject "%s" says so in another language pauses', (subject) => {
    const got = classifyReplyText({
      subject,
      text: 'Thank you for your message.',
      headers: { 'X-Autoreply': 'yes' },
    });
    expect(got.replyClass).toBe('out_of_office');
  });

  it('a localized auto-reply subject does not pause an unsubscribe', () => {
    const got = classifyReplyText({
      subject: 'Autosvar: Re: hello',
      text: 'Please unsubscribe me from this list.',
    });
    expect(got.replyClass).toBe('unsubscribe');
  });

  it.each([
    ['Estou de férias até 15 de agosto de 2024.', '2024-08-16'],
    ['Sono in ferie fino al 26 agosto 2024.', '2024-08-27'],
    ['Ik ben met vakantie tot en met 16 augustus 2024.', '2024-08-17'],
  ])('reads the return date of "%s"', (text, date) => {
    const got = classifyReplyText({ subject: 'Automatic reply: hello', text });
    expect(got).toMatchObject({ replyClass: 'out_of_office', returnDate: date });
  });
});

describe('bounces that do not look like RFC 3464', () => {
  it('an SMS gateway rejection from post_master with a Re: subject', async () => {
    const got = await classifyRawMessage(
      raw(
        'From: post_master@vtext.test\r\nSubject: Re:Hello',
        'Error: Invalid user address\r\n550 - Requested action not taken: no such user here',
      ),
    );
    expect(got.class).toBe('bounce');
    expect(got.hard).toBe(true);
  });

  it("a mailing-list manager's refusal", async () => {
    const got = await classifyRawMessage(
      raw(
        'From: list-admin@acme.test\r\nSubject: Loop Alert: Duplicated Message-ID\r\nX-MLServer: fml',
        'Duplicated Message-ID in <list@acme.test>.',
      ),
    );
    expect(got.class).toBe('bounce');
    expect(got.hard).toBe(false);
  });
});

describe('status code and text disagree: the text decides', () => {
  it('5.1.1 with "too many recipients this hour" is not a dead address', () => {
    const v = decideBounce({
      status: '5.1.1',
      diagnostic: '550 5.1.1 <a@b.test> has sent to too many recipients this hour',
    });
    expect(v).toMatchObject({ reason: 'speeding', hard: false });
    expect(v.why.join(' ')).toContain('too many recipients');
  });

  it('5.1.1 with "message size exceeded" is not a dead address', () => {
    expect(decideBounce({ status: '5.1.1', diagnostic: '552 5.1.1 message size exceeded' }).hard).toBe(false);
  });

  it('5.7.1 with "mailbox not found" is a dead address', () => {
    expect(decideBounce({ status: '5.7.1', diagnostic: '550 5.7.1 mailbox not found' })).toMatchObject({
      reason: 'userunknown',
      hard: true,
    });
  });

  it('a content rejection is not a dead domain', () => {
    expect(
      decideBounce({ status: '5.7.1', diagnostic: '550 5.7.1 we are not accepting mail with attachments' })
        .hard,
    ).toBe(false);
  });

  it('no MX and no SMTP service are dead domains', () => {
    expect(decideBounce({ status: '5.1.10', diagnostic: '556 5.1.10 domain has no MX, null MX' }).hard).toBe(
      true,
    );
    expect(decideBounce({ status: '5.0.0', diagnostic: '554 no SMTP service here' }).hard).toBe(true);
  });
});

describe('replies in more languages', () => {
  it.each([
    ['Thanks, but we signed with another vendor.', 'not_interested'],
    ['I left the company in March.', 'wrong_person'],
    ['Ya no trabajo en esta empresa.', 'wrong_person'],
    ['Não temos interesse, obrigado.', 'not_interested'],
    ['Vi prego di cancellarmi dalla lista.', 'unsubscribe'],
    ['Ik ben niet de juiste persoon hiervoor.', 'wrong_person'],
  ])('%s -> %s', (text, label) => {
    expect(classifyReplyText({ subject: 'Re: hello', text }).replyClass).toBe(label);
  });

  it('extracts the referral and names the deciding rule', () => {
    const got = classifyReplyText({
      subject: 'Re: hello',
      text: 'Not my area, please contact Jane.Doe@acme.test instead.',
    });
    // As written: the local part of an address is case-sensitive (RFC 5321).
    expect(got).toMatchObject({ replyClass: 'wrong_person', referral: 'Jane.Doe@acme.test' });
    expect(got.decidedBy).toMatch(/wrong_person/);
  });
});
