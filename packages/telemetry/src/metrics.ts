import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The process-wide metrics of touchbase; names follow `touchbase_<area>_<what>_<unit>`. */
export class Metrics {
  readonly registry = new Registry();

  readonly touchesSent = new Counter({
    name: 'touchbase_sender_touches_sent_total',
    help: 'Touches handed to a provider and accepted',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });

  readonly touchesSkipped = new Counter({
    name: 'touchbase_sender_touches_skipped_total',
    help: 'Touches not sent because the fence, a suppression or a pause stopped them',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly touchesFailed = new Counter({
    name: 'touchbase_sender_touches_failed_total',
    help: 'Touches the provider refused or that could not be resolved',
    labelNames: ['provider', 'kind'] as const,
    registers: [this.registry],
  });

  readonly sendLag = new Histogram({
    name: 'touchbase_sender_send_lag_seconds',
    help: 'Delay between a touch being due and being handed to the provider',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600],
    registers: [this.registry],
  });

  readonly senderBatchSize = new Histogram({
    name: 'touchbase_sender_batch_size',
    help: 'Touches per batched statement or queue call of the sender, by kind (load, claim, record, schedule)',
    labelNames: ['kind'] as const,
    buckets: [1, 2, 5, 10, 20, 50, 100],
    registers: [this.registry],
  });

  readonly eventsReceived = new Counter({
    name: 'touchbase_ingest_events_total',
    help: 'Webhook events by source, type and outcome',
    labelNames: ['source', 'type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly reconcileRepairs = new Counter({
    name: 'touchbase_scheduler_reconcile_repairs_total',
    help: 'Pending jobs the reconciler had to re-create',
    registers: [this.registry],
  });

  readonly domainBounceRate = new Gauge({
    name: 'touchbase_domain_bounce_rate_ratio',
    help: 'Hard bounce rate per sending domain over the rolling window',
    labelNames: ['domain'] as const,
    registers: [this.registry],
  });

  readonly domainPaused = new Gauge({
    name: 'touchbase_domain_paused',
    help: '1 when the sending domain is paused',
    labelNames: ['domain'] as const,
    registers: [this.registry],
  });

  readonly domainComplaintRate = new Gauge({
    name: 'touchbase_domain_complaint_rate_ratio',
    help: 'Spam complaint rate per sending domain over the rolling window',
    labelNames: ['domain'] as const,
    registers: [this.registry],
  });

  readonly domainWindowSends = new Gauge({
    name: 'touchbase_domain_window_sends',
    help: 'Touches sent per sending domain over the rolling window',
    labelNames: ['domain'] as const,
    registers: [this.registry],
  });

  readonly domainWindowBounces = new Gauge({
    name: 'touchbase_domain_window_bounces',
    help: 'Hard bounces per sending domain over the rolling window',
    labelNames: ['domain'] as const,
    registers: [this.registry],
  });

  readonly accountBounceRate = new Gauge({
    name: 'touchbase_domain_account_bounce_rate_ratio',
    help: 'Hard bounce rate of every sending domain together over the rolling window',
    registers: [this.registry],
  });

  readonly domainHealthTickDuration = new Histogram({
    name: 'touchbase_domain_health_tick_duration_seconds',
    help: 'Duration of one domain-health tick (fold the rollup, evaluate, apply)',
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  readonly alertsRaised = new Counter({
    name: 'touchbase_alerts_raised_total',
    help: 'Ops alerts raised, by kind (one per change of state)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly alertDeliveries = new Counter({
    name: 'touchbase_alert_deliveries_total',
    help: 'Alert delivery attempts by channel and outcome (delivered, retrying, failed)',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly alertDeliveriesFailing = new Gauge({
    name: 'touchbase_alert_deliveries_failing',
    help: 'Alert deliveries not delivered after at least one failed attempt (retrying or given up in the last 7 days), by channel',
    labelNames: ['channel'] as const,
    registers: [this.registry],
  });

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false)
      collectDefaultMetrics({ register: this.registry, prefix: 'touchbase_' });
  }
}
