import { z } from 'zod';
import type { SequenceAction } from '../sequence/sequence-graph.js';

/** The actions a LinkedIn sending identity takes, each under its own caps. */
export const LinkedInActionSchema = z.enum(['invitation', 'message', 'profile_visit']);
export type LinkedInAction = z.infer<typeof LinkedInActionSchema>;

/** The LinkedIn action of a graph node's action (whose caps it takes), null for any other. */
export function linkedInActionOf(action: SequenceAction): LinkedInAction | null {
  return action === 'linkedin_connect'
    ? 'invitation'
    : action === 'linkedin_message'
      ? 'message'
      : action === 'linkedin_visit'
        ? 'profile_visit'
        : null;
}

/**
 * Defaults below what LinkedIn tolerates from one member, so that an account that
 * is not warmed up, or a free one, is not restricted:
 *
 * - invitations: 20 a day, 100 a week. Unipile's limits page puts a paid, active
 *   account at 80 to 100 a day and about 200 a week, a free account with some
 *   history at about 150 a week without a note (and about 15 with one); LinkedIn's
 *   own weekly ceiling is commonly reported near 100 for ordinary accounts. 100 a
 *   week is under all of them, and 20 a day spreads it over five working days.
 * - messages (to 1st-degree connections): 50 a day, half the 100 to 150 Unipile
 *   gives as safe.
 * - profile visits: 80 a day, the low end of Unipile's 80 to 100 for free and
 *   premium accounts (exceeding it can disconnect the account).
 * - one action at least a minute apart (Unipile: "space out actions randomly with
 *   intervals of ~1 minute"), and at most 15 of a kind an hour, so a day's quota is
 *   never spent in one burst.
 *
 * Raise them per account once it is warmed up; lower them for new ones.
 */
export const DEFAULT_LINKEDIN_CAPS = {
  invitationsPerDay: 20,
  invitationsPerWeek: 100,
  messagesPerDay: 50,
  profileVisitsPerDay: 80,
  perHour: 15,
  minSpacingMs: 60_000,
} as const;

/** A LinkedIn account's caps, each defaulted (see {@link DEFAULT_LINKEDIN_CAPS}). */
export const LinkedInCapsSchema = z.object({
  invitationsPerDay: z.number().int().min(0).max(200).default(DEFAULT_LINKEDIN_CAPS.invitationsPerDay),
  invitationsPerWeek: z.number().int().min(0).max(1000).default(DEFAULT_LINKEDIN_CAPS.invitationsPerWeek),
  messagesPerDay: z.number().int().min(0).max(500).default(DEFAULT_LINKEDIN_CAPS.messagesPerDay),
  profileVisitsPerDay: z.number().int().min(0).max(500).default(DEFAULT_LINKEDIN_CAPS.profileVisitsPerDay),
  perHour: z.number().int().min(1).max(500).default(DEFAULT_LINKEDIN_CAPS.perHour),
  minSpacingMs: z.number().int().min(0).max(3_600_000).default(DEFAULT_LINKEDIN_CAPS.minSpacingMs),
});
export type LinkedInCaps = z.infer<typeof LinkedInCapsSchema>;

/**
 * One action's bucket, in the shape of a mailbox's limits (the Throttle port's
 * `MailboxLimits`) plus a week window for invitations. A cap of 0 turns the
 * action off for the account.
 */
export type LinkedInActionLimits = {
  perMinute: number;
  perHour: number;
  perDay: number;
  /** Only invitations have a weekly cap. */
  perWeek?: number;
  minSpacingMs: number;
};

/** The caps of one action of an account, as its token bucket takes them. */
export function linkedInActionLimits(caps: LinkedInCaps, action: LinkedInAction): LinkedInActionLimits {
  const perDay =
    action === 'invitation'
      ? Math.min(caps.invitationsPerDay, caps.invitationsPerWeek)
      : action === 'message'
        ? caps.messagesPerDay
        : caps.profileVisitsPerDay;
  const perHour = Math.min(perDay, caps.perHour);
  return {
    // The minute window only backs the spacing up (two in a minute at most).
    perMinute: Math.min(perHour, 2),
    perHour,
    perDay,
    ...(action === 'invitation' ? { perWeek: caps.invitationsPerWeek } : {}),
    minSpacingMs: caps.minSpacingMs,
  };
}
