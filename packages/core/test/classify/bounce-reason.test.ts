import { describe, expect, it } from 'vitest';
import { decideBounce } from '../../src/classify/bounce-reason.js';
import { findStatusCode } from '../../src/classify/status-code.js';

describe('decideBounce', () => {
  it.each([
    ['5.1.1', '550 5.1.1 <a@example.org>: Recipient address rejected: User unknown', 'userunknown', true],
    ['5.1.2', 'Host or domain name not found. Name service error', 'hostunknown', true],
    [
      '5.1.10',
      '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
      'userunknown',
      true,
    ],
    [
      '5.7.26',
      '550-5.7.26 This message does not pass authentication checks (SPF and DKIM both do not pass)',
      'authfailure',
      false,
    ],
    [
      '5.7.515',
      '550 5.7.515 Access denied, sending domain does not meet the required authentication level',
      'authfailure',
      false,
    ],
    [
      '5.7.1',
      '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org',
      'blocked',
      false,
    ],
    ['5.7.1', '550 5.7.1 Message rejected as spam by Content Filtering', 'spamdetected', false],
    ['5.7.1', '554 5.7.1 Message not accepted for policy reasons', 'policyviolation', false],
    ['5.2.2', '552 5.2.2 Mailbox full', 'mailboxfull', false],
    ['4.4.7', 'Message expired: unable to deliver in 840 minutes', 'expired', false],
    // More wordings of "no such address" (issue 18), in servers' own words.
    ['5.0.0', '550-<bob@example.org> is not a known user on this system', 'userunknown', true],
    ['5.0.0', '550 ** No mail box available for this user **', 'userunknown', true],
    ['5.0.0', '553 sorry, badrcptto(user mail-box not found) (#5.7.1)', 'userunknown', true],
    ['5.0.0', '550 BAD_RECIPIENT - see http://mail.example.org/undelivered', 'userunknown', true],
    ['5.0.0', '550 Rcpt <bob@example.org> does not exist', 'userunknown', true],
    // The same in other languages and other servers' English.
    ['5.0.0', '550 Postfach existiert nicht', 'userunknown', true],
    ['5.0.0', '550 destinataire inconnu', 'userunknown', true],
    ['5.0.0', '550 boîte aux lettres inexistante', 'userunknown', true],
    ['5.0.0', '550 dirección de correo inexistente', 'userunknown', true],
    ['5.0.0', '550 indirizzo inesistente', 'userunknown', true],
    ['5.0.0', '550 onbekende gebruiker', 'userunknown', true],
    ['5.0.0', '550 endereço inexistente', 'userunknown', true],
    ['5.0.0', '550 No account by that name here', 'userunknown', true],
    ['5.0.0', "Sorry, I couldn't find any host named example.org.", 'hostunknown', true],
    ['5.0.0', 'all relevant MX records point to non-existent hosts', 'hostunknown', true],
    ['5.0.0', '554 host does not provide SMTP service', 'notaccept', true],
    // Words that do not say whether the address is dead leave it alive.
    ['5.0.0', '550 recipient rejected', 'undefined', false],
    ['5.0.0', '550 Mailbox not available', 'undefined', false],
    // RFC 3463 X.2.1 alone: the mailbox exists but refuses for now, not a dead address;
    // with words that say the user is unknown, the words decide.
    ['5.2.1', '550 5.2.1 Mailbox disabled', 'suspend', false],
    ['5.2.1', '550 5.2.1 Requested action not taken', 'suspend', false],
    ['5.2.1', '550 5.2.1 <bob@example.org>... User unknown', 'userunknown', true],
    // A domain whose MX cannot be resolved, permanently (RFC 3463 X.4.4 "unable to route").
    [
      '5.4.4',
      'X-Postfix; Name service error for name=example.org type=MX: Malformed or unexpected name server reply',
      'hostunknown',
      true,
    ],
    [
      '4.4.3',
      'X-Postfix; Name service error for name=example.org type=MX: Host not found, try again',
      'networkerror',
      false,
    ],
    // The resolver's "try again" on the line after "host or domain name not found",
    // with a 5.x.x code: the lookup failed for now, the domain is not known missing.
    [
      '5.4.4',
      'Host or domain name not found. Name service error for\n    name=example.org type=MX: Host not found, try again',
      'networkerror',
      false,
    ],
    // "Not found" in Exchange's, Courier's and non-English servers' words.
    ['5.1.1', "The email address you entered couldn't be found.", 'userunknown', true],
    ['', '550 User <bob@example.org> not found', 'userunknown', true],
    ['', '550 Adresse introuvable', 'userunknown', true],
    ['', '550 Empfänger nicht vorhanden', 'userunknown', true],
    ['', '550 Usuário não encontrado', 'userunknown', true],
    ['', '550 Пользователь не найден', 'userunknown', true],
    ['', '550 收件人不存在', 'userunknown', true],
    // "Not found" of a full mailbox or a filter is not a dead address: the earlier rules win.
    ['5.2.2', '552 Mailbox full: user <bob@example.org> not found room', 'mailboxfull', false],
    // The wordings of "no such mailbox" that servers misspell or phrase otherwise.
    [
      '5.7.1',
      '554 5.7.1 <bob@example.org>: Recipient address rejected: Nonexistent user',
      'userunknown',
      true,
    ],
    ['', "554 RCPT (bob@example.org) dosn't exist (in reply to RCPT TO command)", 'userunknown', true],
  ])('status %s "%s" is %s (hard: %s)', (status, diagnostic, reason, hard) => {
    const verdict = decideBounce({ status, diagnostic });
    expect(verdict.reason).toBe(reason);
    expect(verdict.hard).toBe(hard);
    expect(verdict.why.length).toBeGreaterThan(0);
  });

  it('never calls a temporary failure hard, whatever the words', () => {
    expect(decideBounce({ status: '4.1.1', diagnostic: '450 4.1.1 User unknown' }).hard).toBe(false);
    expect(decideBounce({ status: '5.1.1', diagnostic: 'User unknown', action: 'delayed' }).hard).toBe(false);
  });

  it('reads "user unknown" answered to DATA as a filter, except where the provider checks late', () => {
    const filtered = decideBounce({
      status: '5.0.0',
      diagnostic: '550 Unknown user a@example.jp',
      notice: 'host mx.example.jp said: 550 Unknown user a@example.jp (in reply to end of DATA command)',
    });
    expect([filtered.reason, filtered.hard]).toEqual(['filtered', false]);
    const yahoo = decideBounce({
      status: '5.0.0',
      diagnostic: "554 delivery error: dd This user doesn't have a yahoo.com account",
      notice: '(in reply to end of DATA command)',
    });
    expect([yahoo.reason, yahoo.hard]).toEqual(['userunknown', true]);
  });

  it('reads the first recipient of a notice that lists several', () => {
    const verdict = decideBounce({
      status: '',
      diagnostic: '5.2.1 <a@example.jp>... User Unknown\n5.2.2 <b@example.jp>... Mailbox Full',
    });
    expect(verdict.reason).toBe('userunknown');
  });

  it('falls back to the status code, then to the notice', () => {
    expect(decideBounce({ status: '5.1.6', diagnostic: '551 nope' }).reason).toBe('hasmoved');
    expect(
      decideBounce({ status: '', diagnostic: '', notice: 'User not listed in Domino Directory' }).reason,
    ).toBe('userunknown');
    expect(decideBounce({ status: '5.0.0', diagnostic: '' }).reason).toBe('undefined');
  });
});

describe('findStatusCode', () => {
  it('prefers the code after the reply code and ignores IP addresses', () => {
    expect(findStatusCode('host 192.0.2.1 said: 550 5.1.1 <a@b>: User unknown')).toBe('5.1.1');
    expect(findStatusCode('Status: 5.0.0; then 5.2.2 later')).toBe('5.2.2');
    expect(findStatusCode('no mailbox here by that name (#5.1.1 - chkusr)')).toBe('5.1.1');
    expect(findStatusCode('connect to 192.0.2.10 failed')).toBe('');
  });
});
