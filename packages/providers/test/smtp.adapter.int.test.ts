import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendRequest } from '../src/provider-adapter.js';
import { SmtpAdapter, smtpMessageId } from '../src/smtp/smtp.adapter.js';
import { classifySmtpError } from '../src/smtp/smtp-error.js';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../src/smtp/unsubscribe-token.js';

type Rule = { rcpt?: [number, string]; data?: [number, string]; mail?: [number, string] };

/** A real SMTP server on loopback that keeps what arrived and refuses what a rule says. */
async function startSmtp(opts: Partial<SMTPServerOptions> = {}) {
  const received: ParsedMail[] = [];
  const rules = new Map<string, Rule>();
  const refuse = (rule?: [number, string]) => {
    if (!rule) return null;
    const err = new Error(rule[1]) as Error & { responseCode: number };
    err.responseCode = rule[0];
    return err;
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, cb) {
      cb(refuse(rules.get('*')?.mail));
    },
    onRcptTo(address, _session, cb) {
      cb(refuse(rules.get(address.address)?.rcpt));
    },
    onData(stream, session, cb) {
      const to = session.envelope.rcptTo[0]?.address ?? '';
      simpleParser(stream).then((mail) => {
        const rule = rules.get(to)?.data;
        if (!rule) received.push(mail);
        cb(refuse(rule));
      }, cb);
    },
    ...opts,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { server, port, received, rules, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const request = (step: number, to: string, inReplyTo: string | null = null): SendRequest => ({
  idempotencyKey: `9f0c5a3e-1111-4c2d-8e7f-aaaaaaaaaaaa-${step}`,
  from: 'sdr@sender.example',
  to,
  subject: step === 1 ? 'Hello Ada' : 'Re: Hello Ada',
  body: `Touch ${step}`,
  conversationId: inReplyTo,
  inReplyTo,
  metadata: { enrollmentId: '9f0c5a3e-1111-4c2d-8e7f-aaaaaaaaaaaa', step, prospectId: 'p1' },
  unsubscribeUrl: 'https://touchbase.example/u/tok123',
});

describe('SmtpAdapter against a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let adapter: SmtpAdapter;
  beforeAll(async () => {
    smtp = await startSmtp();
    adapter = new SmtpAdapter({ host: '127.0.0.1', port: smtp.port, secure: false, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await adapter?.close();
    await smtp?.close();
  });

  it('sends with a Message-ID of its own and the one-click unsubscribe headers', async () => {
    const result = await adapter.send(request(1, 'ada@prospect.example'));
    const id = smtpMessageId(request(1, '').idempotencyKey, 'sdr@sender.example');
    expect(result).toEqual({ messageId: id, conversationId: id });
    const mail = smtp.received.at(-1)!;
    expect(mail.messageId).toBe(id);
    expect(mail.subject).toBe('Hello Ada');
    expect(mail.text?.trim()).toBe('Touch 1');
    expect(mail.from?.text).toBe('sdr@sender.example');
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line).toBe(
      'List-Unsubscribe: <https://touchbase.example/u/tok123>',
    );
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    expect(mail.inReplyTo).toBeUndefined();
  });

  it('a follow-up threads under the first message: In-Reply-To and References', async () => {
    const first = smtp.received.at(-1)!.messageId!;
    const result = await adapter.send(request(2, 'ada@prospect.example', first));
    expect(result.conversationId).toBe(first);
    const mail = smtp.received.at(-1)!;
    expect(mail.subject).toBe('Re: Hello Ada');
    expect(mail.inReplyTo).toBe(first);
    expect(mail.references).toBe(first);
  });

  it('classifies what the server answers', async () => {
    smtp.rules.set('gone@prospect.example', {
      rcpt: [550, '5.1.1 The email account that you tried to reach does not exist'],
    });
    smtp.rules.set('gmail@prospect.example', {
      data: [
        550,
        "5.7.26 Unauthenticated email from sender.example is not accepted due to domain's DMARC policy",
      ],
    });
    smtp.rules.set('outlook@prospect.example', {
      data: [
        550,
        "5.7.515 Access denied, sending domain sender.example doesn't meet the required authentication level",
      ],
    });
    smtp.rules.set('busy@prospect.example', { rcpt: [421, '4.7.0 Try again later, closing connection'] });
    const kinds: Record<string, [string, boolean]> = {};
    for (const to of [
      'gone@prospect.example',
      'gmail@prospect.example',
      'outlook@prospect.example',
      'busy@prospect.example',
    ]) {
      const err = await adapter.send(request(1, to)).catch((e) => e);
      kinds[to] = [err.kind, err.notSent];
    }
    expect(kinds).toEqual({
      'gone@prospect.example': ['permanent', true],
      'gmail@prospect.example': ['our_setup', true],
      'outlook@prospect.example': ['our_setup', true],
      'busy@prospect.example': ['retryable', true],
    });
  });

  it('a refused login is our setup', async () => {
    const locked = await startSmtp({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(_auth, _session, cb) {
        cb(new Error('5.7.8 Username and Password not accepted'));
      },
    });
    const wrong = new SmtpAdapter({
      host: '127.0.0.1',
      port: locked.port,
      secure: false,
      user: 'sdr',
      password: 'nope',
      timeoutMs: 5_000,
    });
    const err = await wrong.send(request(1, 'ada@prospect.example')).catch((e) => e);
    expect(err.kind).toBe('our_setup');
    await wrong.close();
    await locked.close();
  });

  it('a connection dropped during DATA leaves the outcome unknown; before it, certainly not sent', () => {
    expect(
      classifySmtpError(Object.assign(new Error('Timeout'), { code: 'ETIMEDOUT', command: 'DATA' })).notSent,
    ).toBe(false);
    expect(
      classifySmtpError(
        Object.assign(new Error('Connection closed'), { code: 'ECONNECTION', command: 'CONN' }),
      ).notSent,
    ).toBe(true);
  });

  it('unsubscribe tokens name their enrollment and cannot be forged', () => {
    const token = signUnsubscribeToken('9f0c5a3e-1111-4c2d-8e7f-aaaaaaaaaaaa', 'secret-secret-secret');
    expect(verifyUnsubscribeToken(token, 'secret-secret-secret')).toBe(
      '9f0c5a3e-1111-4c2d-8e7f-aaaaaaaaaaaa',
    );
    expect(verifyUnsubscribeToken(token, 'another-secret-value')).toBeNull();
    expect(verifyUnsubscribeToken(`${token.split('.')[0]}.AAAA`, 'secret-secret-secret')).toBeNull();
  });
});
