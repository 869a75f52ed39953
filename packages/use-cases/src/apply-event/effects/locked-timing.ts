import { type TimingSettings, type TouchTiming, touchTimingOf } from '@touchbase/core';
import type { ResendContextRow } from '../apply-event.ports.js';

/** How an event times the touches it places: TIME_SCALE and the recipient country's do-not-contact hours (COMPLIANCE_DO_NOT_CONTACT). */
export type EventTimingSettings = Pick<TimingSettings, 'timeScale' | 'doNotContact'>;

/**
 * The timing of an enrollment an event locked (to take an edge, to resend), as the
 * sender times its touches (core's `touchTimingOf`): the prospect's zone, the
 * sequence's or mailbox's window narrowed by the recipient country's hours.
 */
export function lockedTimingOf(
  e: Pick<
    ResendContextRow,
    | 'prospectTimeZone'
    | 'prospectAttributes'
    | 'mailboxTimeZone'
    | 'sendingWindow'
    | 'windowDays'
    | 'windowStart'
    | 'windowEnd'
    | 'holidays'
  >,
  settings: EventTimingSettings,
): TouchTiming {
  return touchTimingOf(
    {
      prospect: { timezone: e.prospectTimeZone, attributes: e.prospectAttributes },
      mailbox: {
        timezone: e.mailboxTimeZone,
        windowDays: e.windowDays ?? [],
        windowStart: e.windowStart,
        windowEnd: e.windowEnd,
        holidays: e.holidays,
      },
      sequenceWindow: e.sendingWindow,
    },
    { timeScale: settings.timeScale, doNotContact: settings.doNotContact },
  );
}
