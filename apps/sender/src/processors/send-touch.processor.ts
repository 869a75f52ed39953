import { dueAfterWait, renderTouch, resolveTimeZone, type SequenceStep, type TouchTiming, touchKey } from '@touchbase/core';
import type { Repositories, SendContext } from '@touchbase/db';
import { ProviderError, type ProviderAdapter, type ProviderRegistry, type SendResult } from '@touchbase/providers';
import type { TouchQueue, TouchSend } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';

export type SendTouchDeps = {
  repos: Pick<Repositories, 'touches' | 'sequences'>;
  touchQueue: TouchQueue;
  providers: ProviderRegistry;
  logger: Logger;
  metrics: Metrics;
  clock: () => Date;
  timeScale: number;
  jitterMs?: number;
};

/** What became of one `touch.send` job; the processor's return value (kept in tests and Bull Board). */
export type SendOutcome =
  | 'sent'
  | 'resent_in_doubt'
  | 'unknown'
  | 'fenced'
  | 'suppressed'
  | 'settled'
  | 'exhausted'
  | 'paused_missing_variable'
  | 'held'
  | 'failed'
  | 'gone';

/**
 * Sends one touch: re-checks the enrollment, claims the touch in PostgreSQL (the
 * reply fence), calls the provider with the idempotency key `{enrollmentId}-{step}`,
 * records the send and schedules the next step.
 */
export function createSendTouchProcessor(deps: SendTouchDeps) {
  const { repos, logger, metrics } = deps;

  return async function sendTouch(payload: TouchSend, job: Job): Promise<SendOutcome> {
    const { e: enrollmentId, s: step } = payload;
    const log = logger.child({ enrollmentId, step, jobId: job.id });
    const ctx = await repos.touches.loadForSend(enrollmentId);
    if (!ctx) return 'gone';
    if (ctx.status !== 'active' || ctx.currentStep !== step) {
      metrics.touchesSkipped.inc({ reason: 'fenced' });
      return 'fenced';
    }
    const version = await repos.sequences.version(ctx.sequenceVersionId);
    const steps = version.steps;
    if (step > steps.length) {
      if (await repos.touches.exhaust(enrollmentId, step)) log.info('Enrollment exhausted');
      return 'exhausted';
    }
    if (ctx.domain.status === 'paused' || ctx.mailbox.status === 'paused') {
      // Held, not lost: the job comes back later; resuming the domain reschedules it sooner.
      await job.moveToDelayed(Date.now() + 60_000 / Math.max(1, deps.timeScale / 60), job.token);
      metrics.touchesSkipped.inc({ reason: 'held' });
      throw new DelayedError();
    }

    const content = renderTouch(steps, step, variablesOf(ctx), `${ctx.prospect.id}-${ctx.sequenceId}`);
    if (!content.ok) {
      const reason = `missing_variable:${content.missing.join(',')}`;
      await repos.touches.pause(enrollmentId, step, reason);
      log.warn({ missing: content.missing }, 'Enrollment paused for a missing template variable');
      metrics.touchesSkipped.inc({ reason: 'missing_variable' });
      return 'paused_missing_variable';
    }

    const key = touchKey(enrollmentId, step);
    const claim = await repos.touches.claim(enrollmentId, step, key, ctx.prospect.email);
    if (claim.kind === 'fenced' || claim.kind === 'suppressed' || claim.kind === 'settled') {
      metrics.touchesSkipped.inc({ reason: claim.kind });
      return claim.kind;
    }

    const provider = deps.providers.get(ctx.mailbox.provider);
    if (deps.timeScale > 1 && provider.name !== 'sandbox') {
      throw new UnrecoverableError('TIME_SCALE above 1 is for the sandbox provider only');
    }
    let result: SendResult;
    if (claim.kind === 'in_doubt') {
      // An earlier attempt handed this touch over and died before recording the
      // answer. Resend only when the provider guarantees the key deduplicates;
      // otherwise ask it, and when it cannot say, do not resend.
      const resolved = await resolveInDoubt(provider, key);
      if (resolved) {
        result = resolved;
      } else if (provider.idempotent) {
        const sent = await callProvider(provider, ctx, content, step, key, log, metrics, job);
        if (!sent.ok) return failTouch(ctx, step, sent.reason);
        result = sent.result;
      } else {
        await repos.touches.recordSent({
          enrollmentId,
          step,
          messageId: '',
          conversationId: '',
          nextTouchAt: nextDue(ctx, steps, step, deps),
          status: 'unknown',
        });
        log.warn('Touch outcome unknown; not resent');
        metrics.touchesFailed.inc({ provider: provider.name, kind: 'unknown' });
        await scheduleNext(ctx, steps, step, deps);
        return 'unknown';
      }
    } else {
      const sent = await callProvider(provider, ctx, content, step, key, log, metrics, job);
      if (!sent.ok) return failTouch(ctx, step, sent.reason);
      result = sent.result;
    }

    const dueAt = nextDue(ctx, steps, step, deps);
    const advanced = await repos.touches.recordSent({
      enrollmentId,
      step,
      messageId: result.messageId,
      conversationId: result.conversationId,
      nextTouchAt: dueAt,
    });
    metrics.touchesSent.inc({ provider: provider.name });
    if (ctx.nextTouchAt) metrics.sendLag.observe(Math.max(0, deps.clock().getTime() - ctx.nextTouchAt.getTime()) / 1000);
    log.info({ messageId: result.messageId, variant: content.variant }, 'Touch sent');
    if (advanced) await deps.touchQueue.schedule([{ enrollmentId, step: step + 1, dueAt }]);
    return claim.kind === 'in_doubt' ? 'resent_in_doubt' : 'sent';
  };

  async function failTouch(ctx: SendContext, step: number, reason: string): Promise<SendOutcome> {
    await repos.touches.fail(ctx.enrollmentId, step, reason);
    logger.warn({ enrollmentId: ctx.enrollmentId, step, reason }, 'Touch refused by the provider; enrollment failed');
    return 'failed';
  }

  async function scheduleNext(ctx: SendContext, steps: SequenceStep[], step: number, d: SendTouchDeps) {
    await d.touchQueue.schedule([{ enrollmentId: ctx.enrollmentId, step: step + 1, dueAt: nextDue(ctx, steps, step, d) }]);
  }
}

