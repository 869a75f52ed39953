import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import { OUT_OF_OFFICE_REASON } from '../events/event-scope.js';
import {
  type LinkedInAction,
  type LinkedInCaps,
  linkedInActionLimits,
  linkedInActionOf,
} from '../linkedin/linkedin-caps.js';
import { CONTACT_HOLDS, type ContactHoldReason } from '../people/contact-policies.js';
import { placeInWindow } from '../schedule/next-touch-due.js';
import { sendingWindowOf } from '../schedule/sending-window-of.js';
import { type IdentityWindowColumns, timingSourceFor, touchTimingOf } from '../schedule/touch-timing.js';
import { type SequenceAction, waitsForSendingSlot } from '../sequence/sequence-graph.js';
import { type DoNotContactRule, withDoNotContact } from '../time/do-not-contact.js';
import type { SendingWindow } from '../time/sending-window.schemas.js';
import { resolveTimeZone } from '../time/time-zone.js';

/**
 * Why a live enrollment is not being sent right now. `due` is the one reason that
 * blocks nothing: its touch is due and nothing holds it, so a sender takes it next.
 * A sequence (campaign) has no paused state, so it is no reason here. A LinkedIn
 * node has reasons of its own: its LinkedIn account's state, window and caps hold
 * it, not the mailbox's. A manual task waits for no mailbox and no account.
 */
export const WAITING_REASONS = [
  'touch_in_progress',
  'domain_paused',
  'mailbox_paused',
  'pool_no_usable_mailbox',
  /** A LinkedIn node, no account chosen yet, and none the sender could choose (the pool has no active one). */
  'no_linkedin_account',
  /** A LinkedIn node whose account is paused (the provider blamed it, or by hand). */
  'linkedin_account_paused',
  'out_of_office',
  'missing_variable',
  'paused',
  'waiting_for_due_time',
  'cooldown',
  'new_people_cap',
  'recipient_domain_cap',
  'window_closed',
  /** A LinkedIn node: its LinkedIn account's window (in the account's zone, or the prospect's) is shut. */
  'linkedin_window_closed',
  /** The sending window is open, but the recipient country's do-not-contact hours or days are not. */
  'do_not_contact_hours',
  'mailbox_cap_reached',
  /** A LinkedIn node: its account's cap for the node's action (invitations, messages, visits) is full. */
  'linkedin_cap_reached',
  'due',
  /** A manual task whose time has come: the sender records it for a person next (no window or cap holds a task). */
  'task_due',
] as const;
export type WaitingReason = (typeof WAITING_REASONS)[number];

/** The answer: why, until when (null: until someone acts), and the detail a person needs. */
export type Waiting = {
  reason: WaitingReason;
  until: Date | null;
  /** The variables the copy lacks (`missing_variable`). */
  variables?: string[];
  /** Which cap is full (`mailbox_cap_reached`, `linkedin_cap_reached`; only a LinkedIn invitation has a week). */
  cap?: 'minute' | 'hour' | 'day' | 'week';
  /** The recorded reason of a pause, of the mailbox, the domain or the LinkedIn account. */
  detail?: string;
  /** The LinkedIn action whose cap is full (`linkedin_cap_reached`). */
  action?: LinkedInAction;
  /**
   * A LinkedIn node's account: the one the enrollment keeps, or (`chosen` false) none is
   * kept yet and this is the one the sender would choose now, by which the answer is told.
   */
  linkedinAccount?: { id: string; name: string; chosen: boolean };
  /** The window waited for (`linkedin_window_closed`), and the zone its hours are read in. */
  window?: { days: number[]; start: string; end: string; holidays?: string[]; timeZone: string };
};

/** A LinkedIn account as the rule needs it: state, name, window columns, caps, recent actions. */
export type WaitingLinkedInAccount = IdentityWindowColumns &
  LinkedInCaps & {
    id: string;
    name: string;
    status: string;
    statusReason: string | null;
    /**
     * When its actions of the node's kind went out (any order), over the longest cap
     * window (a week for invitations, else a day); the caps are sliding windows over them.
     */
    recentActions: Date[];
  };

