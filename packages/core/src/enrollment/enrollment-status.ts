/**
 * Enrollment states (docs/architecture.md#enrollment-state-machine); how one changes
 * into another is {@link ENROLLMENT_TRANSITIONS}.
 */
export const ENROLLMENT_STATUSES = [
  'queued',
  'active',
  'paused',
  'replied',
  'bounced',
  'unsubscribed',
  'exhausted',
  'cancelled',
  'failed',
] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/**
 * States from which nothing is ever sent again. `bounced` is not one of them: an
 * address change (`email_changed`) resumes a bounced sequence on the new address.
 */
export const TERMINAL_STATUSES: readonly EnrollmentStatus[] = [
  'replied',
  'unsubscribed',
  'exhausted',
  'cancelled',
  'failed',
];

/** States an event may still stop or pause. */
export const LIVE_STATUSES: readonly EnrollmentStatus[] = ['queued', 'active', 'paused'];

/**
 * Every status change production may make, `from → [to, ...]` (staying in the same
 * state is not a change). The database holds the same table and refuses any other
 * UPDATE (migration `enrollment_transitions`; a test keeps the two equal).
 *
 * Beyond the live ones, two kinds of change leave an ended state:
 * - the earliest stopping event decides: a stopping event that happened before the one
 *   that ended the enrollment restates it (`replied → bounced`, ...), and one that
 *   happened before the enrollment ran out of steps ends it as it would have (`exhausted → replied`, ...);
 * - an address change resumes a bounced sequence on the new address (`bounced → active`).
 */
export const ENROLLMENT_TRANSITIONS: Readonly<Record<EnrollmentStatus, readonly EnrollmentStatus[]>> = {
  queued: ['active', 'cancelled', 'replied', 'bounced', 'unsubscribed', 'failed'],
  active: ['paused', 'replied', 'bounced', 'unsubscribed', 'exhausted', 'cancelled', 'failed'],
  paused: ['active', 'replied', 'bounced', 'unsubscribed', 'cancelled', 'failed'],
  replied: ['bounced', 'unsubscribed', 'cancelled'],
  bounced: ['active', 'replied', 'unsubscribed', 'cancelled'],
  unsubscribed: ['replied', 'bounced', 'cancelled'],
  exhausted: ['replied', 'bounced', 'unsubscribed', 'cancelled'],
  cancelled: ['replied', 'bounced', 'unsubscribed'],
  failed: [],
};

/** Whether the state machine allows `from → to` (a change of state; see {@link ENROLLMENT_TRANSITIONS}). */
export function canTransition(from: EnrollmentStatus, to: EnrollmentStatus): boolean {
  return ENROLLMENT_TRANSITIONS[from].includes(to);
}

/** Whether an enrollment in this state is finished for good. */
export function isTerminal(status: EnrollmentStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}
