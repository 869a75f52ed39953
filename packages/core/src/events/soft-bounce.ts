import { MAX_TOUCH_ATTEMPTS } from '../enrollment/idempotency-key.js';
import type { EventType } from './canonical-event.js';

/**
 * The soft-bounce streak: soft bounces count since the last sign the address works
 * (one of these events) or the last hard bounce; the third in a row counts as hard
 * (`SOFT_BOUNCES_AS_HARD`, `softBounceEffect`).
 */
export const SOFT_BOUNCE_STREAK_BREAKERS: readonly EventType[] = ['delivered', 'opened', 'clicked', 'reply'];

/** Whether a recorded event ends a streak of soft bounces. */
export function breaksSoftBounceStreak(event: {
  type: EventType;
  bounce?: { hard?: boolean } | undefined;
}): boolean {
  return (
    SOFT_BOUNCE_STREAK_BREAKERS.includes(event.type) ||
    (event.type === 'bounce' && event.bounce?.hard === true)
  );
}

/** Touch statuses of a touch handed to the provider, which a soft bounce may send again. */
export const RESENDABLE_TOUCH_STATUSES = ['sending', 'sent', 'unknown'] as const;

/** The soft-bounced touch, and its enrollment as locked. */
export type BouncedTouch = { step: number; attempt: number; status: string };
export type ResendCandidate = {
  status: string;
  currentStep: number;
  currentAttempt: number;
  /** The node that ran last (null before graphs: a chain's is current_step - 1). */
  waitingNode?: number | null;
};

/** A resend: the touch's step at its next attempt, and the touch it replaces as current (to remove its job). */
export type Resend = { step: number; attempt: number; replaces: { step: number; attempt: number } | null };

/** Whether the touch itself may be sent again: handed over, and not the last attempt allowed. */
export function isResendable(touch: BouncedTouch): boolean {
  return (
    touch.attempt < MAX_TOUCH_ATTEMPTS &&
    (RESENDABLE_TOUCH_STATUSES as readonly string[]).includes(touch.status)
  );
}

/**
 * Whether a soft-bounced touch is sent again: it was handed over, is not the last
 * attempt allowed, and the enrollment is still active and either still at that touch
 * (the bounce beat the record of the send) or moved on to the next step only because
 * this touch was recorded as sent. `laterTouchExists` (a later touch of the
 * enrollment already claimed) forbids it: when in doubt, do not resend.
 */
export function resendOf(
  touch: BouncedTouch,
  enrollment: ResendCandidate,
  laterTouchExists = false,
): Resend | null {
  if (touch.attempt >= MAX_TOUCH_ATTEMPTS) return null;
  if (!(RESENDABLE_TOUCH_STATUSES as readonly string[]).includes(touch.status)) return null;
  if (enrollment.status !== 'active') return null;
  const atThisTouch = enrollment.currentStep === touch.step && enrollment.currentAttempt === touch.attempt;
  // Moved on by this touch's record: the node it sits after is this one (a chain's is the step before).
  const ranLast = enrollment.waitingNode ?? enrollment.currentStep - 1;
  const movedOnByIt =
    !atThisTouch &&
    ranLast === touch.step &&
    enrollment.currentAttempt === 1 &&
    enrollment.currentStep !== touch.step;
  if (!atThisTouch && !movedOnByIt) return null;
  if (laterTouchExists) return null;
  return {
    step: touch.step,
    attempt: touch.attempt + 1,
    replaces: movedOnByIt ? { step: enrollment.currentStep, attempt: 1 } : null,
  };
}
