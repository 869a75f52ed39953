/** The checks of a manual task node: its text and its due time, nothing else. */
import { beforeDue } from './waiting-checks.js';
import type { Waiting, WaitingInput } from './waiting-types.js';

/**
 * A manual task, in the order of the sender's `sendNonEmailNode`: its instructions
 * must render (a missing variable pauses it at its due time), then its due time (the
 * mailbox's window placed it when it was scheduled); then it is recorded at once. No
 * domain, mailbox, pool, window, contact policy or cap holds it at the send, so no
 * recorded policy hold explains its wait either.
 */
export function taskWaiting(input: WaitingInput, now: Date): Waiting {
  return beforeDue({ ...input, policyHold: null }, input.mailbox, now) ?? { reason: 'task_due', until: null };
}
