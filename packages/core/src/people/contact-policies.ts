import { DateTime } from 'luxon';
import { z } from 'zod';
import { scaleDuration } from '../time/time-scale.js';

/**
 * Who may be contacted, per sequence (`sequence.policies.contact`), every field
 * defaulted:
 * - `exclusive` (on): a person is in at most one live sequence across the account.
 *   An enrollment is refused when the person is live in another sequence and either
 *   of the two is exclusive (an exclusive sequence neither joins nor is joined).
 * - `cooldownDays` (30; 0 is off): no first touch to a person some other enrollment
 *   touched in the last N days; the first touch waits until the N days are over.
 * - `newPeoplePerDay` (null: unlimited): at most N first touches of this sequence a
 *   day (Smartlead's max leads per day); the rest wait for the next day.
 * - `recipientDomainPerDay` (null: off): at most N touches a day, from any sequence,
 *   to the people of one recipient company (its company domain), counted when this
 *   sequence's touch is about to go (Outreach's daily max domain).
 * A day is the calendar day in the mailbox's zone. Under TIME_SCALE (sandbox demos
 * and tests) the cooldown and the day are compressed like every other wait: a day
 * lasts `86400000 / TIME_SCALE` ms, counted from the epoch (a compressed day has no
 * zone); see {@link contactDayOf}.
 */
export const ContactPolicySchema = z.object({
  exclusive: z.boolean().default(true),
  cooldownDays: z.number().int().min(0).max(3650).default(30),
  newPeoplePerDay: z.number().int().min(1).max(1_000_000).nullable().default(null),
  recipientDomainPerDay: z.number().int().min(1).max(1_000_000).nullable().default(null),
});
export type ContactPolicy = z.infer<typeof ContactPolicySchema>;

/** Why a touch waits for a contact policy (a waiting reason). */
export const CONTACT_HOLDS = ['cooldown', 'new_people_cap', 'recipient_domain_cap'] as const;
export type ContactHoldReason = (typeof CONTACT_HOLDS)[number];
export type ContactHold = { reason: ContactHoldReason; until: Date };

/** A live enrollment of the person, with whether its sequence is exclusive. */
export type LiveEnrollmentOf = { sequenceId: string; exclusive: boolean };

/**
 * Exclusivity at enrollment: the sequence that holds the person (so the new
 * enrollment is refused), or null. Their enrollment in the same sequence is not a
 * conflict here (that is `already_enrolled`).
 */
export function exclusivityConflict(
  sequence: { id: string; exclusive: boolean },
  live: LiveEnrollmentOf[],
): string | null {
  for (const e of live) {
    if (e.sequenceId === sequence.id) continue;
    if (sequence.exclusive || e.exclusive) return e.sequenceId;
  }
  return null;
}

/** What a touch's contact policies are decided from, counted by the repositories. */
export type ContactCounts = {
  /** When another enrollment of the person last touched them (null: never). */
  lastContactAt: Date | null;
  /** First touches of this sequence since the start of today. */
  firstTouchesToday: number;
  /** Touches since the start of today to the people of the recipient's company (null: no company domain). */
  domainTouchesToday: number | null;
};

/** Which counts a touch needs, so the repositories count nothing in vain. */
export function contactCountsNeeded(
  policy: ContactPolicy,
  firstTouch: boolean,
): { lastContact: boolean; firstTouchesToday: boolean; domainTouchesToday: boolean } {
  return {
    lastContact: firstTouch && policy.cooldownDays > 0,
    firstTouchesToday: firstTouch && policy.newPeoplePerDay !== null,
    domainTouchesToday: policy.recipientDomainPerDay !== null,
  };
}

const DAY_MS = 86_400_000;

/** How a touch's contact policies count time: the mailbox's zone and TIME_SCALE (1: real time). */
export type ContactClock = { timeZone: string; timeScale?: number };

/**
 * Today for the day caps: from its start (inclusive) to the next day's start. In
 * real time the calendar day in `timeZone`; under TIME_SCALE above 1 a compressed
 * day of `scaleDuration(1 day)` ms, aligned on the epoch, so the caps open a new
 * day as often as the sequence's waits pass one. The repositories count from
 * `start`, and a held touch waits until `end`: both from here, so they agree.
 */
export function contactDayOf(now: Date, clock: ContactClock): { start: Date; end: Date } {
  const timeScale = clock.timeScale ?? 1;
  if (timeScale > 1) {
    const length = scaleDuration(DAY_MS, timeScale);
    const start = Math.floor(now.getTime() / length) * length;
    return { start: new Date(start), end: new Date(start + length) };
  }
  return dayBounds(now, clock.timeZone);
}

/** Today in `timeZone` (real time): from its start (inclusive) to the next day's start. */
export function dayBounds(now: Date, timeZone: string): { start: Date; end: Date } {
  const start = DateTime.fromJSDate(now, { zone: timeZone }).startOf('day');
  return { start: start.toJSDate(), end: start.plus({ days: 1 }).toJSDate() };
}

/** The cooldown's length in ms, compressed by TIME_SCALE above 1 like every wait. */
export function cooldownMs(cooldownDays: number, timeScale = 1): number {
  const ms = cooldownDays * DAY_MS;
  return timeScale > 1 ? scaleDuration(ms, timeScale) : ms;
}

/**
 * Whether a touch waits for a contact policy at `now`, and until when. A first
 * touch (step 1, first attempt, no conversation yet) waits out the cooldown and the
 * sequence's new-people cap; any touch waits for the recipient-domain cap. When
 * several hold, the latest end decides (the touch is looked at again then).
 *
 * @param today `contactDayOf(now, touch)` when the caller has it already (the
 *   simulator asks it of many touches a day); computed when a day cap holds otherwise
 */
export function contactHold(
  policy: ContactPolicy,
  touch: { firstTouch: boolean } & ContactClock,
  counts: ContactCounts,
  now: Date,
  today?: { end: Date },
): ContactHold | null {
  const holds: ContactHold[] = [];
  if (touch.firstTouch && policy.cooldownDays > 0 && counts.lastContactAt) {
    const until = new Date(counts.lastContactAt.getTime() + cooldownMs(policy.cooldownDays, touch.timeScale));
    if (until.getTime() > now.getTime()) holds.push({ reason: 'cooldown', until });
  }
  const tomorrow = () => (today ?? contactDayOf(now, touch)).end;
  if (
    touch.firstTouch &&
    policy.newPeoplePerDay !== null &&
    counts.firstTouchesToday >= policy.newPeoplePerDay
  ) {
    holds.push({ reason: 'new_people_cap', until: tomorrow() });
  }
  if (
    policy.recipientDomainPerDay !== null &&
    counts.domainTouchesToday !== null &&
    counts.domainTouchesToday >= policy.recipientDomainPerDay
  ) {
    holds.push({ reason: 'recipient_domain_cap', until: tomorrow() });
  }
  let latest: ContactHold | null = null;
  for (const h of holds) if (!latest || h.until.getTime() > latest.until.getTime()) latest = h;
  return latest;
}

/** Whether a touch is its enrollment's first: step 1, first attempt, no conversation started. */
export function isFirstTouch(t: { step: number; attempt: number; conversationId: string | null }): boolean {
  return t.step === 1 && t.attempt === 1 && t.conversationId === null;
}
