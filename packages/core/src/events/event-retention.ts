import { parseDuration } from '../time/duration.js';
import { DurationError } from '../time/time.errors.js';
import type { EventType } from './canonical-event.js';
import { SOFT_BOUNCE_STREAK_BREAKERS } from './soft-bounce.js';

/**
 * The event types the retention job may retire (docs/scaling.md#event-retention):
 * the effect-free engagement that makes the bulk of the log (about three per send).
 * Events that decided something (reply, bounce, unsubscribe, complaint, out of
 * office, address change, erasure, CRM) are kept: the earliest stopping event, the
 * soft-bounce streak, the domain rollup and the CRM outbox read them again later.
 */
export const RETIRABLE_EVENT_TYPES: readonly EventType[] = ['sent', 'delivered', 'opened', 'clicked'];

/**
 * Of those, the types the funnel counts: retiring one first copies the facts the
 * funnel reads (type, enrollment, prospect, message id, time) into a narrow archive,
 * so every funnel reads the same before and after.
 */
export const FUNNEL_ARCHIVED_EVENT_TYPES: readonly EventType[] = RETIRABLE_EVENT_TYPES.filter((t) =>
  ['delivered', 'opened', 'clicked'].includes(t),
);

/**
 * Retirable types that also end a soft-bounce streak: a prospect's latest such event
 * (or later hard bounce) is where its current streak starts counting, so the
 * latest one is kept while it is the latest.
 */
export const RETIRABLE_STREAK_BREAKERS: readonly EventType[] = RETIRABLE_EVENT_TYPES.filter((t) =>
  SOFT_BOUNCE_STREAK_BREAKERS.includes(t),
);

/** The shortest retention allowed: a typo (`180m` for `180d`) must not empty the log. */
export const MIN_EVENT_RETENTION_DAYS = 7;

/**
 * The arrival time before which retirable events are retired, for a retention
 * given as a duration (`180d`, `P180D`).
 * @throws DurationError when the duration does not parse or is under {@link MIN_EVENT_RETENTION_DAYS} days.
 */
export function eventRetentionCutoff(now: Date, olderThan: string): Date {
  const ms = parseDuration(olderThan);
  if (ms < MIN_EVENT_RETENTION_DAYS * 86_400_000) {
    throw new DurationError(olderThan, `must be at least ${MIN_EVENT_RETENTION_DAYS}d`);
  }
  return new Date(now.getTime() - ms);
}
