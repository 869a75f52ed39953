/**
 * Why a live enrollment is not being sent right now: the enrollment's own state, then
 * the node's channel (a task, a LinkedIn action, else an e-mail held by its mailbox or
 * the mailbox pool, its domain, window and caps).
 */
import { OUT_OF_OFFICE_REASON } from '../events/event-scope.js';
import { linkedInActionOf } from '../linkedin/linkedin-caps.js';
import { waitsForSendingSlot } from '../sequence/sequence-graph.js';
import {
  beforeDue,
  capFullUntil,
  DAY_MS,
  doNotContactHours,
  heldByDoNotContact,
  windowOpensAt,
  withDetail,
} from './waiting-checks.js';
import { linkedInWaiting } from './waiting-linkedin.js';
import { taskWaiting } from './waiting-task.js';
import type { Waiting, WaitingInput, WaitingMailbox } from './waiting-types.js';

export { capFullUntil } from './waiting-checks.js';
export * from './waiting-types.js';

const MISSING_VARIABLE_PREFIX = 'missing_variable:';

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
