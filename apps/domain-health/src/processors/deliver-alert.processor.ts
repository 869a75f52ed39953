import { DomainError } from '@touchbase/core';
import type { AlertRow, Repositories } from '@touchbase/db';
import { type AlertChannel, AlertDeliveryError } from '@touchbase/providers';
import type { AlertDeliver } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import type { Job } from 'bullmq';
import { toOpsAlert } from '../alerts/alert-channels.js';

export type DeliverAlertDeps = {
  repos: Pick<Repositories, 'alerts'>;
  channels: AlertChannel[];
  /** PUBLIC_BASE_URL: alerts link to the domain's page in the API. */
  publicBaseUrl: string;
  logger: Logger;
  metrics: Metrics;
};

/** What became of one `alert.deliver` job. */
export type DeliverOutcome = 'delivered' | 'given_up' | 'settled' | 'gone';

/**
 * Delivers one alert on every configured channel. Each attempt is recorded per
 * channel before the next step, so a retry skips the channels that delivered; a
 * channel that fails with a retryable error fails the job, which BullMQ retries
 * with exponential backoff; on the last attempt (or a permanent refusal) the
 * channel is given up, which the API (`/v1/alerts`) and the metrics show.
 */
export function createDeliverAlertProcessor(deps: DeliverAlertDeps) {
  return async function deliverAlert(payload: AlertDeliver, job: Job): Promise<DeliverOutcome> {
    const { alertId } = payload;
    let alert: AlertRow;
    try {
      alert = await deps.repos.alerts.get(alertId);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') return 'gone';
      throw err;
    }
    if (alert.settledAt) return 'settled';
    const rows = await deps.repos.alerts.deliveries(
      alertId,
      deps.channels.map((c) => c.name),
    );
    const ops = toOpsAlert(alert, deps.publicBaseUrl);
    const retrying: string[] = [];
    for (const channel of deps.channels) {
      const row = rows.find((r) => r.channel === channel.name);
      if (!row || row.status === 'delivered' || row.status === 'failed') continue;
      try {
        await channel.send(ops);
        await deps.repos.alerts.recordAttempt(alertId, channel.name, 'delivered');
        deps.metrics.alertDeliveries.inc({ channel: channel.name, outcome: 'delivered' });
        deps.logger.info({ alertId, kind: alert.kind, channel: channel.name }, 'Alert delivered');
      } catch (err) {
        const permanent = err instanceof AlertDeliveryError && err.permanent;
        const message = (err as Error).message;
        await deps.repos.alerts.recordAttempt(
          alertId,
          channel.name,
          permanent ? 'failed' : 'retrying',
          message,
        );
        deps.metrics.alertDeliveries.inc({
          channel: channel.name,
          outcome: permanent ? 'failed' : 'retrying',
        });
        deps.logger.warn(
          { alertId, channel: channel.name, attempt: job.attemptsMade + 1, permanent, err: message },
          'Alert delivery failed',
        );
        if (!permanent) retrying.push(channel.name);
      }
    }
    let outcome: DeliverOutcome = 'delivered';
    if (retrying.length > 0) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (!lastAttempt) {
        await refreshFailingGauge(deps);
        throw new Error(`alert delivery failed on ${retrying.join(', ')}; will retry`);
      }
      await deps.repos.alerts.giveUp(alertId);
      for (const channel of retrying) deps.metrics.alertDeliveries.inc({ channel, outcome: 'failed' });
      deps.logger.error({ alertId, channels: retrying }, 'Alert delivery given up');
      outcome = 'given_up';
    }
    await deps.repos.alerts.settle(alertId);
    await refreshFailingGauge(deps);
    return outcome;
  };
}

async function refreshFailingGauge(deps: DeliverAlertDeps): Promise<void> {
  const failing = new Map(deps.channels.map((c) => [c.name, 0]));
  for (const row of await deps.repos.alerts.failingByChannel()) failing.set(row.channel, row.failing);
  for (const [channel, n] of failing) deps.metrics.alertDeliveriesFailing.set({ channel }, n);
}
