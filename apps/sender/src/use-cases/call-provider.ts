import type { Claim, SendContext } from '@touchbase/db';
import {
  type ProviderAdapter,
  ProviderError,
  type SendRequest,
  type SendResult,
  type TouchStatusAtProvider,
} from '@touchbase/providers';
import type { LogCalls } from '@touchbase/telemetry';
import { DelayedError, type Job } from 'bullmq';
import { holdTouch } from './hold-touch.js';
import type { SenderContext, SendOutcome } from './send-touch.types.js';

/** The provider took the touch, or refused it for good (the enrollment fails). */
export type CallResult = { ok: true; result: SendResult } | { ok: false; reason: string };

/**
 * Hands the touch to the provider with its idempotency key and classifies a
 * failure: rate limited (the job waits, no attempt spent), our setup (the mailbox
 * pauses, ops are alerted, the touch is held), retryable (BullMQ retries with the
 * same key), permanent (refused). A claim is only taken back when this attempt
 * was the first hand-over and the provider certainly took nothing.
 */
export async function callProvider(
  sc: SenderContext,
  provider: ProviderAdapter,
  ctx: SendContext,
  request: SendRequest,
  claim: Claim,
  job: Job,
  log: LogCalls,
  attempt: number,
): Promise<CallResult> {
  const { repos, metrics } = sc;
  const { enrollmentId, step } = request.metadata;
  try {
    return { ok: true, result: await provider.send(request) };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    metrics.touchesFailed.inc({ provider: provider.name, kind: err.kind });
    // A touch in doubt stays in doubt.
    const release = claim.kind === 'claimed' && err.notSent;
    if (err.kind === 'rate_limited') {
      // Not a failure: come back when the provider says, without spending an attempt.
      if (release) await repos.touches.release(enrollmentId, step, attempt);
      log.info({ retryAfterMs: err.retryAfterMs }, 'Provider rate limited; touch waits');
      await job.moveToDelayed(Date.now() + (err.retryAfterMs ?? 1000), job.token);
      throw new DelayedError();
    }
    if (err.kind === 'our_setup') {
      // Our mailbox or domain is at fault, not the prospect: pause the mailbox,
      // tell ops, and hold the touch until the mailbox is resumed.
      if (release) await repos.touches.release(enrollmentId, step, attempt);
      const alertId = await repos.mailboxes.pauseForSetupProblem(ctx.mailbox.id, err.message, {
        enrollmentId,
        step,
      });
      if (alertId) {
        log.error(
          { mailboxId: ctx.mailbox.id, provider: provider.name, alertId, err: err.message },
          'Mailbox paused: the provider blamed our setup',
        );
        // Delivered at once; if this enqueue is lost, domain-health's tick re-enqueues unsettled alerts.
        await sc.alertQueue?.enqueue([alertId]).catch((e: Error) => {
          log.warn({ alertId, err: e.message }, 'Alert enqueue failed; left to the sweep');
        });
      }
      return holdTouch(sc, job, 'mailbox_paused');
    }
    if (err.kind === 'retryable') {
      if (release) await repos.touches.release(enrollmentId, step, attempt);
      log.warn({ err: err.message }, 'Provider call failed; will retry with the same key');
      throw err;
    }
    return { ok: false, reason: `provider_refused: ${err.message}`.slice(0, 500) };
  }
}

/** The provider refused the touch for good: the touch and its enrollment fail. */
export async function failTouch(
  sc: SenderContext,
  ctx: SendContext,
  step: number,
  reason: string,
  attempt: number,
): Promise<SendOutcome> {
  await sc.repos.touches.fail(ctx.enrollmentId, step, reason, attempt);
  sc.logger.warn(
    { enrollmentId: ctx.enrollmentId, step, reason },
    'Touch refused by the provider; enrollment failed',
  );
  return 'failed';
}

/**
 * What the provider has under this key, asked for a touch an earlier attempt handed
 * over and died: the send it took, certainly nothing (`not_found`), or `unknown`
 * (it cannot say, or has no lookup).
 */
export async function lookUpInDoubt(
  provider: ProviderAdapter,
  request: SendRequest,
  log: LogCalls,
): Promise<TouchStatusAtProvider> {
  if (!provider.status) return { state: 'unknown' };
  const status = await provider.status(request.idempotencyKey, request);
  if (status.state === 'unknown' && status.reason) {
    log.warn({ provider: provider.name, reason: status.reason }, 'Touch in doubt lookup failed');
  }
  return status;
}
