import { describe, expect, it } from 'vitest';
import { decideBounce } from '../../src/classify/bounce-reason.js';
import { classifyRawMessage } from '../../src/classify/index.js';
import { findStatusCode } from '../../src/classify/status-code.js';

/** Reads one server reply as a diagnostic, with the status code it carries. */
function verdictOf(reply: string): { reason: string; hard: boolean } {
  const { reason, hard } = decideBounce({ status: findStatusCode(reply), diagnostic: reply });
  return { reason, hard };
}

describe('"this address does not exist" in word orders the first rules miss', () => {
  it.each([
    '550 User is unknown',
    '550 Mailbox unknown',
    '550 Recipient is unknown',
    '550 unknown account',
    '550 Unknown email address',
    '550 Invalid email address',
    '550 Invalid e-mail address: bob@example.org',
    '550 Recipient not valid',
    '550 Address not valid',
    '550 The recipient address <bob@example.org> is not a valid RFC-5321 address',
  ])('%s', (reply) => {
    expect(verdictOf(reply)).toEqual({ reason: 'userunknown', hard: true });
  });

  it('leaves a sender-side "invalid address" to the sender rules', () => {
    expect(verdictOf('550 5.1.7 Invalid email address in From header').hard).toBe(false);
    expect(verdictOf('553 sender address not valid').hard).toBe(false);
  });
});

describe('"no such recipient" as servers say it in more languages', () => {
  it.each([
    ['pl', '550 Nieprawidłowy adres odbiorcy'],
    ['pl', '550 Adresat nie istnieje'],
    ['pl', '550 Podany adres e-mail nie istnieje'],
    ['fr', '550 Adresse email inconnue'],
    ['cs', '550 Příjemce neexistuje'],
    ['ru', '550 Адрес не существует'],
    ['ru', '550 Такого адреса нет'],
    ['sv', '550 Mottagaren finns inte'],
    ['da', '550 Modtageren findes ikke'],
    ['no', '550 Mottakeren finnes ikke'],
    ['fi', '550 Vastaanottajaa ei ole olemassa'],
    ['tr', '550 Alıcı bulunamadı'],
    ['hu', '550 Címzett nem létezik'],
    ['ko', '550 수신자를 찾을 수 없습니다'],
    ['el', '550 Ο παραλήπτης δεν υπάρχει'],
    ['ro', '550 Destinatarul nu există'],
    ['zh-Hant', '550 收件者不存在'],
  ])('%s: %s', (_lang, reply) => {
    expect(verdictOf(reply)).toEqual({ reason: 'userunknown', hard: true });
  });
});

describe('text over code: the words say what the code does not', () => {
  it('reads a sending limit under 5.1.1 as rate limiting, not a dead address', () => {
    expect(verdictOf('550 5.1.1 Recipient rejected: Sending limits exceeded')).toEqual({
      reason: 'speeding',
      hard: false,
    });
    expect(verdictOf('550 Daily sending quota exceeded')).toEqual({ reason: 'speeding', hard: false });
  });

  it('reads GMX\'s "mailbox unavailable" that blames our DNS as a refusal of the sender', () => {
    expect(
      verdictOf(
        '550-Requested action not taken: mailbox unavailable 550 invalid DNS MX or A/AAAA resource record',
      ),
    ).toEqual({ reason: 'rejected', hard: false });
    expect(verdictOf('553 sender domain example.org has no MX').hard).toBe(false);
  });
});

describe('a domain or address that takes no mail', () => {
  it('reads "no MX for <domain>" as a domain without mail service', () => {
    expect(verdictOf('550 no mx for domain example.org')).toEqual({ reason: 'notaccept', hard: true });
  });

  it('reads "no longer accepts mail" as an address that has gone', () => {
    expect(verdictOf('550 This address no longer accepts mail')).toEqual({ reason: 'hasmoved', hard: true });
  });
});

describe("Exchange's and Gmail's localized notice subjects", () => {
  const notice = (subject: string): string =>
    [
      'From: Acme Relay <relay@mail.acme.test>',
      `Subject: ${subject}`,
      'Content-Type: text/plain; charset=UTF-8',
      '',
      'bob@acme.test',
      '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found',
      '',
    ].join('\r\n');

  it.each([
    'Não é possível entregar: Our offer',
    'Kan inte levereras: Our offer',
    'Kan ikke leveres: Our offer',
    'Ei voi toimittaa: Our offer',
    'Nelze doručit: Our offer',
    'Teslim edilemedi: Our offer',
    'Kézbesíthetetlen: Our offer',
    '無法傳遞: Our offer',
    '배달되지 않음: Our offer',
    'Benachrichtigung zum Zustellstatus (Fehler)',
    "Notification d'état de remise (échec)",
    'Notificación de estado de entrega (error)',
  ])('%s', async (subject) => {
    const got = await classifyRawMessage(notice(subject));
    expect(got).toMatchObject({ class: 'bounce', hard: true });
  });

  it('keeps a reply to such a subject a reply', async () => {
    const got = await classifyRawMessage(
      [
        'From: Bob <bob@acme.test>',
        'Subject: Re: Kan inte levereras: Our offer',
        'Content-Type: text/plain; charset=UTF-8',
        '',
        'Thanks, that sounds interesting. Can we talk on Tuesday?',
        '',
      ].join('\r\n'),
    );
    expect(got.class).toBe('reply');
  });
});

describe('a multi-line SMTP reply is read whole (RFC 5321 4.2.1)', () => {
  it('reads the line after "550-... mailbox unavailable" before deciding', () => {
    const verdict = decideBounce({
      status: '5.0.0',
      diagnostic:
        '550-Requested action not taken: mailbox unavailable\n550 invalid DNS MX or A/AAAA resource record',
    });
    expect(verdict).toMatchObject({ reason: 'rejected', hard: false });
  });

  it('still reads the first of two recipients when each has its own reply', () => {
    const verdict = decideBounce({
      status: '5.0.0',
      diagnostic: '550 5.1.1 <a@example.org>: User unknown\n552 5.2.2 <b@example.org>: Mailbox full',
    });
    expect(verdict).toMatchObject({ reason: 'userunknown', hard: true });
  });
});

describe('a final (5yz) reply with a 4.x.x enhanced code, and RFC 6710 owner changes', () => {
  it('reads the 5yz reply as final: the address whose owner changed is dead', () => {
    expect(verdictOf('551 4.7.17 mailbox owner has changed')).toEqual({ reason: 'hasmoved', hard: true });
    expect(verdictOf('551 4.7.18 domain owner has changed')).toEqual({ reason: 'hasmoved', hard: true });
    expect(verdictOf('550 5.7.17 Mailbox owner has changed')).toEqual({ reason: 'hasmoved', hard: true });
  });

  it('keeps a 4yz reply, a delay or a retried delivery soft whatever the words', () => {
    expect(verdictOf('450 4.7.17 mailbox owner has changed').hard).toBe(false);
    expect(verdictOf('4.1.1 user unknown').hard).toBe(false);
    const delayed = decideBounce({
      status: '4.7.17',
      diagnostic: '551 4.7.17 mailbox owner has changed',
      action: 'delayed',
    });
    expect(delayed.hard).toBe(false);
  });

  it('reads "not a known user" as a dead address', () => {
    expect(verdictOf('550 <bob@example.org> is not a known user')).toEqual({
      reason: 'userunknown',
      hard: true,
    });
    expect(verdictOf('550 5.1.1 not a valid recipient')).toEqual({ reason: 'userunknown', hard: true });
  });
});