/** The current node is a LinkedIn action: who acts for it, or whom the sender would choose. */
export type WaitingLinkedIn = {
  /** The node's action (`linkedin_connect`, `linkedin_message`, `linkedin_visit`). */
  action: SequenceAction;
  /** The account the enrollment keeps; null before its first LinkedIn node is sent. */
  account: WaitingLinkedInAccount | null;
  /** The active LinkedIn accounts of the sequence's pool, which the sender chooses among when none is kept. */
  poolAccounts: WaitingLinkedInAccount[];
};

/** What the rule needs to know about a mailbox: its state, caps, window columns and recent sends. */
export type WaitingMailbox = {
  id: string;
  status: string;
  statusReason: string | null;
  timezone: string;
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  holidays: string[];
  perMinute: number;
  perHour: number;
  perDay: number;
  /** When its touches of the last 24 hours went out (any order); the caps are sliding windows over them. */
  recentSends: Date[];
};

/** The state an enrollment's sending depends on, as read from PostgreSQL. */
export type WaitingInput = {
  status: EnrollmentStatus;
  stopReason: string | null;
  nextTouchAt: Date | null;
  /** A touch of the current step and attempt is claimed (`sending`): it is on its way. */
  touchInProgress: boolean;
  prospectTimezone: string | null;
  mailbox: WaitingMailbox;
  domain: { status: string; holdTouches: boolean; reason: string | null };
  sequenceWindow: SendingWindow | null;
  /**
   * The usable members of the sequence's pool (active, on an active domain) when the
   * current touch is a pool sequence's first one: the sender picks among them. Null
   * when no pool applies.
   */
  poolMembers: WaitingMailbox[] | null;
  /** The variables the current step's copy lacks for this prospect (core's `renderTouch`). */
  missingVariables: string[];
  /** TIME_SCALE: above 1 (the demo), windows are ignored as the sender ignores them. */
  timeScale?: number;
  /**
   * The contact policy the sender last held the touch for (`enrollment.policy_hold`)
   * and the time it moved it to; it explains the wait only while `nextTouchAt` is
   * still that time (anything that reschedules the touch since makes it stale).
   */
  policyHold?: { reason: string; until: Date } | null;
  /**
   * The due time the touch had before it was moved into its window (the enrollment's
   * `next_touch_unfitted_at`); when it has passed and `nextTouchAt` is later, the
   * touch waits for its window, not for its own time.
   */
  nextTouchUnfittedAt?: Date | null;
  /** The recipient's country (ISO alpha-2) and its do-not-contact rule, applied on top of the window. */
  recipientCountry?: string | null;
  doNotContact?: DoNotContactRule | null;
  /**
   * Set when the current node is a LinkedIn action: the sender then holds it by the
   * LinkedIn account (its state, window and zone by core's `timingSourceFor`, its caps
   * per action), not by the mailbox, the domain or the mailbox pool.
   */
  linkedin?: WaitingLinkedIn | null;
  /**
   * The current node's action; absent, an e-mail. A node that waits for no sending slot
   * (core's `waitsForSendingSlot`: a manual task) is held by neither the mailbox nor an account.
   */
  nodeAction?: SequenceAction | null;
};

const MISSING_VARIABLE_PREFIX = 'missing_variable:';
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Why an enrollment is not being sent at `now`, and until when; null when it has
 * ended (nothing will be sent again). The checks follow the sender's own order
 * (`apps/sender` sendTouch): a held domain or mailbox first, then the window, then the
 * caps, so the answer is what the sender would do with the touch. A missing variable
 * is told before the due time: the touch would pause at its due time anyway.
 */
