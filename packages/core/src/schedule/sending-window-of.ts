import {
  type DoNotContactTable,
  doNotContactRuleOf,
  recipientCountryOf,
  withDoNotContact,
} from '../time/do-not-contact.js';
import type { SendingWindow } from '../time/sending-window.schemas.js';

/** A mailbox's window as its row holds it: weekdays (empty: no window), hours and holidays. */
export type MailboxWindowColumns = {
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  holidays?: string[] | null;
};

/**
 * The sending window a touch obeys: the sequence's own when it has one (it overrides
 * the mailbox's as a whole, holidays included), else the mailbox's. A mailbox with
 * no weekdays has no window and sends at any hour, except on its holidays: those
 * are skipped all day long (00:00–23:59 local; an end of 23:59 runs to midnight,
 * so every other day stays open to its last minute).
 * @returns null when the touch may go out at any time.
 */
export function sendingWindowOf(
  sequenceWindow: SendingWindow | null | undefined,
  mailbox: MailboxWindowColumns,
): SendingWindow | null {
  if (sequenceWindow) return sequenceWindow;
  const holidays = mailbox.holidays ?? [];
  if (mailbox.windowDays.length > 0) {
    return {
      days: mailbox.windowDays,
      start: mailbox.windowStart,
      end: mailbox.windowEnd,
      ...(holidays.length > 0 ? { holidays } : {}),
    };
  }
  if (holidays.length === 0) return null;
  return { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', holidays };
}

/**
 * The window a touch to this recipient obeys: {@link sendingWindowOf} narrowed by
 * the do-not-contact rule of the recipient's country (the prospect's `country`
 * attribute, looked up in `COMPLIANCE_DO_NOT_CONTACT`). Every placement of a touch
 * (the first at enrollment, a held enrollment's once its domain resumes, each
 * later one at the send) takes its window from here, so the country's hours hold
 * from the first touch on, not only from the second.
 */
export function recipientWindowOf(
  sequenceWindow: SendingWindow | null | undefined,
  mailbox: MailboxWindowColumns,
  doNotContact: DoNotContactTable | null | undefined,
  attributes: Record<string, unknown> | null | undefined,
): SendingWindow | null {
  const rule = doNotContactRuleOf(doNotContact, recipientCountryOf(attributes));
  return withDoNotContact(sendingWindowOf(sequenceWindow, mailbox), rule);
}
