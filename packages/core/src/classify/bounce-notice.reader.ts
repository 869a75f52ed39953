import { findReplyCode, findStatusCode, statusClass } from './status-code.js';

/** What a plain-text bounce notice says, once the returned message is cut off. */
export interface BounceNotice {
  /** The notice's own text, without the copy of our message. */
  notice: string;
  /** The lines that quote the receiving server (those with SMTP codes, and their continuations). */
  diagnostic: string;
  /** The enhanced status code the notice gives most weight to, or one built from the reply code ("5.0.0"). */
  status: string;
  /** True when the notice says delivery is delayed and still being retried. */
  temporary: boolean;
}

// Where the copy of our own message starts. Everything after it is our words, and
// matching them ("unsubscribe", "not found") would misread the notice.
const ORIGINAL_MESSAGE_START = [
  /^\s*-+\s*(this is a copy of|below this line is a copy|original message|returned message|undelivered message|unsent message|the header of the original|message headers follow|original message follows|returned mail follows|copy of (the|your) message)/i,
  /^\s*(original message follows|message headers follow|original message headers|the original message headers are)\b/i,
  /^\s*(return-path|received|dkim-signature|x-received|arc-seal|arc-message-signature|x-google-dkim-signature|message-id)\s*:/i,
  /^\s*content-type:\s*message\/rfc822/i,
];

const TEMPORARY =
  /\(delay\)|\bdelayed\b|will (retry|continue|be retried|keep trying)|still (being )?retr|not yet been delivered|no action is required|warning: (could not send|message)|temporar(y|ily) (failure|problem|error)|will try (again|to deliver)/i;

/**
 * Reads a plain-text bounce notice (qmail, Exim, Gmail, Domino and many others send
 * no RFC 3464 part): cuts off the returned message, collects the lines that quote
 * the remote server, and finds the status code they give.
 */
export function readBounceNotice(text: string): BounceNotice {
  const lines = text.split(/\r?\n/);
  const cut = lines.findIndex((line, index) => index > 0 && ORIGINAL_MESSAGE_START.some((p) => p.test(line)));
  const noticeLines = cut < 0 ? lines : lines.slice(0, cut);
  const notice = noticeLines.join('\n');

  const diagnostic: string[] = [];
  let inQuote = false;
  for (const line of noticeLines) {
    const quotesServer =
      /(^|[\s:<>(#"'-])[245]\d\d([\s-]|$)/.test(line) ||
      /(?<![\d.])[245]\.\d{1,3}\.\d{1,3}(?!\.?\d)/.test(line) ||
      /\b(said|reason|because|diagnostic|technical details|remote host said|error)\b\s*:/i.test(line);
    if (quotesServer) {
      diagnostic.push(line.trim());
      inQuote = true;
    } else if (inQuote && /^\s+\S/.test(line)) {
      diagnostic.push(line.trim());
    } else {
      inQuote = false;
    }
  }
  const diagnosticText = diagnostic.join('\n');

  let status = findStatusCode(diagnosticText) || findStatusCode(notice);
  if (!status) {
    const reply = findReplyCode(diagnosticText);
    const cls = statusClass(reply);
    if (cls === '4' || cls === '5') status = `${cls}.0.0`;
  }
  return { notice, diagnostic: diagnosticText, status, temporary: TEMPORARY.test(notice) };
}
