import type { ParsedMail } from 'mailparser';
import type { Classification } from './classification.types.js';
import { parseFeedbackReport } from './feedback-report.parser.js';

/** An ARF report, a mail client opt-out, or a feedback loop that forwards the message without one (Hotmail's JMRP). */
export function asComplaint(
  mail: ParsedMail,
  subject: string,
  contentType: string,
  headers: ReadonlyMap<string, string>,
): Classification | undefined {
  const part = mail.attachments.find((a) => a.contentType === 'message/feedback-report');
  if (part) {
    const report = parseFeedbackReport(part.content.toString('utf8'));
    return {
      class: 'complaint',
      hard: false,
      status: '',
      reason: 'feedback',
      why: [`message/feedback-report part (RFC 5965), Feedback-Type: ${report.feedbackType || 'not given'}`],
    };
  }
  // A mail client's one-click opt-out (Apple Mail sends it auto-replied, with the
  // sender's own address): the same request as an ARF opt-out report, never an absence.
  if (/^\s*(true|yes|1)\s*$/i.test(headers.get('x-apple-unsubscribe') ?? '')) {
    return {
      class: 'complaint',
      hard: false,
      status: '',
      reason: 'feedback',
      decidedBy: 'mail client opt-out (X-Apple-Unsubscribe)',
      why: ["X-Apple-Unsubscribe: true: the recipient's mail client asked to unsubscribe (an opt-out)"],
    };
  }
  if (/report-type\s*=\s*"?feedback-report/i.test(contentType)) {
    return {
      class: 'complaint',
      hard: false,
      status: '',
      reason: 'feedback',
      why: ['report-type=feedback-report'],
    };
  }
  if (
    /^\s*(complaint about message|(email )?abuse report|(spam |feedback[- ]loop |fbl )?(complaint|feedback) report)\b/i.test(
      subject,
    )
  ) {
    return {
      class: 'complaint',
      hard: false,
      status: '',
      reason: 'feedback',
      why: [`subject "${subject.trim().slice(0, 60)}" is a feedback loop's complaint report`],
    };
  }
  return undefined;
}
