/**
 * Attempts of one touch at most: the first send and two resends after soft bounces
 * (the third soft bounce in a row counts as hard, see `SOFT_BOUNCES_AS_HARD`).
 */
export const MAX_TOUCH_ATTEMPTS = 3;

/**
 * The provider idempotency key and BullMQ job id of one touch. BullMQ forbids `:`
 * in job ids, hence `-`; the same string is the unique key of the touch row.
 *
 * The first attempt keeps the plain `{enrollmentId}-{step}` (invariant 2's key); a
 * resend after a soft bounce is a new send the provider must not deduplicate away,
 * so it carries its attempt: `{enrollmentId}-{step}-{attempt}`.
 */
export function touchKey(enrollmentId: string, step: number, attempt = 1): string {
  return attempt > 1 ? `${enrollmentId}-${step}-${attempt}` : `${enrollmentId}-${step}`;
}
