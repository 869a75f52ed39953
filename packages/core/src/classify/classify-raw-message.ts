import type { ParsedMail } from 'mailparser';
import { detectBounceNotice } from './bounce-notice.detector.js';
import { type BounceNotice, readBounceNotice } from './bounce-notice.reader.js';
import { decideBounce } from './bounce-reason.js';
import type { Classification } from './classification.types.js';
import { classifyReplyText } from './classify-reply-text.js';
import { asComplaint } from './complaint.detector.js';
import { type DeliveryStatusRecipient, parseDeliveryStatus } from './delivery-status.parser.js';
import { parseSesNotification } from './ses-notification.parser.js';
import { findStatusCode, statusClass } from './status-code.js';

const FAILED_ACTIONS = new Set(['failed', 'delayed', 'expired']);
const DELIVERED_ACTIONS = new Set(['delivered', 'relayed', 'expanded', 'deliverable']);

/**
 * Classifies a raw RFC 822 message: an ARF complaint, an Amazon SES notification,
 * an RFC 3464 delivery report, a plain-text bounce notice, an auto-reply or a
 * person's reply, tried in that order. Machine reports come first because they are
 * unambiguous and because bounce notices also carry `Auto-Submitted: auto-replied`.
 * Pure and offline: the message is the only input.
 */
export async function classifyRawMessage(raw: Buffer | string): Promise<Classification> {
  return classifyAt(raw, 0);
}

async function classifyAt(raw: Buffer | string, depth: number): Promise<Classification> {
  // keepDeliveryStatus: without it mailparser folds the message/delivery-status part
  // into `text` and the structured fields are lost.
  // Loaded on first use: the MIME parser and its HTML and entity tables cost a
  // process that never reads mail (the API) ~5 MB of heap at rest.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(withoutLeadingPadding(raw), {
    keepDeliveryStatus: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
  });
  const headers = headerValues(mail);
  const subject = mail.subject ?? '';
  const from = mail.from?.text ?? headers.get('from') ?? '';
  const contentType = headers.get('content-type') ?? '';
  const text = bodyText(mail, raw);

  const complaint = asComplaint(mail, subject, contentType, headers);
  if (complaint) return complaint;

  const ses = asSesNotification(text, from);
  if (ses) return ses;

  const dsnParts = mail.attachments.filter((a) => a.contentType === 'message/delivery-status');
  const dsnText = dsnParts.map((a) => a.content.toString('utf8')).join('\n\n');
  const returnsMessage = mail.attachments.some((a) =>
    /^(message\/rfc822|text\/rfc822-headers?)$/i.test(a.contentType),
  );
  const envelopeWhy = detectBounceNotice({ from, subject, headers, returnsMessage, text });
  if (!dsnText && depth === 0) {
    const nested = await nestedReport(mail, envelopeWhy.length > 0);
    if (nested) return nested;
  }
  const report = parseDeliveryStatus(dsnText || (envelopeWhy.length > 0 ? text : ''));
  if (report.recipients.length > 0) {
    const why = [
      dsnText ? 'message/delivery-status part (RFC 3464)' : 'delivery-status fields in the notice text',
    ];
    return fromDeliveryStatus(report.recipients, text, why);
  }

  if (envelopeWhy.length > 0) {
    const own = readBounceNotice(text);
    const relayed = own.status ? undefined : await returnedTranscript(mail);
    const notice = relayed ?? own;
    const verdict = decideBounce({
      status: notice.status,
      diagnostic: notice.diagnostic,
      notice: relayed ? `${own.notice}\n${relayed.notice}` : own.notice,
      // A notice that says it is still retrying stays a delay, whatever it returns.
      temporary: own.temporary || notice.temporary,
    });
    return {
      class: 'bounce',
      hard: verdict.hard,
      status: notice.status,
      reason: verdict.reason,
      why: [
        ...envelopeWhy,
        ...(relayed
          ? ["the notice quotes no server; its returned part holds the remote server's transcript"]
          : []),
        ...verdict.why,
      ],
    };
  }

  const reply = classifyReplyText(
    { subject, text, headers: Object.fromEntries(headers) },
    { receivedAt: mail.date },
  );
  const decidedBy = reply.decidedBy ? { decidedBy: reply.decidedBy } : {};
  const referral = reply.referral ? { referral: reply.referral } : {};
  const hard = reply.hard ?? false;
  const status = reply.status ?? '';
  const { replyClass, sentiment, why } = reply;
  switch (replyClass) {
    case 'bounce':
      return { class: 'bounce', hard, status, reason: reply.reason ?? 'undefined', ...decidedBy, why };
    case 'out_of_office':
      return {
        class: 'out_of_office',
        hard,
        status,
        reason: 'vacation',
        replyClass,
        sentiment,
        ...(reply.returnDate ? { returnDate: reply.returnDate } : {}),
        ...decidedBy,
        why,
      };
    case 'unsubscribe':
      return {
        class: 'unsubscribe',
        hard,
        status,
        reason: 'unsubscribe',
        replyClass,
        sentiment,
        ...decidedBy,
        why,
      };
    default:
      return {
        class: 'reply',
        hard,
        status,
        reason: replyClass,
        replyClass,
        sentiment,
        ...referral,
        ...decidedBy,
        why,
      };
  }
}

