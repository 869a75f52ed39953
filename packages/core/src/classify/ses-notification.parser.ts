/** What an Amazon SES notification (sent through SNS by e-mail) says about the first recipient. */
export interface SesNotification {
  notificationType: 'Bounce' | 'Complaint' | 'Delivery';
  /** Bounce: `Permanent`, `Transient` or `Undetermined`. */
  bounceType: string;
  bounceSubType: string;
  status: string;
  diagnosticCode: string;
  /** Complaint: the ISP's feedback type, when given. */
  complaintFeedbackType: string;
  /** Delivery: the receiving server's answer ("250 2.6.0 Message received"). */
  smtpResponse: string;
}

type Json = Record<string, unknown>;

/**
 * Reads an SES event notification from a message body: either the SNS envelope
 * (`"Type": "Notification"` with the event as a JSON string in `Message`) or the
 * raw event when the topic delivers raw messages. Returns undefined when the body
 * holds no SES event, including when its JSON is cut or malformed: the caller then
 * falls back to reading the body as text.
 */
export function parseSesNotification(body: string): SesNotification | undefined {
  if (!body.includes('notificationType')) return undefined;
  // Mail gateways wrap SNS's single long line, which breaks JSON strings; JSON has
  // no raw line breaks inside strings, so dropping them all repairs it.
  let event = parseFirstObject(body) ?? parseFirstObject(body.replace(/\r?\n/g, ''));
  if (event && typeof event.Message === 'string') event = parseFirstObject(event.Message);
  if (!event) return undefined;
  const type = event.notificationType ?? event.eventType;
  if (type !== 'Bounce' && type !== 'Complaint' && type !== 'Delivery') return undefined;

  const bounce = asObject(event.bounce);
  const firstBounced = asObject(asArray(bounce?.bouncedRecipients)[0]);
  const complaint = asObject(event.complaint);
  const delivery = asObject(event.delivery);
  const smtpResponse = asString(delivery?.smtpResponse);
  return {
    notificationType: type,
    bounceType: asString(bounce?.bounceType),
    bounceSubType: asString(bounce?.bounceSubType),
    status: asString(firstBounced?.status) || (/\b[245]\.\d{1,3}\.\d{1,3}\b/.exec(smtpResponse)?.[0] ?? ''),
    diagnosticCode: asString(firstBounced?.diagnosticCode),
    complaintFeedbackType: asString(complaint?.complaintFeedbackType),
    smtpResponse,
  };
}

/** Parses the first balanced `{...}` in the text, or returns undefined. */
function parseFirstObject(text: string): Json | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) {
      try {
        return asObject(JSON.parse(text.slice(start, i + 1)));
      } catch {
        // Not JSON after all (a brace in prose): the body is read as text instead.
        return undefined;
      }
    }
  }
  return undefined;
}

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
