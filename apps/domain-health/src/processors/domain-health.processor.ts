import { performance } from 'node:perf_hooks';
import {
  accountPauseReason,
  alertFigures,
  approachMessage,
  autoResumeReason,
  bandOf,
  decideDomain,
  figuresOf,
  type HealthBand,
  type HealthFigures,
  type HealthSettings,
  heldFirstTouch,
  pauseReason,
  sumCounts,
  thresholdsOf,
} from '@touchbase/core';
import type { Repositories } from '@touchbase/db';
import type { AlertQueue, ScheduledTouch, TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';

export type DomainHealthDeps = {
  repos: Pick<Repositories, 'sendingDomains' | 'alerts'>;
  /** Schedules the enrollments an automatic resume released. */
  touchQueue: TouchQueue;
  alertQueue: AlertQueue;
  /** The configured alert channels, for the failing-deliveries gauge. */
  channelNames: string[];
  logger: Logger;
  metrics: Metrics;
  settings: HealthSettings;
  /** Whether a pause holds the touches of running sequences too. */
  holdInFlight: boolean;
  /** Run the guard over every domain together as well. */
  accountGuard: boolean;
  /** Cooling-off before a pause by the guard ends by itself; 0 never. */
  autoResumeAfterMs: number;
  timeScale: number;
  clock: () => Date;
};

/** One domain's figures after a tick. */
export type DomainFigures = HealthFigures & {
  domainId: string;
  domain: string;
  status: string;
  level: HealthBand;
};

/** What a tick did; the job's return value (kept for the manual run's answer and Bull Board). */
export type TickResult = {
  checked: number;
  /** Rollup increments folded into the per-day rows. */
  folded: number;
  paused: string[];
  resumed: string[];
  approached: string[];
  account: { level: HealthBand; sends: number; bounces: number; bounceRate: number; complaintRate: number };
  alerts: number;
  releasedEnrollments: number;
  durationMs: number;
};

const ACTOR = 'domain-health';
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
// Alerts whose job may have been lost (a crash between commit and enqueue) are re-enqueued after this.
const LOST_ALERT_AFTER_MS = 60_000;
const LOST_ALERT_MAX_AGE_MS = 7 * DAY;

/**
 * One tick of the guard, in one transaction under its advisory lock: fold the
 * rollup increments, read `days x domains` rollup rows, judge each domain and the
 * account, pause, warn or resume on a change of state only (with the reason and
 * figures on the record, in the audit log and in one alert), and save the figures.
 * After the commit: enqueue the alerts, schedule the enrollments a resume released,
 * update the metrics.
 */
export async function domainHealthTick(deps: DomainHealthDeps): Promise<TickResult> {
  const started = performance.now();
  const { settings, repos } = deps;
  const now = deps.clock();
  const to = dayOf(now.getTime());
  const from = dayOf(now.getTime() - (settings.windowDays - 1) * DAY);
  const thresholds = thresholdsOf(settings);
  const alertIds: string[] = [];
  const raised = (id: string, kind: string) => {
    alertIds.push(id);
    deps.metrics.alertsRaised.inc({ kind });
  };
  const released: ScheduledTouch[] = [];
  const result: TickResult = {
    checked: 0,
    folded: 0,
    paused: [],
    resumed: [],
    approached: [],
    account: { level: 'ok', sends: 0, bounces: 0, bounceRate: 0, complaintRate: 0 },
    alerts: 0,
    releasedEnrollments: 0,
    durationMs: 0,
  };
  const figures: DomainFigures[] = [];

  await repos.sendingDomains.underGuardLock(async (client) => {
    const sd = repos.sendingDomains;
    result.folded = await sd.fold(client);
    const domains = await sd.windowCounts(client, from, to);
    result.checked = domains.length;

    const accountState = await sd.account(client);
    const accountFigures = figuresOf(sumCounts(domains.map((d) => d.window)), settings.windowDays);
    const account = deps.accountGuard
      ? bandOf(accountState.level, accountFigures, settings)
      : { band: 'ok' as HealthBand, cause: null };
    const accountOver = account.band === 'over';
    const resumedFromAccount: string[] = [];

    const evaluations: { id: string; level: string; healthySince: Date | null; figures: object }[] = [];
    for (const d of domains) {
      const f = figuresOf(d.counted, d.countedDays);
      const decision = decideDomain(d, f, settings, {
        now,
        autoResumeAfterMs: deps.autoResumeAfterMs,
        accountOver,
      });
      let status = d.status;
      if (decision.action === 'pause' && decision.cause) {
        const reason = pauseReason(decision.cause, f, settings);
        const paused = await sd.pause(
          {
            domainId: d.id,
            actor: ACTOR,
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
          raised(paused.alertId, 'domain.paused');
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
        raised(
          await sd.raiseAlert(client, {
            kind: 'domain.threshold_approached',
            domainId: d.id,
            message: approachMessage(decision.cause, f, settings),
            data: { figures: alertFigures(f), thresholds },
          }),
          'domain.threshold_approached',
        );
        result.approached.push(d.domain);
        deps.logger.warn(
          { domainId: d.id, cause: decision.cause },
          'Sending domain approaching its threshold',
        );
      } else if (decision.action === 'resume') {
        const cooled = d.healthySince ? now.getTime() - d.healthySince.getTime() : 0;
        const byAccount = d.pauseKind === 'account';
        const resumed = await sd.resume(
          {
            domainId: d.id,
            actor: ACTOR,
            reason: autoResumeReason(f, cooled),
            automatic: true,
            firstTouchAt: heldFirstTouch(now, deps.timeScale),
            at: now,
            // The account-wide guard's resumes share one alert, raised below.
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
          if (resumed.alertId) raised(resumed.alertId, 'domain.resumed');
          if (byAccount) resumedFromAccount.push(d.domain);
          released.push(
            ...resumed.released.map((r) => ({ enrollmentId: r.enrollmentId, step: 1, dueAt: r.dueAt })),
          );
          result.resumed.push(d.domain);
          deps.logger.info({ domainId: d.id, released: resumed.released.length }, 'Sending domain resumed');
        }
      }
      evaluations.push({
        id: d.id,
        level: decision.level,
        healthySince: decision.healthySince,
        figures: { ...f, checkedAt: now.toISOString() },
      });
      figures.push({ ...f, domainId: d.id, domain: d.domain, status, level: decision.level });
    }
    await sd.saveEvaluations(client, evaluations, now);

    // The account-wide guard: one alert for the account, never one per domain.
    const accountData = { figures: alertFigures(accountFigures), thresholds };
    if (accountOver && accountState.level !== 'over' && account.cause) {
      const reason = accountPauseReason(account.cause, accountFigures, settings);
      const paused = await sd.pauseAll(client, {
        actor: ACTOR,
        reason,
        holdTouches: deps.holdInFlight,
        figures: accountFigures,
        at: now,
      });
      for (const p of paused) {
        result.paused.push(p.domain);
        const row = figures.find((x) => x.domainId === p.id);
        if (row) row.status = 'paused';
      }
      await sd.audit(client, ACTOR, 'account.paused', 'account', {
        reason,
        figures: accountFigures,
        domains: paused.length,
      });
      raised(
        await sd.raiseAlert(client, {
          kind: 'account.paused',
          domainId: null,
          message: `${reason}; ${paused.length} domain${paused.length === 1 ? '' : 's'} paused`,
          data: accountData,
        }),
        'account.paused',
      );
      deps.logger.warn({ domains: paused.length, cause: account.cause }, 'Every sending domain paused');
    } else if (account.band === 'approaching' && accountState.level === 'ok' && account.cause) {
      raised(
        await sd.raiseAlert(client, {
          kind: 'account.threshold_approached',
          domainId: null,
          message: approachMessage(account.cause, accountFigures, settings, ' across all domains'),
          data: accountData,
        }),
        'account.threshold_approached',
      );
    }
    if (resumedFromAccount.length > 0) {
      raised(
        await sd.raiseAlert(client, {
          kind: 'account.resumed',
          domainId: null,
          message: `resumed automatically after the account-wide pause: ${resumedFromAccount.join(', ')}`,
          data: accountData,
        }),
        'account.resumed',
      );
    }
    await sd.saveAccount(client, {
      level: account.band,
      figures: { ...accountFigures, checkedAt: now.toISOString() },
      settings: { ...settings, accountGuard: deps.accountGuard, autoResumeAfterMs: deps.autoResumeAfterMs },
      checkedAt: now,
    });
    result.account = {
      level: account.band,
      sends: accountFigures.sends,
      bounces: accountFigures.bounces,
      bounceRate: accountFigures.bounceRate,
      complaintRate: accountFigures.complaintRate,
    };
  });

  // After the commit: Postgres holds the alerts and the released enrollments, so a
  // crash here loses nothing (the next tick re-enqueues lost alerts, the reconciler
  // schedules active enrollments).
  await deps.alertQueue.enqueue(alertIds);
  await deps.touchQueue.schedule(released);
  const lost = await repos.alerts.unsettled(LOST_ALERT_AFTER_MS, LOST_ALERT_MAX_AGE_MS);
  if (lost.length > 0) await deps.alertQueue.enqueue(lost);

  for (const f of figures) {
    deps.metrics.domainBounceRate.set({ domain: f.domain }, f.bounceRate);
    deps.metrics.domainComplaintRate.set({ domain: f.domain }, f.complaintRate);
    deps.metrics.domainWindowSends.set({ domain: f.domain }, f.sends);
    deps.metrics.domainWindowBounces.set({ domain: f.domain }, f.bounces);
    deps.metrics.domainPaused.set({ domain: f.domain }, f.status === 'paused' ? 1 : 0);
  }
  deps.metrics.accountBounceRate.set(result.account.bounceRate);
  const failing = new Map(deps.channelNames.map((c) => [c, 0]));
  for (const row of await repos.alerts.failingByChannel()) failing.set(row.channel, row.failing);
  for (const [channel, n] of failing) deps.metrics.alertDeliveriesFailing.set({ channel }, n);
  result.alerts = alertIds.length;
  result.releasedEnrollments = released.length;
  result.durationMs = Math.round((performance.now() - started) * 100) / 100;
  deps.metrics.domainHealthTickDuration.observe(result.durationMs / 1000);
  deps.logger.info(
    {
      checked: result.checked,
      folded: result.folded,
      paused: result.paused.length,
      resumed: result.resumed.length,
      alerts: result.alerts,
      durationMs: result.durationMs,
    },
    'Domain health checked',
  );
  return result;
}