export function waitingReason(input: WaitingInput, now: Date): Waiting | null {
  // Only a domain pause creates a queued enrollment (held until the domain is resumed).
  if (input.status === 'queued')
    return withDetail({ reason: 'domain_paused', until: null }, input.domain.reason);
  if (input.status === 'paused') return pausedReason(input);
  if (input.status !== 'active') return null;
  if (input.touchInProgress) return { reason: 'touch_in_progress', until: null };
  if (input.nodeAction && !waitsForSendingSlot(input.nodeAction)) return taskWaiting(input, now);
  const linkedInAction = input.linkedin ? linkedInActionOf(input.linkedin.action) : null;
  if (input.linkedin && linkedInAction) return linkedInWaiting(input, input.linkedin, linkedInAction, now);
  let mailbox = input.mailbox;
  if (input.poolMembers) {
    const picked = pickMember(input.poolMembers, now);
    if (!picked) return { reason: 'pool_no_usable_mailbox', until: null };
    mailbox = picked;
  } else {
    if (input.domain.status === 'paused' && input.domain.holdTouches) {
      return withDetail({ reason: 'domain_paused', until: null }, input.domain.reason);
    }
    if (mailbox.status === 'paused')
      return withDetail({ reason: 'mailbox_paused', until: null }, mailbox.statusReason);
  }
  const early = beforeDue(input, mailbox, now);
  if (early) return early;
  const opens = windowOpensAt(input, mailbox, now, input.doNotContact ?? null);
  if (opens) {
    // Said in words when it is the country's rule, not the window, that holds the touch.
    if (heldByDoNotContact(input, mailbox, now)) return doNotContactHours(input, opens);
    return { reason: 'window_closed', until: opens };
  }
  const full = capFullUntil(mailbox, now);
  if (full) return { reason: 'mailbox_cap_reached', until: full.until, cap: full.cap };
  return { reason: 'due', until: null };
}

/**
 * A LinkedIn node, in the order of the sender's `sendNonEmailNode`: first the node's
 * text, whose missing variable pauses the touch before any account is looked at (so
 * no account is named); then the account the enrollment keeps, else the one it would
 * choose from the pool now; paused, it holds the touch; then the due time; then the
 * account's window in its zone (core's `timingSourceFor`, the sender's own rule),
 * with the country's do-not-contact hours on top; then its cap for the action. The
 * mailbox, its domain and the mailbox pool hold no LinkedIn action.
 */
function linkedInWaiting(
  input: WaitingInput,
  li: WaitingLinkedIn,
  action: LinkedInAction,
  now: Date,
): Waiting {
  const missing = missingVariable(input);
  if (missing) return missing;
  const account = li.account ?? pickAccount(li.poolAccounts, now);
  // Only a person ends this wait (an account added to the pool, or one resumed), whenever the node is due.
  if (!account) return { reason: 'no_linkedin_account', until: null };
  const linkedinAccount = { id: account.id, name: account.name, chosen: li.account !== null };
  const named = (w: Waiting): Waiting => ({ ...w, linkedinAccount });
  if (account.status !== 'active') {
    return named(withDetail({ reason: 'linkedin_account_paused', until: null }, account.statusReason));
  }
  const early = beforeDue(input, input.mailbox, now);
  if (early) return named(early);
  const timed = timingSourceFor(
    {
      prospect: { timezone: input.prospectTimezone },
      mailbox: input.mailbox,
      sequenceWindow: input.sequenceWindow,
    },
    li.action,
    account,
  );
  const opens = windowOpensAt(input, timed.mailbox, now, input.doNotContact ?? null);
  if (opens) {
    if (heldByDoNotContact(input, timed.mailbox, now)) return named(doNotContactHours(input, opens));
    const timing = touchTimingOf(timed, { timeScale: 1 });
    return named({
      reason: 'linkedin_window_closed',
      until: opens,
      ...(timing.window ? { window: { ...timing.window, timeZone: timing.timeZone } } : {}),
    });
  }
  const limits = linkedInActionLimits(account, action);
  // A cap of 0 turns the action off for the account: its token is never granted.
  if (limits.perDay <= 0) return named({ reason: 'linkedin_cap_reached', until: null, cap: 'day', action });
  const full = capFullUntil({ ...limits, recentSends: account.recentActions }, now);
  if (full) return named({ reason: 'linkedin_cap_reached', until: full.until, cap: full.cap, action });
  return named({ reason: 'due', until: null });
}

