import type { SendContext } from '@touchbase/db';
import type { MailboxLimits, Throttle, ThrottleDecision } from '@touchbase/providers';
import type { LogCalls } from '@touchbase/telemetry';
import { DelayedError, type Job } from 'bullmq';
import type { SenderContext, TouchToSend } from './send-touch.types.js';
import { afterThrottleWait } from './touch-timing.js';

/** The token bucket a touch draws from: its mailbox's, or its LinkedIn account's for one action. */
export type TouchBucket = { id: string; limits: MailboxLimits };

/** A token asked ahead of the claim: the bucket's answer, or the error the take failed with (kept, not thrown, until the touch needs it). */
export type AskedToken = Promise<{ decision: ThrottleDecision } | { error: unknown }>;

/**
 * Asks the bucket for the touch's token now, to be used by {@link takeTokenAndClaim}
 * later: the sender asks it while it asks the provider about the prospect, so a touch
 * waits for the slower of the two instead of one after the other.
 */
export function askToken(throttle: Throttle, bucket: TouchBucket, member: string): AskedToken {
  return throttle.take(bucket.id, bucket.limits, member).then(
    (decision) => ({ decision }),
    (error: unknown) => ({ error }),
  );
}

/**
 * A touch that stops before its claim gives up the token asked ahead for it: a place
 * in line (a refusal's wait hint) is released, so it does not stand empty, counted
 * against the caps, ahead of the next waiter. A token already granted stays counted:
 * a slot left unused, never a cap passed.
 */
export async function forgoToken(
  throttle: Throttle,
  bucket: TouchBucket,
  member: string,
  asked: AskedToken,
  log: LogCalls,
): Promise<void> {
  const answer = await asked;
  if ('error' in answer) {
    log.warn({ mailboxId: bucket.id, err: (answer.error as Error).message }, 'Token asked ahead failed');
    return;
  }
  if (!answer.decision.granted) await throttle.release(bucket.id, member);
}

/** A claim that lets the touch go: first hand-over, or an earlier attempt's in doubt. */
export type GoClaim = { kind: 'claimed' } | { kind: 'in_doubt' };

/**
 * What the sender does after the token and the claim: go, or stop with this outcome
 * (`resent_in_doubt`: an earlier attempt's send, confirmed by the provider and recorded;
 * `unknown`: an earlier attempt's send recorded unknown, never resent).
 */
export type TokenAndClaim =
  | GoClaim
  | { kind: 'fenced' | 'suppressed' | 'settled' | 'resent_in_doubt' | 'unknown' };

/**
 * Settles without a token what the in-doubt claim would settle, asking the touch's
 * provider about an earlier attempt's hand-over where it can say (a LinkedIn sender
 * cannot): `sent` (a send it confirms, recorded),
 * `unknown` (recorded unknown: a provider that does not deduplicate by key, so the
 * claim would not resend either), `not_sent` (it certainly took nothing, and a new send
 * is what the claim would lead to), or null (it cannot say: the touch stays in doubt).
 */
export type AskInDoubt = () => Promise<'sent' | 'unknown' | 'not_sent' | null>;

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
 * A touch in doubt (an earlier attempt handed it over and died) whose token is
 * refused does not wait for the next window to be looked up: that attempt's grant
 * paid for its send, already counted in the caps that refuse this one. `askInDoubt`
 * decides at once (asking the provider where it can say): a send it confirms is
 * recorded, and on a provider that
 * does not deduplicate by key anything else is recorded unknown, the claim's own
 * decision (either way no token needed, the place in line is given up); certainly not
 * sent, the claim is released, so the touch is no longer in doubt while it waits for
 * a token; otherwise it waits in doubt.
 *
 * `bucket` null: no token to take (caps off, or the pool's pick took it already).
 * `asked`: the token was asked ahead ({@link askToken}); its answer is used.
 * `askInDoubt` null: a touch in doubt waits in doubt for its token.
 * @throws DelayedError when the touch waits for its bucket.
 */
export async function takeTokenAndClaim(
  sc: SenderContext,
  ctx: SendContext,
  touch: TouchToSend & { key: string; member: string; variant: number },
  bucket: TouchBucket | null,
  job: Job,
  asked: AskedToken | null = null,
  askInDoubt: AskInDoubt | null = null,
): Promise<TokenAndClaim> {
  if (sc.throttle && bucket) {
    const token = asked
      ? decisionOf(await asked)
      : await sc.throttle.take(bucket.id, bucket.limits, touch.member);
    if (!token.granted) {
      const settled = askInDoubt ? await settleInDoubt(sc, touch, askInDoubt) : null;
      if (settled === 'sent' || settled === 'unknown') {
        await sc.throttle.release(bucket.id, touch.member);
        return { kind: settled === 'sent' ? 'resent_in_doubt' : 'unknown' };
      }
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

/** A touch left 'sending' by an earlier attempt: the provider's answer, the claim released when it took nothing. */
async function settleInDoubt(
  sc: SenderContext,
  touch: TouchToSend,
  askInDoubt: AskInDoubt,
): Promise<Awaited<ReturnType<AskInDoubt>>> {
  const { enrollmentId, step, attempt } = touch;
  if ((await sc.repos.touches.statusOf(enrollmentId, step, attempt)) !== 'sending') return null;
  const answer = await askInDoubt();
  if (answer === 'not_sent') await sc.repos.touches.release(enrollmentId, step, attempt);
  return answer;
}

function decisionOf(answer: Awaited<AskedToken>): ThrottleDecision {
  if ('error' in answer) throw answer.error;
  return answer.decision;
}
