import type { DoNotContactTable } from '../time/do-not-contact.js';
import type { SendingWindow } from '../time/sending-window.schemas.js';
import { resolveTimeZone } from '../time/time-zone.js';
import { firstTouchDue } from './next-touch-due.js';
import { type MailboxWindowColumns, recipientWindowOf } from './sending-window-of.js';

/** What decides when an enrollment held on a paused sending domain starts once the domain is resumed. */
export type HeldEnrollmentTiming = MailboxWindowColumns & {
  /** The mailbox's zone, used when the prospect has none. */
  timezone: string;
  prospectTimezone: string | null;
  /** The prospect's attributes: its `country` picks the do-not-contact rule. */
  prospectAttributes?: Record<string, unknown> | null;
  /** The sequence's own window, which overrides the mailbox's. */
  sequenceWindow: SendingWindow | null;
};

/**
 * When held enrollments start once their domain is resumed, the `index`-th of them:
 * now, paced by `pacingMs`, moved into its sending window (the sequence's, else the
 * mailbox's, holidays included, narrowed by the recipient country's do-not-contact
 * hours) in the prospect's zone, as a new enrollment would be.
 * The same rule for a resume by hand (api) and by the guard (domain-health).
 *
 * @param random the source of the pacing's jitter (tests pass a fixed one).
 * @param doNotContact COMPLIANCE_DO_NOT_CONTACT, the table of rules by country.
 */
export function heldFirstTouch(
  now: Date,
  timeScale: number,
  pacingMs = 0,
  random?: () => number,
  doNotContact?: DoNotContactTable,
): (held: HeldEnrollmentTiming, index: number) => Date {
  return (held, index) =>
    firstTouchDue(now, index, pacingMs, {
      timeZone: resolveTimeZone(held.prospectTimezone, held.timezone),
      window: recipientWindowOf(held.sequenceWindow, held, doNotContact, held.prospectAttributes),
      timeScale,
      random,
    });
}
