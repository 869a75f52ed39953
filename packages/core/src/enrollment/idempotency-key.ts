/**
 * Attempts of one touch at most: the first send and two resends after soft bounces
 * (the third soft bounce in a row counts as hard, see `SOFT_BOUNCES_AS_HARD`).
 */
export const MAX_TOUCH_ATTEMPTS = 3;

/**
 * The provider idempotency key of one touch, and the unique key of its touch row.
 * Its BullMQ job id is the same key in a compact form (`touchJobId` in
 * @touchbase/queues), one-to-one with it, so adding a touch's job twice is a no-op.
 *
 * The first attempt keeps the plain `{enrollmentId}-{step}` (docs/architecture.md#at-most-once-send); a
 * resend after a soft bounce is a new send the provider must not deduplicate away,
 * so it carries its attempt: `{enrollmentId}-{step}-{attempt}`.
 */
export function touchKey(enrollmentId: string, step: number, attempt = 1): string {
  return attempt > 1 ? `${enrollmentId}-${step}-${attempt}` : `${enrollmentId}-${step}`;
}
