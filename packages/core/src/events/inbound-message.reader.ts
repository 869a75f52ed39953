import type { AddressObject } from 'mailparser';

/** Who and what a raw inbound message is about, for resolving it to a prospect. */
export type InboundEnvelope = {
  /** The message's own Message-ID (its external id), or null. */
  messageId: string | null;
  /** The sender's address, lower-cased. */
  from: string | null;
  subject: string;
  /** Message-IDs it answers (In-Reply-To, References): ours when it is a reply to a touch. */
  inReplyTo: string[];
  /**
   * For a bounce or complaint: the address the original message went to (the
   * DSN's Final-Recipient, X-Failed-Recipients, the ARF's Original-Rcpt-To or the
   * returned message's To), and that message's Message-ID.
   */
  originalRecipient: string | null;
  originalMessageId: string | null;
  date: Date | null;
};

const ADDRESS = /<?([^\s<>"';,]+@[^\s<>"';,]+?)>?(?=$|[\s;,])/;

/**
 * Reads the addressing of a raw RFC 822 message (as an inbound-parse service or a
 * mail forwarder delivers it) with mailparser. Pure: the message is the only input.
 */
export async function readInboundMessage(raw: string | Buffer): Promise<InboundEnvelope> {
  // Loaded on first use: the MIME parser and its HTML and entity tables cost a
  // process that never reads mail (the API) ~5 MB of heap at rest.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw, {
    keepDeliveryStatus: true,
    skipTextToHtml: true,
    skipImageLinks: true,
  });
  const refs = [
    mail.inReplyTo ?? '',
    ...(Array.isArray(mail.references) ? mail.references : [mail.references ?? '']),
  ]
    .flatMap((r) => r.split(/\s+/))
    .map((r) => r.trim())
    .filter(Boolean);

  let originalRecipient: string | null = null;
  let originalMessageId: string | null = null;
  const failed = headerText(mail.headers.get('x-failed-recipients'));
  if (failed) originalRecipient = firstAddress(failed);
  for (const part of mail.attachments) {
    const type = part.contentType.toLowerCase();
    const text = part.content.toString('utf8');
    if (type === 'message/delivery-status' || type === 'message/feedback-report') {
      const field =
        /^(?:final-recipient|original-recipient|original-rcpt-to)\s*:\s*(?:rfc822\s*;)?\s*(.+)$/im.exec(text);
      if (field?.[1] && !originalRecipient) originalRecipient = firstAddress(field[1]);
    } else if (/^(message\/rfc822|text\/rfc822-headers?|message\/rfc822-headers)$/.test(type)) {
      const headers = text.split(/\r?\n\r?\n/, 1)[0] ?? '';
      const id = /^message-id\s*:\s*(<[^>\s]+>)/im.exec(headers);
      if (id?.[1] && !originalMessageId) originalMessageId = id[1];
      const to = /^to\s*:\s*(.+)$/im.exec(headers);
      if (to?.[1] && !originalRecipient) originalRecipient = firstAddress(to[1]);
    }
  }
  return {
    messageId: mail.messageId ?? null,
    from: firstAddressOf(mail.from),
    subject: mail.subject ?? '',
    inReplyTo: [...new Set(refs)],
    originalRecipient,
    originalMessageId,
    date: mail.date ?? null,
  };
}

function firstAddressOf(field: AddressObject | AddressObject[] | undefined): string | null {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  for (const group of list) {
    for (const a of group.value) if (a.address) return a.address.toLowerCase();
  }
  return null;
}

function firstAddress(text: string): string | null {
  const m = ADDRESS.exec(text.trim());
  return m?.[1] ? m[1].toLowerCase() : null;
}

function headerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (value && typeof value === 'object' && 'text' in value) return String((value as { text: unknown }).text);
  return '';
}