async function callProvider(
  provider: ProviderAdapter,
  ctx: SendContext,
  content: { subject: string; body: string },
  step: number,
  key: string,
  log: Logger,
  metrics: Metrics,
  job: Job,
): Promise<{ ok: true; result: SendResult } | { ok: false; reason: string }> {
  try {
    const result = await provider.send({
      idempotencyKey: key,
      from: ctx.mailbox.address,
      to: ctx.prospect.email,
      subject: content.subject,
      body: content.body,
      conversationId: ctx.conversationId,
      inReplyTo: ctx.firstMessageId,
      metadata: { enrollmentId: ctx.enrollmentId, step, prospectId: ctx.prospect.id },
    });
    return { ok: true, result };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    metrics.touchesFailed.inc({ provider: provider.name, kind: err.kind });
    if (err.kind === 'rate_limited') {
      // Not a failure: come back when the provider says, without spending an attempt.
      await job.moveToDelayed(Date.now() + (err.retryAfterMs ?? 1000), job.token);
      throw new DelayedError();
    }
    if (err.kind === 'retryable') {
      log.warn({ err: err.message }, 'Provider call failed; will retry with the same key');
      throw err;
    }
    return { ok: false, reason: `provider_refused: ${err.message}`.slice(0, 500) };
  }
}

async function resolveInDoubt(provider: ProviderAdapter, key: string): Promise<SendResult | null> {
  if (!provider.status) return null;
  const status = await provider.status(key);
  return status.state === 'sent' ? status.result : null;
}

function nextDue(ctx: SendContext, steps: SequenceStep[], step: number, deps: SendTouchDeps): Date {
  const timing: TouchTiming = {
    timeZone: resolveTimeZone(ctx.prospect.timezone, ctx.mailbox.timezone),
    window: ctx.mailbox.windowDays.length > 0 ? { days: ctx.mailbox.windowDays, start: ctx.mailbox.windowStart, end: ctx.mailbox.windowEnd } : null,
    timeScale: deps.timeScale,
    ...(deps.jitterMs ? { jitterMs: deps.jitterMs } : {}),
  };
  return dueAfterWait(deps.clock(), steps[step - 1]?.wait ?? '0s', timing);
}

function variablesOf(ctx: SendContext): Record<string, string | null | undefined> {
  return {
    ...ctx.prospect.attributes,
    firstName: ctx.prospect.firstName,
    lastName: ctx.prospect.lastName,
    company: ctx.prospect.company,
    email: ctx.prospect.email,
  };
}