function asSesNotification(text: string, from: string): Classification | undefined {
  const event = parseSesNotification(text);
  if (!event) return undefined;
  const why = [
    `Amazon SES ${event.notificationType} notification${/amazon(aws|ses)\.com/i.test(from) ? ' from SNS' : ''}`,
  ];
  if (event.notificationType === 'Complaint') {
    return { class: 'complaint', hard: false, status: '', reason: 'feedback', why };
  }
  if (event.notificationType === 'Delivery') {
    return {
      class: 'delivered',
      hard: false,
      status: event.status,
      reason: 'delivered',
      why: [...why, event.smtpResponse],
    };
  }
  const status = findStatusCode(event.diagnosticCode) || event.status;
  const verdict = decideBounce({
    status,
    diagnostic: event.diagnosticCode,
    temporary: event.bounceType === 'Transient',
  });
  why.push(`bounceType ${event.bounceType}/${event.bounceSubType}`);
  return {
    class: 'bounce',
    hard: verdict.hard,
    status,
    reason: verdict.reason,
    why: [...why, ...verdict.why],
  };
}

function fromDeliveryStatus(
  recipients: DeliveryStatusRecipient[],
  text: string,
  why: string[],
): Classification {
  const failed = recipients.find((r) => FAILED_ACTIONS.has(r.action) || /^[45]/.test(r.status));
  if (!failed) {
    const first = recipients[0];
    if (first && (DELIVERED_ACTIONS.has(first.action) || statusClass(first.status) === '2')) {
      return {
        class: 'delivered',
        hard: false,
        status: first.status,
        reason: 'delivered',
        why: [
          ...why,
          `Action: ${first.action || 'none'}, Status: ${first.status || 'none'}: a success notice`,
        ],
      };
    }
  }
  const recipient = failed ?? recipients[0];
  // The server's own code in the diagnostic is more specific than the reporting
  // MTA's summary (Status: 5.0.0 with "550 5.1.1 User unknown").
  const diagnostic = recipient?.diagnosticCode ?? '';
  const status = findStatusCode(diagnostic) || recipient?.status || '';
  const notice = readBounceNotice(text);
  const type = recipient?.diagnosticType ?? '';
  const verdict = decideBounce({
    status: status || notice.status,
    // The diagnostic type matters: "x-unix" means the local delivery program failed.
    diagnostic: type && type !== 'smtp' ? `${type}; ${diagnostic}` : diagnostic,
    notice: notice.notice,
    action: recipient?.action ?? '',
  });
  why.push(
    `first failed recipient: Action ${recipient?.action || 'none'}, Status ${recipient?.status || 'none'}`,
  );
  return {
    class: 'bounce',
    hard: verdict.hard,
    status: status || notice.status,
    reason: verdict.reason,
    why: [...why, ...verdict.why],
  };
}

/**
 * A delivery report forwarded inside a message/rfc822 part (a relay or a helpdesk
 * passing the bounce on): read the inner message, one level deep only, when it is
 * itself a report. Our own returned message never is, so a bounce quoting it is
 * not read twice.
 */
