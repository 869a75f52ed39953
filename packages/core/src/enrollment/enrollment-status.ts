/** Enrollment states; see docs/architecture.md#enrollment-state-machine. */
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

/** States from which nothing is ever sent again. */
export const TERMINAL_STATUSES: readonly EnrollmentStatus[] = [
  'replied',
  'bounced',
  'unsubscribed',
  'exhausted',
  'cancelled',
  'failed',
];

/** States an event may still stop or pause. */
export const LIVE_STATUSES: readonly EnrollmentStatus[] = ['queued', 'active', 'paused'];

const ALLOWED: Record<EnrollmentStatus, readonly EnrollmentStatus[]> = {
  queued: ['active', 'cancelled', 'replied', 'bounced', 'unsubscribed', 'failed'],
  active: ['paused', 'replied', 'bounced', 'unsubscribed', 'exhausted', 'cancelled', 'failed'],
  paused: ['active', 'replied', 'bounced', 'unsubscribed', 'cancelled', 'failed'],
  replied: [],
  bounced: [],
  unsubscribed: [],
  exhausted: [],
  cancelled: [],
  failed: [],
};

/** Whether the state machine allows `from → to`. */
export function canTransition(from: EnrollmentStatus, to: EnrollmentStatus): boolean {
  return ALLOWED[from].includes(to);
}

/** Whether an enrollment in this state is finished for good. */
export function isTerminal(status: EnrollmentStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}
