import {
  alertFigures,
  approachMessage,
  autoResumeReason,
  completionJudgementOf,
  completionMessage,
  type DomainState,
  decideDomain,
  figuresOf,
  type HealthCounts,
  type HealthFigures,
  heldFirstTouch,
  pauseReason,
} from '@touchbase/core';
import type { DomainCounts, DomainWindow } from '@touchbase/db';
import type { ScheduledTouch } from '@touchbase/queues';
import {
  type DomainFigures,
  GUARD_ACTOR,
  type GuardClient,
  type TickContext,
} from './domain-health-tick.types.js';

/** A domain's row as core's rules read it. */
export function domainStateOf(row: DomainWindow): DomainState {
  return {
    status: row.status,
    pauseKind: row.pauseKind,
    healthLevel: row.healthLevel,
    healthySince: row.healthySince,
  };
}

/** Rollup counts as core's rules read them. */
export function healthCountsOf(counts: DomainCounts): HealthCounts {
  return {
    sends: counts.sends,
    bounces: counts.bounces,
    complaints: counts.complaints,
    replies: counts.replies,
    ended: counts.ended,
    completed: counts.completed,
  };
}

/** What {@link judgeDomain} did to one domain. */
export type DomainJudgement = {
  /** The figures it was judged on. */
  figures: HealthFigures;
  /** Its figures and state after the tick. */
  after: DomainFigures;
  /** Since when a paused domain is back under its thresholds (its cooling-off). */
  healthySince: Date | null;
  /** Resumed, from a pause by the account-wide guard (which raises one alert for all of them). */
  resumedFromAccount: boolean;
};

/**
 * Judges one domain (core decides) and carries the decision out in the tick's
 * transaction: pause it, warn that it approaches a threshold, or resume it and
 * release the enrollments held on it (pushed to `released`, scheduled after the commit).
 */
export async function judgeDomain(
  ctx: TickContext,
  client: GuardClient,
  d: DomainWindow,
  accountOver: boolean,
  released: ScheduledTouch[],
): Promise<DomainJudgement> {
  const { deps, now, thresholds, result } = ctx;
  const { settings } = deps;
  const sd = deps.repos.sendingDomains;
  const f = figuresOf(healthCountsOf(d.counted), d.countedDays);
  const decision = decideDomain(domainStateOf(d), f, settings, {
    now,
    autoResumeAfterMs: deps.autoResumeAfterMs,
    accountOver,
  });
  let status: string = d.status;
  let resumedFromAccount = false;
  if (decision.action === 'pause' && decision.cause) {
    const reason = pauseReason(decision.cause, f, settings);
    const paused = await sd.pause(
      {
        domainId: d.id,
        actor: GUARD_ACTOR,
        kind: decision.cause,
        reason,
        holdTouches: deps.holdInFlight,
        figures: f,
        level: 'over',
        at: now,
        alert: { kind: 'domain.paused', message: reason, data: { figures: alertFigures(f), thresholds } },
      },
      client,
    );
    if (paused) {
      status = 'paused';
      ctx.raised(paused.alertId, 'domain.paused');
      result.paused.push(d.domain);
      deps.logger.warn(
        {
          domainId: d.id,
          cause: decision.cause,
          sends: f.sends,
          bounces: f.bounces,
          complaints: f.complaints,
        },
        'Sending domain paused',
      );
    }
  } else if (decision.action === 'approach' && decision.cause) {
    ctx.raised(
      await sd.raiseAlert(client, {
        kind: 'domain.threshold_approached',
        domainId: d.id,
        message: approachMessage(decision.cause, f, settings),
        data: { figures: alertFigures(f), thresholds },
      }),
      'domain.threshold_approached',
    );
    result.approached.push(d.domain);
    deps.logger.warn({ domainId: d.id, cause: decision.cause }, 'Sending domain approaching its threshold');
  } else if (decision.action === 'resume') {
    const cooled = d.healthySince ? now.getTime() - d.healthySince.getTime() : 0;
    const byAccount = d.pauseKind === 'account';
    const resumed = await sd.resume(
      {
        domainId: d.id,
        actor: GUARD_ACTOR,
        reason: autoResumeReason(f, cooled),
        automatic: true,
        firstTouchAt: heldFirstTouch(now, deps.timeScale, 0, undefined, deps.doNotContact),
        at: now,
        // The account-wide guard's resumes share one alert, raised by judgeAccount.
        alert: byAccount
          ? null
          : {
              kind: 'domain.resumed',
              message: `resumed automatically: ${autoResumeReason(f, cooled)}`,
              data: { figures: alertFigures(f), thresholds },
            },
      },
      client,
    );
    if (resumed) {
      status = 'active';
      if (resumed.alertId) ctx.raised(resumed.alertId, 'domain.resumed');
      resumedFromAccount = byAccount;
      released.push(
        ...resumed.released.map((r) => ({ enrollmentId: r.enrollmentId, step: 1, dueAt: r.dueAt })),
      );
      result.resumed.push(d.domain);
      deps.logger.info({ domainId: d.id, released: resumed.released.length }, 'Sending domain resumed');
    }
  }
  await watchCompletion(ctx, client, d, f);
  return {
    figures: f,
    after: { ...f, domainId: d.id, domain: d.domain, status, level: decision.level },
    healthySince: decision.healthySince,
    resumedFromAccount,
  };
}

/**
 * The completion-rate floor (core's `completionJudgementOf`): one alert, with the
 * reason in words, when a domain's rate falls below it; the mark clears once it is
 * back. It never pauses the domain.
 */
async function watchCompletion(ctx: TickContext, client: GuardClient, d: DomainWindow, f: HealthFigures) {
  const { deps, now, thresholds } = ctx;
  const judged = completionJudgementOf(f, deps.settings, d.completionLowSince !== null);
  if (judged.changed) await deps.repos.domainHealth.setCompletionLow(client, d.id, judged.low ? now : null);
  if (!judged.raise) return;
  const message = completionMessage(f, deps.settings);
  ctx.raised(
    await deps.repos.sendingDomains.raiseAlert(client, {
      kind: 'domain.completion_low',
      domainId: d.id,
      message,
      data: {
        figures: {
          ...alertFigures(f),
          ended: f.ended,
          completed: f.completed,
          completionRate: f.completionRate,
        },
        thresholds: { ...thresholds, completionFloor: deps.settings.completionFloor ?? 0 },
      },
    }),
    'domain.completion_low',
  );
  deps.logger.warn(
    { domainId: d.id, ended: f.ended, completed: f.completed, completionRate: f.completionRate },
    'Sending domain completion rate below the floor',
  );
}
