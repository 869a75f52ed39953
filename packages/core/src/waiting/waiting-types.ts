/**
 * The vocabulary of the waiting rule: the reasons an enrollment can wait for, the
 * answer it gives, and the state it reads (enrollment, mailbox, LinkedIn account).
 */
import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import type { LinkedInAction, LinkedInCaps } from '../linkedin/linkedin-caps.js';
import type { IdentityWindowColumns } from '../schedule/touch-timing.js';
import type { SequenceAction } from '../sequence/sequence-graph.js';
import type { DoNotContactRule } from '../time/do-not-contact.js';
import type { SendingWindow } from '../time/sending-window.schemas.js';

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
