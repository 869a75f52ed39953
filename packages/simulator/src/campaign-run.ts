import type { ContactHoldReason } from '@touchbase/core';
import type { PlanNode, TouchOutcome } from './sequence-plan.js';
import type { SimulatedLinkedInAccount, SimulatedMailbox } from './simulation.schemas.js';

/** How an enrollment stands when the run stops. */
export const ENROLLMENT_STATUS = ['active', 'replied', 'bounced', 'exhausted'] as const;
// 0 is active: a fresh Uint8Array starts every enrollment active.
export const REPLIED = 1;
export const BOUNCED = 2;
export const EXHAUSTED = 3;

/** Everything one run produced, as columns (one entry per send, per enrollment). */
export type CampaignRun = {
  start: number;
  horizonEnd: number;
  mailboxes: SimulatedMailbox[];
  linkedinAccounts: readonly SimulatedLinkedInAccount[];
  nodes: readonly PlanNode[];
  sends: {
    at: number[];
    /** The enrollment (index of its prospect in the population). */
    enrollment: number[];
    /** The mailbox of an e-mail; -1 for a LinkedIn action or a manual task (no mailbox's caps). */
    mailbox: number[];
    /** The LinkedIn account of a LinkedIn action; -1 for an e-mail or a manual task. */
    account: number[];
    node: number[];
    /** ms the touch waited for its window (the first placement, and any later wait for it to open). */
    windowDelay: number[];
    /** ms the touch was held by a contact policy (cooldown, new people a day, recipient-domain cap), with its wait for the window after. */
    policyDelay: number[];
    /** ms the touch waited for its mailbox's caps, or its LinkedIn account's (token refusals, and the window after them). */
    capDelay: number[];
    outcome: TouchOutcome[];
  };
  /** Per enrollment: index into {@link ENROLLMENT_STATUS}. */
  status: Uint8Array;
  /** Per enrollment: the node its next touch is at (for those still active at the horizon). */
  node: Int16Array;
  /** Per node: the prospect's events that arrived after its touch (opens, clicks, acceptances) and the edges they took. */
  events: { opened: number[]; clicked: number[]; accepted: number[]; edgesTaken: number[] };
  /** Per mailbox's domain, per UTC day since the start's: sends, and bounces by the day they arrive. */
  domainDays: Map<string, { sends: number[]; bounces: number[] }>;
  /** What the virtual clock did: touch attempts, waits for a window, refusals by a bucket. */
  clock: { attempts: number; windowWaits: number; capWaits: number; linkedinWaits: number };
  /** Holds by a contact policy, by reason. */
  policyHolds: Record<ContactHoldReason, number>;
};
