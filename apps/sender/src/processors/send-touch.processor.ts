import { renderTouch, touchKey } from '@touchbase/core';
import type { Claim, Repositories, SendContext } from '@touchbase/db';
import {
  type MailboxThrottle,
  type ProviderAdapter,
  ProviderError,
  type ProviderRegistry,
  type SendRequest,
  type SendResult,
  type TouchStatusAtProvider,
} from '@touchbase/providers';
import { type AlertQueue, retriesOf, type TouchQueue, type TouchSend } from '@touchbase/queues';
import { deferredChild, type LogCalls, type Logger, type Metrics } from '@touchbase/telemetry';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { askProvider, recheckEvent, stopsTheTouch } from './prospect-recheck.js';
import { TouchBatches } from './touch-batches.js';
import { afterThrottleWait, nextDue, windowClosedUntil } from './touch-timing.js';

export type SendTouchDeps = {
  repos: Pick<Repositories, 'touches' | 'sequences' | 'mailboxes' | 'events'>;
  touchQueue: TouchQueue;
  providers: ProviderRegistry;
  logger: Logger;
  metrics: Metrics;
  clock: () => Date;
  timeScale: number;
  jitterMs?: number;
  /**
   * The per-mailbox token buckets, shared by every replica through Redis. Absent
   * only where caps are deliberately off (the benchmark's bare baseline).
   */
  throttle?: MailboxThrottle;
  /** The one-click unsubscribe link of an enrollment, for List-Unsubscribe. */
  unsubscribeUrl?: (enrollmentId: string) => string;
  /** How long a touch of a paused mailbox or domain waits before it looks again, in real ms. */
  holdMs?: number;
  /** Where a mailbox pause's alert goes for delivery (Slack, webhook, log) by domain-health's alert worker. */
  alertQueue?: Pick<AlertQueue, 'enqueue'>;
  /**
   * Whether to ask the provider, just before each send, what it knows of the
   * prospect (adapters that offer it); default true. Off, only our own fence holds.
   */
  recheck?: boolean;
  /** Bound on that question, real ms (default 2 s); past it the touch goes on. */
  recheckTimeoutMs?: number;
  /** Whether a hard bounce the provider reported queues a CRM update (a CRM is configured). */
  notifyCrm?: boolean;
  /** At most this many touches in flight share one load, claim and record statement (default 100). */
  batchSize?: number;
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
  | 'recheck_stopped'
  | 'gone';

type CallResult = { ok: true; result: SendResult } | { ok: false; reason: string };

/**
 * Sends one touch: re-checks the enrollment, picks the pool's mailbox for a first
 * touch, renders the copy, takes a token from the mailbox's bucket (or waits for
 * one as a delayed job), claims the touch in PostgreSQL (the reply fence), calls
 * the provider with the idempotency key `{enrollmentId}-{step}` (with `-{attempt}`
 * for a resend after a soft bounce), records the send and schedules the next step.
 *
 * Just before the token is taken it looks at the sending window (a touch due
 * outside it waits for it) and asks the provider, where the adapter can say,
 * whether it saw a reply, bounce or unsubscribe: then the touch is not sent, the
 * answer is recorded as an event and applied like a webhook.
 */
export function createSendTouchProcessor(deps: SendTouchDeps) {
  const { repos, logger, metrics } = deps;
  const holdMs = deps.holdMs ?? 60_000 / Math.max(1, deps.timeScale / 60);
  const batches = new TouchBatches(repos.touches, deps.touchQueue, metrics, deps.batchSize);

  return async function sendTouch(payload: TouchSend, job: Job): Promise<SendOutcome> {
    const { e: enrollmentId, s: step } = payload;
    const attempt = payload.a ?? 1;
    const log = deferredChild(logger, { enrollmentId, step, attempt, jobId: job.id });
    let ctx = await batches.load(enrollmentId);
    if (!ctx) return 'gone';
    // A job of another attempt is stale: a soft bounce moved the enrollment on to a resend.
    if (ctx.status !== 'active' || ctx.currentStep !== step || ctx.currentAttempt !== attempt) {
      await settleStranded(ctx, step, attempt, log);
      metrics.touchesSkipped.inc({ reason: 'fenced' });
      return 'fenced';
    }
    const version = await repos.sequences.version(ctx.sequenceVersionId);
    const steps = version.steps;
    if (step > steps.length) {
      if (await repos.touches.exhaust(enrollmentId, step)) log.info('Enrollment exhausted');
      return 'exhausted';
    }
    const key = touchKey(enrollmentId, step, attempt);
    // One throttle member per attempt: a retry after a 5xx counts as another
    // possible send; a job back from a throttle wait or a 429 keeps its place and slot.
    const member = `${key}.${retriesOf(job)}.${job.stalledCounter ?? 0}`;
    let tokenTaken = false;
    if (ctx.mailboxPoolId && step === 1 && !ctx.conversationId) {
      const picked = await pickPoolMailbox(ctx, ctx.mailboxPoolId, member);
      if (!picked) return hold(job, 'pool_unavailable');
      ctx = picked.ctx;
      tokenTaken = picked.granted;
    }
    if ((ctx.domain.status === 'paused' && ctx.domain.holdTouches) || ctx.mailbox.status === 'paused') {
      // Held, not lost: the job comes back later; resuming the domain reschedules it sooner.
      return hold(job, 'held');
    }
    const opensAt = windowClosedUntil(ctx, deps.clock(), deps.timeScale);
    if (opensAt) {
      metrics.touchesSkipped.inc({ reason: 'outside_window' });
      log.info({ opensAt }, 'Touch waits for its sending window');
      await job.moveToDelayed(opensAt.getTime(), job.token);
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

    const request: SendRequest = {
      idempotencyKey: key,
      from: ctx.mailbox.address,
      to: ctx.prospect.email,
      subject: content.subject,
      body: content.body,
      conversationId: ctx.conversationId,
      inReplyTo: ctx.firstMessageId,
      metadata: { enrollmentId, step, prospectId: ctx.prospect.id },
      prospect: {
        firstName: ctx.prospect.firstName,
        lastName: ctx.prospect.lastName,
        company: ctx.prospect.company,
      },
      mailboxConfig: ctx.mailbox.providerConfig,
      unsubscribeUrl: deps.unsubscribeUrl?.(enrollmentId) ?? null,
    };
    const provider = deps.providers.get(ctx.mailbox.provider);

    if (deps.recheck !== false && provider.prospectStatus) {
      const seen = await askProvider(provider, request, deps.recheckTimeoutMs ?? 2_000, log);
      if (stopsTheTouch(seen)) {
        const outcome = await stopOnProviderView(provider, seen, request, attempt, log);
        await settleStranded(ctx, step, attempt, log);
        return outcome;
      }
    }

    if (deps.throttle && !tokenTaken) {
      const token = await deps.throttle.take(ctx.mailbox.id, ctx.mailbox, member);
      if (!token.granted) {
        metrics.touchesSkipped.inc({ reason: 'throttled' });
        // The token's time may fall after the window closes: then the touch waits for the next slot.
        const retryAt = afterThrottleWait(ctx, deps.clock(), token.waitMs, deps.timeScale);
        await job.moveToDelayed(retryAt.getTime(), job.token);
        throw new DelayedError();
      }
    }

    const claim = await batches.claim({
      enrollmentId,
      step,
      attempt,
      idempotencyKey: key,
      email: ctx.prospect.email,
      variant: content.variant,
    });
    if (claim.kind === 'fenced' || claim.kind === 'suppressed' || claim.kind === 'settled') {
      metrics.touchesSkipped.inc({ reason: claim.kind });
      return claim.kind;
    }

    if (deps.timeScale > 1 && provider.name !== 'sandbox') {
      await repos.touches.release(enrollmentId, step, attempt);
      throw new UnrecoverableError('TIME_SCALE above 1 is for the sandbox provider only');
    }
    let result: SendResult;
    if (claim.kind === 'in_doubt') {
      // An earlier attempt handed this touch over and died before recording the
      // answer. Resend only when the provider guarantees the key deduplicates;
      // otherwise ask it, and when it cannot say, do not resend.
      const resolved = await resolveInDoubt(provider, request);
      if (resolved) {
        result = resolved;
      } else if (provider.idempotent) {
        const sent = await callProvider(provider, ctx, request, claim, job, log, attempt);
        if (!sent.ok) return failTouch(ctx, step, sent.reason, attempt);
        result = sent.result;
      } else {
        const dueAt = nextDue(ctx, steps, step, deps.clock(), deps.timeScale, deps.jitterMs);
        const advanced = await batches.recordSent({
          enrollmentId,
          step,
          attempt,
          messageId: '',
          conversationId: '',
          nextTouchAt: dueAt,
          status: 'unknown',
        });
        log.warn({ provider: provider.name }, 'Touch outcome unknown; not resent');
        metrics.touchesFailed.inc({ provider: provider.name, kind: 'unknown' });
        if (advanced) await batches.schedule({ enrollmentId, step: step + 1, dueAt });
        return 'unknown';
      }
    } else {
      const sent = await callProvider(provider, ctx, request, claim, job, log, attempt);
      if (!sent.ok) return failTouch(ctx, step, sent.reason, attempt);
      result = sent.result;
    }

    const dueAt = nextDue(ctx, steps, step, deps.clock(), deps.timeScale, deps.jitterMs);
    const advanced = await batches.recordSent({
      enrollmentId,
      step,
      attempt,
      messageId: result.messageId,
      conversationId: result.conversationId,
      nextTouchAt: dueAt,
    });
    metrics.touchesSent.inc({ provider: provider.name });
    if (ctx.nextTouchAt)
      metrics.sendLag.observe(Math.max(0, deps.clock().getTime() - ctx.nextTouchAt.getTime()) / 1000);
    log.info(
      { messageId: result.messageId, variant: content.variant, mailboxId: ctx.mailbox.id },
      'Touch sent',
    );
    if (advanced) await batches.schedule({ enrollmentId, step: step + 1, dueAt });
    return claim.kind === 'in_doubt' ? 'resent_in_doubt' : 'sent';
  };

  async function hold(job: Job, reason: string): Promise<never> {
    await job.moveToDelayed(Date.now() + holdMs, job.token);
    metrics.touchesSkipped.inc({ reason });
    throw new DelayedError();
  }

  /**
   * The first touch of a pool sequence goes out from the active member with the
   * most room left in its day (a prospect already touched from a member stays on
   * it); the enrollment keeps that mailbox for the rest of its thread.
   *
   * Touches picked at the same moment all see the same "most room", so each
   * member is tried in that order for a token without queueing; the first that
   * grants one is taken. When none can send now, the touch queues on the member
   * with the most room.
   */
  async function pickPoolMailbox(
    ctx: SendContext,
    poolId: string,
    member: string,
  ): Promise<{ ctx: SendContext; granted: boolean } | null> {
    const candidates = await repos.touches.poolCandidates(poolId, ctx.prospect.id);
    if (candidates.length === 0) return null;
    const used =
      deps.throttle && candidates.length > 1
        ? await deps.throttle.usedToday(candidates.map((c) => c.id))
        : new Map<string, number>();
    // Ties go to a random member, so replicas starting together spread out.
    const ranked = candidates
      .map((c) => ({ c, room: c.perDay - (used.get(c.id) ?? 0) + Math.random() * 0.5 }))
      .sort((a, b) => b.room - a.room)
      .map((r) => r.c);
    let chosen = ranked[0]!;
    let granted = false;
    if (deps.throttle) {
      for (const c of ranked) {
        if ((await deps.throttle.take(c.id, c, member, { queue: false })).granted) {
          chosen = c;
          granted = true;
          break;
        }
      }
    }
    if (chosen.id === ctx.mailbox.id) return { ctx, granted };
    await repos.touches.assignMailbox(ctx.enrollmentId, chosen.id);
    const moved = await repos.touches.loadForSend(ctx.enrollmentId);
    // Moved by nobody else in between: the token was taken for the mailbox it now has.
    return moved ? { ctx: moved, granted: granted && moved.mailbox.id === chosen.id } : null;
  }

  async function callProvider(
    provider: ProviderAdapter,
    ctx: SendContext,
    request: SendRequest,
    claim: Claim,
    job: Job,
    log: LogCalls,
    attempt: number,
  ): Promise<CallResult> {
    const { enrollmentId, step } = request.metadata;
    try {
      return { ok: true, result: await provider.send(request) };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      metrics.touchesFailed.inc({ provider: provider.name, kind: err.kind });
      // A claim is only taken back when this attempt was the first hand-over and
      // the provider certainly took nothing; a touch in doubt stays in doubt.
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
          await deps.alertQueue?.enqueue([alertId]).catch((e: Error) => {
            log.warn({ alertId, err: e.message }, 'Alert enqueue failed; left to the sweep');
          });
        }
        return hold(job, 'mailbox_paused');
      }
      if (err.kind === 'retryable') {
        if (release) await repos.touches.release(enrollmentId, step, attempt);
        log.warn({ err: err.message }, 'Provider call failed; will retry with the same key');
        throw err;
      }
      return { ok: false, reason: `provider_refused: ${err.message}`.slice(0, 500) };
    }
  }

  /**
   * The provider saw a reply, bounce or unsubscribe that has not reached us (or not
   * yet): the touch is not sent, and the answer is recorded as an event from
   * `{provider}-recheck` and applied like a webhook (every sequence of the
   * prospect ends, bounces and unsubscribes suppress), so the timeline says why.
   */
  async function stopOnProviderView(
    provider: ProviderAdapter,
    seen: 'replied' | 'bounced' | 'unsubscribed',
    request: SendRequest,
    attempt: number,
    log: LogCalls,
  ): Promise<SendOutcome> {
    const result = await repos.events.recordAndApply(
      recheckEvent(provider.name, seen, request, attempt, deps.clock()),
      { now: deps.clock(), timeScale: deps.timeScale, notifyCrm: deps.notifyCrm ?? false },
    );
    metrics.touchesSkipped.inc({ reason: `recheck_${seen}` });
    log.info(
      { provider: provider.name, providerStatus: seen, eventId: result.eventId, outcome: result.outcome },
      'Touch not sent: the provider saw the prospect answer first',
    );
    // Best effort, as in ingest: a pending job that survives is fenced by the claim.
    await deps.touchQueue
      .cancel(
        result.stopped.map((e) => ({ enrollmentId: e.id, step: e.currentStep, attempt: e.currentAttempt })),
      )
      .catch((err: Error) => log.warn({ err: err.message }, 'Pending job removal failed; the fence holds'));
    return 'recheck_stopped';
  }

  /**
   * A job that finds its enrollment ended may find its own touch still `sending`: a
   * sender died between the provider's accept and the record, and the answer that
   * ended the enrollment came meanwhile. The touch is settled, never resent: `sent`
   * when the provider has it, `cancelled` when it certainly does not, else `unknown`.
   */
  async function settleStranded(
    ctx: SendContext,
    step: number,
    attempt: number,
    log: LogCalls,
  ): Promise<void> {
    if ((await repos.touches.statusOf(ctx.enrollmentId, step, attempt)) !== 'sending') return;
    const key = touchKey(ctx.enrollmentId, step, attempt);
    let found: TouchStatusAtProvider = { state: 'unknown' };
    try {
      const provider = deps.providers.get(ctx.mailbox.provider);
      if (provider.status) found = await provider.status(key, lookupRequest(ctx, key, step));
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'Touch in doubt lookup failed; marked unknown');
    }
    if (found.state === 'sent') {
      await repos.touches.settleInDoubt(ctx.enrollmentId, step, attempt, {
        status: 'sent',
        messageId: found.result.messageId,
      });
    } else if (found.state === 'not_found') {
      await repos.touches.cancel(ctx.enrollmentId, step, 'not_sent: the enrollment ended first', attempt);
    } else {
      await repos.touches.settleInDoubt(ctx.enrollmentId, step, attempt, { status: 'unknown' });
    }
    log.info({ resolution: found.state }, 'Touch in doubt settled after its enrollment ended');
  }

  async function failTouch(
    ctx: SendContext,
    step: number,
    reason: string,
    attempt: number,
  ): Promise<SendOutcome> {
    await repos.touches.fail(ctx.enrollmentId, step, reason, attempt);
    logger.warn(
      { enrollmentId: ctx.enrollmentId, step, reason },
      'Touch refused by the provider; enrollment failed',
    );
    return 'failed';
  }
}

async function resolveInDoubt(provider: ProviderAdapter, request: SendRequest): Promise<SendResult | null> {
  if (!provider.status) return null;
  const status = await provider.status(request.idempotencyKey, request);
  return status.state === 'sent' ? status.result : null;
}

/** The touch as a provider's status lookup needs it (recipient, thread, campaign ids), without its copy. */
function lookupRequest(ctx: SendContext, key: string, step: number): SendRequest {
  return {
    idempotencyKey: key,
    from: ctx.mailbox.address,
    to: ctx.prospect.email,
    subject: '',
    body: '',
    conversationId: ctx.conversationId,
    inReplyTo: ctx.firstMessageId,
    metadata: { enrollmentId: ctx.enrollmentId, step, prospectId: ctx.prospect.id },
    mailboxConfig: ctx.mailbox.providerConfig,
  };
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
