import { contactCountsNeeded, contactDayOf, contactHold, isFirstTouch } from '@touchbase/core';
import type { SendContext } from '@touchbase/db';
import type { Logger } from '@touchbase/telemetry';
import { DelayedError, type Job } from 'bullmq';
import type { SenderContext } from './send-touch.types.js';

/**
 * The sequence's contact policies at the claim path (core's `contactHold`): a first
 * touch waits out the cooldown and the new-people cap, any touch the
 * recipient-domain cap. The repository counts under a lock of the caps' scopes and
 * takes the touch's slots when it may go, so concurrent touches never pass a cap.
 * A held touch's enrollment moves its next touch to the end of the hold, with the
 * policy recorded (the waiting reason says which, until when), and its job waits
 * until then (the row says the same, so the reconciler rebuilds a lost job).
 * Returns when nothing holds the touch.
 *
 * A slot taken by a touch that then does not go (a reply fenced it) stays taken for
 * the day: the caps err on the side of sending fewer.
 */
export async function holdForContactPolicy(
  sc: SenderContext,
  ctx: SendContext,
  attempt: number,
  touchKey: string,
  job: Job,
  log: Pick<Logger, 'info'>,
): Promise<void> {
  const step = ctx.currentStep;
  const firstTouch = isFirstTouch({ step, attempt, conversationId: ctx.conversationId });
  const policy = ctx.contactPolicy;
  const needs = contactCountsNeeded(policy, firstTouch);
  if (!needs.lastContact && !needs.firstTouchesToday && !needs.domainTouchesToday) return;
  const now = sc.clock();
  // The mailbox's zone, and TIME_SCALE: under it the cooldown and the day are compressed.
  const clock = { timeZone: ctx.mailbox.timezone, timeScale: sc.timeScale };
  const hold = await sc.repos.contactPolicies.check(
    {
      enrollmentId: ctx.enrollmentId,
      step,
      attempt,
      touchKey,
      prospectId: ctx.prospect.id,
      sequenceId: ctx.sequenceId,
      companyDomain: ctx.prospect.companyDomain,
      dayStart: contactDayOf(now, clock).start,
      needs,
    },
    (counts) => contactHold(policy, { firstTouch, ...clock }, counts, now),
  );
  if (!hold) return;
  sc.metrics.touchesSkipped.inc({ reason: hold.reason });
  log.info({ reason: hold.reason, until: hold.until }, 'Touch waits for a contact policy');
  await job.moveToDelayed(hold.until.getTime(), job.token);
  throw new DelayedError();
}
