import { performance } from 'node:perf_hooks';
import { bandOf, figuresOf, type HealthBand, sumCounts, thresholdsOf } from '@touchbase/core';
import type { ScheduledTouch } from '@touchbase/queues';
import type { DomainFigures, DomainHealthDeps, TickContext, TickResult } from './domain-health-tick.types.js';
import { judgeAccount } from './judge-account.js';
import { healthCountsOf, judgeDomain } from './judge-domain.js';

export type { DomainFigures, DomainHealthDeps, TickResult } from './domain-health-tick.types.js';

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
  const alertIds: string[] = [];
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
  const ctx: TickContext = {
    deps,
    now,
    thresholds: thresholdsOf(settings),
    result,
    raised(id, kind) {
      alertIds.push(id);
      deps.metrics.alertsRaised.inc({ kind });
    },
  };
  const figures: DomainFigures[] = [];

  await repos.domainHealth.underGuardLock(async (client) => {
    const health = repos.domainHealth;
    result.folded = await health.fold(client);
    const domains = await health.windowCounts(client, from, to);
    result.checked = domains.length;

    const accountState = await health.account(client);
    const accountFigures = figuresOf(
      sumCounts(domains.map((d) => healthCountsOf(d.window))),
      settings.windowDays,
    );
    const account = deps.accountGuard
      ? bandOf(accountState.level, accountFigures, settings)
      : { band: 'ok' as HealthBand, cause: null };
    const resumedFromAccount: string[] = [];

    const evaluations: { id: string; level: string; healthySince: Date | null; figures: object }[] = [];
    for (const d of domains) {
      const judged = await judgeDomain(ctx, client, d, account.band === 'over', released);
      if (judged.resumedFromAccount) resumedFromAccount.push(d.domain);
      evaluations.push({
        id: d.id,
        level: judged.after.level,
        healthySince: judged.healthySince,
        figures: { ...judged.figures, checkedAt: now.toISOString() },
      });
      figures.push(judged.after);
    }
    await health.saveEvaluations(client, evaluations, now);
    await judgeAccount(
      ctx,
      client,
      { previous: accountState.level, ...account, figures: accountFigures },
      resumedFromAccount,
      figures,
    );
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
