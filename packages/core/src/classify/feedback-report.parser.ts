/** The fields of an RFC 5965 (ARF) `message/feedback-report` part that matter to us. */
export interface FeedbackReport {
  /** `abuse`, `fraud`, `not-spam`, `opt-out`, `virus`, `other`..., lower case, or "". */
  feedbackType: string;
  originalRcptTo: string;
  originalMailFrom: string;
  sourceIp: string;
}

/**
 * Parses an ARF feedback report. Field names are matched case-insensitively and
 * folded lines are joined, as in any RFC 5322 header block.
 */
export function parseFeedbackReport(text: string): FeedbackReport {
  const fields = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^[ \t]+\S/.test(line) && last !== undefined) {
      fields.set(last, `${fields.get(last) ?? ''} ${line.trim()}`);
      continue;
    }
    const match = /^([A-Za-z][A-Za-z0-9-]*)\s*:\s*(.*)$/.exec(line);
    if (match?.[1] === undefined) {
      last = undefined;
      continue;
    }
    last = match[1].toLowerCase();
    if (!fields.has(last)) fields.set(last, (match[2] ?? '').trim());
  }
  return {
    feedbackType: (fields.get('feedback-type') ?? '').toLowerCase(),
    originalRcptTo: fields.get('original-rcpt-to') ?? '',
    originalMailFrom: fields.get('original-mail-from') ?? '',
    sourceIp: fields.get('source-ip') ?? '',
  };
}
