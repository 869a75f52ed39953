import { type EnrollmentStatus, TERMINAL_STATUSES } from './enrollment-status.js';

/**
 * Enrollment statuses whose touches the touch retention may archive
 * (docs/scaling.md#the-touch-table): the terminal ones, from which nothing is sent
 * again. `bounced` is not among them: an address change resumes a bounced enrollment at
 * its step (`resumeEnded`), and its claim must still meet the touches it already has.
 * Live ones (queued, active, paused) are never archived: the fence, the claim and the
 * migration check read them.
 */
export const TOUCH_RETIRABLE_ENROLLMENT_STATUSES: readonly EnrollmentStatus[] = TERMINAL_STATUSES;

/**
 * Touch statuses that may be archived: final ones. A `sending` touch of an ended
 * enrollment is the sender's sweep's to settle, an `unknown` one is in doubt.
 */
export const RETIRABLE_TOUCH_STATUSES = ['sent', 'failed', 'cancelled'] as const;