async function nestedReport(mail: ParsedMail, outerIsNotice: boolean): Promise<Classification | undefined> {
  for (const part of mail.attachments) {
    if (!/^message\/rfc822$/i.test(part.contentType)) continue;
    const head = part.content.subarray(0, 20000).toString('latin1');
    // A delivery report; or, when the outer message is a person's (a colleague's
    // "FW: Undeliverable"), a plain-text notice forwarded whole (a daemon's From or
    // Return-Path). Inside a notice, the message/rfc822 part is our own mail coming
    // back, whoever sent it.
    const report = /report-type\s*=\s*"?delivery-status|^content-type:\s*message\/delivery-status/im.test(
      head,
    );
    const daemon =
      /^(from|return-path):[^\n]*\b(mailer-?daemon|postmaster|mail delivery (system|subsystem))\b/im.test(
        head,
      );
    if (!report && (outerIsNotice || !daemon)) continue;
    const inner = await classifyAt(part.content, 1);
    if (inner.class !== 'bounce' && inner.class !== 'delivered') continue;
    return { ...inner, why: ['delivery notice nested inside a message/rfc822 part', ...inner.why] };
  }
  return undefined;
}

// The forms a server's session transcript takes in a failure report (sendmail's
// "Transcript of the session follows", "<<< 550 ...", Postfix's "said: 550 ...",
// qmail's "Remote host said: 550 ..."): words a sender's own message never holds.
const TRANSCRIPT =
  /^-+\s*transcript of (the )?session follows|^\s*<<<\s*[45]\d\d\b|\bsaid:\s*[45]\d\d\b|^\s*\.\.\. while talking to\b/im;

/**
 * A gateway's notice that names no reason ("Unable to deliver message to ...") and
 * returns, in place of our message, the failure report the next server sent it:
 * the message/rfc822 part then holds a session transcript, and that is the only
 * place the remote server's reply is quoted. Read only when the notice itself gives
 * no status, so a notice that does is never overruled by what it returns.
 */
async function returnedTranscript(mail: ParsedMail): Promise<BounceNotice | undefined> {
  const { simpleParser } = await import('mailparser');
  for (const part of mail.attachments) {
    if (!/^message\/rfc822$/i.test(part.contentType)) continue;
    const inner = await simpleParser(part.content, { skipTextToHtml: true });
    const text = inner.text ?? '';
    if (!TRANSCRIPT.test(text)) continue;
    const read = readBounceNotice(text);
    if (read.status) return read;
  }
  return undefined;
}

/**
 * The message's text. When a multipart's boundary does not match its parts (seen in
 * real bounces), mailparser finds no parts at all; the raw body is then the best
 * text there is, and it still holds the notice and the delivery-status fields.
 */
function bodyText(mail: ParsedMail, raw: Buffer | string): string {
  const text = mail.text ?? '';
  if (text.trim() || mail.attachments.length > 0) return text;
  const source = typeof raw === 'string' ? raw : raw.toString('latin1');
  const split = /\r?\n\r?\n/.exec(source);
  return split ? source.slice(split.index + split[0].length) : '';
}

/** Header values by lower-case name, unfolded, first occurrence wins. */
function headerValues(mail: ParsedMail): Map<string, string> {
  const values = new Map<string, string>();
  for (const { key, line } of mail.headerLines) {
    if (values.has(key)) continue;
    const colon = line.indexOf(':');
    values.set(
      key,
      line
        .slice(colon + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
  }
  if (mail.subject !== undefined) values.set('subject', mail.subject);
  return values;
}

/**
 * A stored message sometimes begins with blank lines or an mbox "From " separator
 * (archives, pasted copies); a MIME parser then sees an empty header block and the
 * whole message as body. Both are dropped when a header line follows them.
 */
function withoutLeadingPadding(raw: Buffer | string): Buffer | string {
  const head = typeof raw === 'string' ? raw.slice(0, 2000) : raw.subarray(0, 2000).toString('latin1');
  const padding = /^(?:[ \t]*\r?\n)*(?:From [^\r\n:]*\r?\n)?/.exec(head)?.[0] ?? '';
  if (!padding || !/^[\x21-\x39\x3b-\x7e]+:/.test(head.slice(padding.length))) return raw;
  return typeof raw === 'string'
    ? raw.slice(padding.length)
    : raw.subarray(Buffer.byteLength(padding, 'latin1'));
}
