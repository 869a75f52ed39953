/**
 * The checks every channel shares: what holds a touch before its due time (a missing
 * variable, a contact policy, the country's hours), when its window opens, and which
 * sliding-window cap is full and until when.
 */
import { CONTACT_HOLDS, type ContactHoldReason } from '../people/contact-policies.js';
import { placeInWindow } from '../schedule/next-touch-due.js';
import { sendingWindowOf } from '../schedule/sending-window-of.js';
import type { IdentityWindowColumns } from '../schedule/touch-timing.js';
import { type DoNotContactRule, withDoNotContact } from '../time/do-not-contact.js';
import { resolveTimeZone } from '../time/time-zone.js';
import type { Waiting, WaitingInput, WaitingMailbox } from './waiting-types.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * What holds a touch before its time has come, whatever its channel: a variable the
 * copy lacks (it would pause at its due time anyway), then the due time itself, or
 * the contact policy or the country's hours that set it.
 */
export function beforeDue(input: WaitingInput, mailbox: WaitingMailbox, now: Date): Waiting | null {
  const missing = missingVariable(input);
  if (missing) return missing;
  if (input.nextTouchAt && input.nextTouchAt.getTime() > now.getTime()) {
    const held = input.policyHold;
    if (
      held &&
      held.until.getTime() === input.nextTouchAt.getTime() &&
      (CONTACT_HOLDS as readonly string[]).includes(held.reason)
    ) {
      return { reason: held.reason as ContactHoldReason, until: input.nextTouchAt };
    }
    // Placed after its own time by the country's hours (a first touch at enrollment):
    // said as such while those hours hold, with the time it was placed at.
    const raw = input.nextTouchUnfittedAt;
    if (raw && raw.getTime() <= now.getTime() && heldByDoNotContact(input, mailbox, now)) {
      return doNotContactHours(input, input.nextTouchAt);
    }
    return { reason: 'waiting_for_due_time', until: input.nextTouchAt };
  }
  return null;
}

/** The variables the copy lacks, which pause the touch at its due time whatever else holds it then. */
export function missingVariable(input: WaitingInput): Waiting | null {
  if (input.missingVariables.length === 0) return null;
  return { reason: 'missing_variable', until: null, variables: input.missingVariables };
}

/** Whether the country's do-not-contact rule, not the window, closes `now` for the touch. */
export function heldByDoNotContact(input: WaitingInput, mailbox: IdentityWindowColumns, now: Date): boolean {
  if (!input.doNotContact) return false;
  return (
    windowOpensAt(input, mailbox, now, input.doNotContact) !== null &&
    windowOpensAt(input, mailbox, now, null) === null
  );
}

export function doNotContactHours(input: WaitingInput, until: Date): Waiting {
  return {
    reason: 'do_not_contact_hours',
    until,
    detail: `no contact at this time in ${input.recipientCountry ?? 'the recipient country'}`,
  };
}

export function withDetail(w: Waiting, detail: string | null): Waiting {
  return detail ? { ...w, detail } : w;
}

/** When the window opens if `now` is outside it, else null (the sender's `windowClosedUntil`). */
export function windowOpensAt(
  input: WaitingInput,
  mailbox: IdentityWindowColumns,
  now: Date,
  rule: DoNotContactRule | null,
): Date | null {
  const window = withDoNotContact(sendingWindowOf(input.sequenceWindow, mailbox), rule);
  if (!window || (input.timeScale ?? 1) > 1) return null;
  const timeZone = resolveTimeZone(input.prospectTimezone, mailbox.timezone);
  const opens = placeInWindow(now, { timeZone, window, timeScale: 1 });
  return opens.getTime() > now.getTime() ? opens : null;
}

type Cap = 'minute' | 'hour' | 'day' | 'week';

/**
 * The first full cap and when it frees a slot: with `cap` sends inside a sliding
 * window of length W, a slot frees when the cap-th most recent one leaves it.
 * Sends are counted from the touch rows, as the throttle counts its grants. A
 * LinkedIn invitation's bucket has a fourth, weekly window (`perWeek`).
 */
export function capFullUntil(
  mailbox: Pick<WaitingMailbox, 'perMinute' | 'perHour' | 'perDay' | 'recentSends'> & { perWeek?: number },
  now: Date,
): { cap: Cap; until: Date } | null {
  const times = mailbox.recentSends
    .map((d) => d.getTime())
    .filter((t) => t <= now.getTime())
    .sort((a, b) => b - a);
  let found: { cap: Cap; until: Date } | null = null;
  const caps: [Cap, number, number][] = [
    ...(mailbox.perWeek === undefined
      ? []
      : [['week', mailbox.perWeek, 7 * DAY_MS] as [Cap, number, number]]),
    ['day', mailbox.perDay, DAY_MS],
    ['hour', mailbox.perHour, HOUR_MS],
    ['minute', mailbox.perMinute, MINUTE_MS],
  ];
  // The latest freeing time decides: the touch waits for every full window.
  for (const [cap, limit, ms] of caps) {
    const inWindow = times.filter((t) => t > now.getTime() - ms);
    if (limit <= 0 || inWindow.length < limit) continue;
    const until = new Date((inWindow[limit - 1] as number) + ms);
    if (!found || until.getTime() > found.until.getTime()) found = { cap, until };
  }
  return found;
}
