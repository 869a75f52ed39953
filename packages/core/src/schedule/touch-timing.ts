import { channelOf, type SequenceAction } from '../sequence/sequence-graph.js';
import type { DoNotContactTable } from '../time/do-not-contact.js';
import type { SendingWindow } from '../time/sending-window.schemas.js';
import { resolveTimeZone } from '../time/time-zone.js';
import { type TouchTiming, unfittedAfterWait } from './next-touch-due.js';
import { type FittedDue, fitDue } from './refit-due.js';
import { type MailboxWindowColumns, recipientWindowOf } from './sending-window-of.js';

/** What an enrollment's touches are timed by, as its rows hold it. */
export type TimingSource = {
  prospect: { timezone: string | null; attributes?: Record<string, unknown> | null };
  mailbox: MailboxWindowColumns & { timezone: string };
  sequenceWindow: SendingWindow | null | undefined;
};

/** The window and zone columns of a sending identity: a mailbox's, or a LinkedIn account's. */
export type IdentityWindowColumns = MailboxWindowColumns & { timezone: string };

/**
 * The timing source of a touch of `action`: a LinkedIn action goes out in its
 * LinkedIn account's window and zone (the account's holidays, its zone for a
 * prospect who has none; the sequence's window still overrides, as it does a
 * mailbox's), every other touch in its mailbox's. `account` null: the enrollment
 * has no LinkedIn account yet (the sender chooses it at the first LinkedIn node),
 * so the mailbox's columns stand until then. The sender and the simulator both
 * time a LinkedIn touch through this.
 */
export function timingSourceFor<S extends TimingSource>(
  source: S,
  action: SequenceAction,
  account: IdentityWindowColumns | null | undefined,
): S {
  if (!account || channelOf(action) !== 'linkedin') return source;
  return {
    ...source,
    mailbox: {
      ...source.mailbox,
      windowDays: account.windowDays,
      windowStart: account.windowStart,
      windowEnd: account.windowEnd,
      holidays: account.holidays ?? [],
      timezone: account.timezone,
    },
  };
}

/** How time runs for the touches of one enrollment, and the settings that are not its rows'. */
export type TimingSettings = {
  /** TIME_SCALE. */
  timeScale: number;
  /** SCHEDULER_JITTER_MS: a random spread inside the window. */
  jitterMs?: number | undefined;
  /** COMPLIANCE_DO_NOT_CONTACT: the recipient country's quiet hours and days. */
  doNotContact?: DoNotContactTable | undefined;
  /** The zone when the caller has already resolved it (the sender caches them). */
  timeZone?: string | undefined;
};

/**
 * How time runs for the touches of one enrollment: the prospect's zone (else the
 * mailbox's), the sequence's sending window (else the mailbox's, holidays
 * included) narrowed by the recipient country's do-not-contact rule, and TIME_SCALE.
 */
export function touchTimingOf(source: TimingSource, settings: TimingSettings): TouchTiming {
  return {
    timeZone: settings.timeZone ?? resolveTimeZone(source.prospect.timezone, source.mailbox.timezone),
    window: recipientWindowOf(
      source.sequenceWindow,
      source.mailbox,
      settings.doNotContact,
      source.prospect.attributes,
    ),
    timeScale: settings.timeScale,
    ...(settings.jitterMs ? { jitterMs: settings.jitterMs } : {}),
  };
}

/**
 * When the next node is due: `wait` (its edge's) after `from` in the prospect's
 * time, moved into the window; with the raw time before the window, kept so a
 * window change re-fits it exactly. The sender schedules every next node by it,
 * and a migration its moved enrollments.
 */
export function nextNodeDue(from: Date, wait: string, timing: TouchTiming): FittedDue {
  return fitDue(unfittedAfterWait(from, wait, timing), timing);
}
