/** One recipient's block of an RFC 3464 `message/delivery-status` part. */
export interface DeliveryStatusRecipient {
  finalRecipient: string;
  /** `failed`, `delayed`, `delivered`, `relayed`, `expanded` (and, seen in the wild, `expired`, `deliverable`). */
  action: string;
  /** The enhanced status code with any comment removed ("5.1.1"), or "". */
  status: string;
  /** The Diagnostic-Code value without its type ("550 5.1.1 User unknown"), unfolded. */
  diagnosticCode: string;
  /** The Diagnostic-Code type (`smtp`, `x-unix`, `x-postfix`...), lower case, or "". */
  diagnosticType: string;
  remoteMta: string;
}

/** A parsed delivery-status report: per-message fields and the recipients in order. */
export interface DeliveryStatusReport {
  reportingMta: string;
  recipients: DeliveryStatusRecipient[];
}

const FIELD_LINE = /^([A-Za-z][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)$/;
const RECIPIENT_FIELDS = new Set([
  'final-recipient',
  'original-recipient',
  'action',
  'status',
  'diagnostic-code',
]);

/**
 * Parses the fields of an RFC 3464 delivery-status report. Tolerant on purpose:
 * real reports omit the blank line between recipients, fold long diagnostic codes,
 * write field names in any case and add comments to the status ("5.0.0 (permanent
 * failure)"). Lines that are not fields are ignored, so the same parser also reads
 * the "technical report" some providers paste into a plain-text notice.
 */
export function parseDeliveryStatus(text: string): DeliveryStatusReport {
  const report: DeliveryStatusReport = { reportingMta: '', recipients: [] };
  let current: Partial<Record<string, string>> | undefined;
  const blocks: Array<Partial<Record<string, string>>> = [];

  for (const field of unfoldFields(text)) {
    if (field === undefined) {
      current = undefined;
      continue;
    }
    const [name, value] = field;
    if (name === 'reporting-mta' && !report.reportingMta) report.reportingMta = stripType(value);
    if (!RECIPIENT_FIELDS.has(name) && name !== 'remote-mta') continue;
    // A second Final-Recipient (or an Original-Recipient after one) starts the next
    // recipient even when the reporting MTA forgot the separating blank line.
    const startsNext =
      current !== undefined &&
      ((name === 'final-recipient' && current['final-recipient'] !== undefined) ||
        (name === 'original-recipient' && current['final-recipient'] !== undefined));
    if (current === undefined || startsNext) {
      current = {};
      blocks.push(current);
    }
    if (current[name] === undefined) current[name] = value;
  }

  for (const block of blocks) {
    if (block['final-recipient'] === undefined && block.action === undefined && block.status === undefined)
      continue;
    const diagnostic = block['diagnostic-code'] ?? '';
    const typeMatch = /^\s*([A-Za-z][\w-]*)\s*;\s*/.exec(diagnostic);
    report.recipients.push({
      finalRecipient: stripType(block['final-recipient'] ?? block['original-recipient'] ?? ''),
      action: (block.action ?? '').trim().toLowerCase().split(/\s/)[0] ?? '',
      status: cleanStatus(block.status ?? ''),
      diagnosticCode: typeMatch ? diagnostic.slice(typeMatch[0].length).trim() : diagnostic.trim(),
      diagnosticType: typeMatch?.[1]?.toLowerCase() ?? '',
      remoteMta: stripType(block['remote-mta'] ?? ''),
    });
  }
  return report;
}

/** Yields [lower-case name, unfolded value] per field, and undefined at each blank line. */
function* unfoldFields(text: string): Generator<[string, string] | undefined> {
  let pending: [string, string] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^[ \t]+\S/.test(line) && pending) {
      pending[1] = `${pending[1]} ${line.trim()}`;
      continue;
    }
    if (pending) yield pending;
    pending = undefined;
    if (line.trim() === '') {
      yield undefined;
      continue;
    }
    const match = FIELD_LINE.exec(line);
    if (match?.[1] !== undefined) pending = [match[1].toLowerCase(), (match[2] ?? '').trim()];
  }
  if (pending) yield pending;
}

function stripType(value: string): string {
  return value.replace(/^\s*[\w-]+\s*;\s*/, '').trim();
}

function cleanStatus(value: string): string {
  const match = /([245])\.(\d{1,3})\.(\d{1,3})/.exec(value);
  return match ? match[0] : '';
}
