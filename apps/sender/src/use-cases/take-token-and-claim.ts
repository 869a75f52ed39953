import type { SendContext } from '@touchbase/db';
import type { MailboxLimits } from '@touchbase/providers';
import { DelayedError, type Job } from 'bullmq';
import type { SenderContext, TouchToSend } from './send-touch.types.js';
import { afterThrottleWait } from './touch-timing.js';

/** The token bucket a touch draws from: its mailbox's, or its LinkedIn account's for one action. */
export type TouchBucket = { id: string; limits: MailboxLimits };

/** A claim that lets the touch go: first hand-over, or an earlier attempt's in doubt. */
export type GoClaim = { kind: 'claimed' } | { kind: 'in_doubt' };

/** What the sender does after the token and the claim: go, or stop with this outcome. */
export type TokenAndClaim = GoClaim | { kind: 'fenced' | 'suppressed' | 'settled' };

/**
 * The last two gates before a touch goes out, for every channel: a token from its
 * bucket, then the claim in PostgreSQL (the reply fence: enrollment still active
 * at this node and attempt, address not suppressed).
 *
 * A refused token hands the job back as a delayed job. It comes back after the
 * bucket's wait, moved into the recipient's window (the sending window with the
 * country's do-not-contact hours on top, core's `recipientWindowOf`); when that
 * moves it past the slot the bucket gave it, the slot is given up: it would stand
 * empty, counted against the caps, while touches whose window is open queue
 * behind it.
 *
 * `bucket` null: no token to take (caps off, or the pool's pick took it already).
 * @throws DelayedError when the touch waits for its bucket.
 */
export async function takeTokenAndClaim(
  sc: SenderContext,
  ctx: SendContext,
  touch: TouchToSend & { key: string; member: string; variant: number },
  bucket: TouchBucket | null,
  job: Job,
): Promise<TokenAndClaim> {
  if (sc.throttle && bucket) {
    const token = await sc.throttle.take(bucket.id, bucket.limits, touch.member);
    if (!token.granted) {
      sc.metrics.touchesSkipped.inc({ reason: 'throttled' });
      const now = sc.clock();
      const retryAt = afterThrottleWait(ctx, now, token.waitMs, sc.timeScale, sc.doNotContact);
      if (retryAt.getTime() > now.getTime() + token.waitMs)
        await sc.throttle.release(bucket.id, touch.member);
      await job.moveToDelayed(retryAt.getTime(), job.token);
      throw new DelayedError();
    }
  }
  const claim = await sc.batches.claim({
    versionId: ctx.sequenceVersionId,
    enrollmentId: touch.enrollmentId,
    step: touch.step,
    attempt: touch.attempt,
    idempotencyKey: touch.key,
    email: ctx.prospect.email,
    variant: touch.variant,
  });
  if (claim.kind === 'claimed' || claim.kind === 'in_doubt') return claim;
  sc.metrics.touchesSkipped.inc({ reason: claim.kind });
  return { kind: claim.kind };
}
