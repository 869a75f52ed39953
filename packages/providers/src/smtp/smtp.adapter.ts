import { createHash } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { ProviderAdapter, SendRequest, SendResult } from '../provider-adapter.js';
import { classifySmtpError } from './smtp-error.js';

export type SmtpOptions = {
  host: string;
  port: number;
  /** Implicit TLS (465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string | undefined;
  password?: string | undefined;
  timeoutMs: number;
  /** Connections kept open to the server. */
  poolSize?: number;
  /** For tests against a local server with a self-signed certificate. */
  rejectUnauthorized?: boolean;
};

/**
 * One's own mailboxes over SMTP submission, through nodemailer.
 *
 * Each message gets a Message-ID derived from its idempotency key, and follow-ups
 * carry In-Reply-To and References naming the first touch's Message-ID, so mail
 * clients thread them. When the enrollment has an unsubscribe link, the message
 * carries `List-Unsubscribe` (the HTTPS link) and `List-Unsubscribe-Post:
 * List-Unsubscribe=One-Click` (RFC 8058), which Gmail and Yahoo require of bulk
 * senders.
 *
 * SMTP has no idempotency key and no lookup: a touch whose outcome is unknown
 * (the connection dropped after DATA) is never resent. The derived Message-ID
 * still helps: receivers that see the same Message-ID twice drop the second.
 */
export class SmtpAdapter implements ProviderAdapter {
  readonly name = 'smtp';
  readonly idempotent = false;
  private readonly transport: Transporter;

  constructor(opts: SmtpOptions) {
    this.transport = nodemailer.createTransport({
      host: opts.host,
      port: opts.port,
      secure: opts.secure,
      pool: true,
      maxConnections: opts.poolSize ?? 4,
      ...(opts.user ? { auth: { user: opts.user, pass: opts.password ?? '' } } : {}),
      connectionTimeout: opts.timeoutMs,
      greetingTimeout: opts.timeoutMs,
      socketTimeout: opts.timeoutMs,
      tls: { rejectUnauthorized: opts.rejectUnauthorized ?? true },
    });
  }

  async send(req: SendRequest): Promise<SendResult> {
    const messageId = smtpMessageId(req.idempotencyKey, req.from);
    const headers: Record<string, string> = {};
    if (req.unsubscribeUrl) {
      headers['List-Unsubscribe'] = `<${req.unsubscribeUrl}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    try {
      await this.transport.sendMail({
        from: req.from,
        to: req.to,
        subject: req.subject,
        text: req.body,
        messageId,
        ...(req.inReplyTo ? { inReplyTo: req.inReplyTo, references: [req.inReplyTo] } : {}),
        headers,
      });
    } catch (err) {
      throw classifySmtpError(err);
    }
    // The thread is named by its first message; follow-ups keep it.
    return { messageId, conversationId: req.conversationId ?? messageId };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** `<{hash of the key}@{sender's domain}>`: the same touch always has the same Message-ID. */
export function smtpMessageId(idempotencyKey: string, from: string): string {
  const domain = from.split('@')[1]?.replace(/>.*$/, '') || 'touchbase.local';
  const local = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32);
  return `<tb.${local}@${domain}>`;
}
