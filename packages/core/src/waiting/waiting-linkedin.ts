/**
 * The checks of a LinkedIn node: its text, the account that acts for it (kept, or the
 * one the sender would choose from the pool), that account's state, window and cap.
 */
import { type LinkedInAction, linkedInActionLimits } from '../linkedin/linkedin-caps.js';
import { timingSourceFor, touchTimingOf } from '../schedule/touch-timing.js';
import {
  beforeDue,
  capFullUntil,
  DAY_MS,
  doNotContactHours,
  heldByDoNotContact,
  missingVariable,
  windowOpensAt,
  withDetail,
} from './waiting-checks.js';
import type { Waiting, WaitingInput, WaitingLinkedIn, WaitingLinkedInAccount } from './waiting-types.js';

/**
 * A LinkedIn node, in the order of the sender's `sendNonEmailNode`: first the node's
 * text, whose missing variable pauses the touch before any account is looked at (so
 * no account is named); then the account the enrollment keeps, else the one it would
 * choose from the pool now; paused, it holds the touch; then the due time; then the
 * account's window in its zone (core's `timingSourceFor`, the sender's own rule),
 * with the country's do-not-contact hours on top; then its cap for the action. The
 * mailbox, its domain and the mailbox pool hold no LinkedIn action.
 */
export function linkedInWaiting(
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