/**
 * A manual task, in the order of the sender's `sendNonEmailNode`: its instructions
 * must render (a missing variable pauses it at its due time), then its due time (the
 * mailbox's window placed it when it was scheduled); then it is recorded at once. No
 * domain, mailbox, pool, window, contact policy or cap holds it at the send, so no
 * recorded policy hold explains its wait either.
 */
function taskWaiting(input: WaitingInput, now: Date): Waiting {
  return beforeDue({ ...input, policyHold: null }, input.mailbox, now) ?? { reason: 'task_due', until: null };
}

/**
 * What holds a touch before its time has come, whatever its channel: a variable the
 * copy lacks (it would pause at its due time anyway), then the due time itself, or
 * the contact policy or the country's hours that set it.
 */
function beforeDue(input: WaitingInput, mailbox: WaitingMailbox, now: Date): Waiting | null {
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
function missingVariable(input: WaitingInput): Waiting | null {
  if (input.missingVariables.length === 0) return null;
  return { reason: 'missing_variable', until: null, variables: input.missingVariables };
}

/** Whether the country's do-not-contact rule, not the window, closes `now` for the touch. */
function heldByDoNotContact(input: WaitingInput, mailbox: IdentityWindowColumns, now: Date): boolean {
  if (!input.doNotContact) return false;
  return (
    windowOpensAt(input, mailbox, now, input.doNotContact) !== null &&
    windowOpensAt(input, mailbox, now, null) === null
  );
}

function doNotContactHours(input: WaitingInput, until: Date): Waiting {
  return {
    reason: 'do_not_contact_hours',
    until,
    detail: `no contact at this time in ${input.recipientCountry ?? 'the recipient country'}`,
  };
}

function pausedReason(input: WaitingInput): Waiting {
  const reason = input.stopReason ?? '';
  if (reason === OUT_OF_OFFICE_REASON) return { reason: 'out_of_office', until: input.nextTouchAt };
  if (reason.startsWith(MISSING_VARIABLE_PREFIX)) {
    const variables = reason.slice(MISSING_VARIABLE_PREFIX.length).split(',').filter(Boolean);
    return { reason: 'missing_variable', until: null, variables };
  }
  // A pause by hand (or any other): until its date when it has one.
  return withDetail({ reason: 'paused', until: input.nextTouchAt }, input.stopReason);
}

function withDetail(w: Waiting, detail: string | null): Waiting {
  return detail ? { ...w, detail } : w;
}

/** When the window opens if `now` is outside it, else null (the sender's `windowClosedUntil`). */
function windowOpensAt(
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

/** The member the sender would pick: the one with the most room left today (ties: the first). */
function pickMember(members: WaitingMailbox[], now: Date): WaitingMailbox | null {
  let best: WaitingMailbox | null = null;
  let bestRoom = Number.NEGATIVE_INFINITY;
  for (const m of members) {
    const used = m.recentSends.filter((d) => d.getTime() > now.getTime() - DAY_MS).length;
    const room = m.perDay - used;
    if (room > bestRoom) {
      best = m;
      bestRoom = room;
    }
  }
  return best;
}

/**
 * The account the sender would choose for a LinkedIn node when the enrollment keeps
 * none: the pool's active account with the fewest actions of the kind in its day
 * window (ties: the first; the sender breaks them at random).
 */
function pickAccount(accounts: WaitingLinkedInAccount[], now: Date): WaitingLinkedInAccount | null {
  let best: WaitingLinkedInAccount | null = null;
  let bestUsed = Number.POSITIVE_INFINITY;
  for (const a of accounts) {
    const used = a.recentActions.filter((d) => d.getTime() > now.getTime() - DAY_MS).length;
    if (used < bestUsed) {
      best = a;
      bestUsed = used;
    }
  }
  return best;
}
