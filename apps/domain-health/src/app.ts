import type { DoNotContactTable, HealthSettings } from '@touchbase/core';
import type { Repositories } from '@touchbase/db';
import type { AlertChannel } from '@touchbase/providers';
import {
  AlertQueue,
  createWorker,
  DomainHealthQueue,
  type LayoutOrPrefix,
  type RedisClient,
  type RunningWorker,
  startWorker,
  type TouchQueue,
} from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import { createDeliverAlertProcessor } from './processors/deliver-alert.processor.js';
import { createDomainHealthProcessor } from './processors/domain-health.processor.js';

export type DomainHealthAppDeps = {
  repos: Pick<Repositories, 'sendingDomains' | 'domainHealth' | 'alerts'>;
  touchQueue: TouchQueue;
  logger: Logger;
  metrics: Metrics;
  settings: HealthSettings;
  holdInFlight: boolean;
  accountGuard: boolean;
  autoResumeAfterMs: number;
  timeScale: number;
  /** COMPLIANCE_DO_NOT_CONTACT, parsed at boot. */
  doNotContact?: DoNotContactTable;
  channels: AlertChannel[];
  publicBaseUrl: string;
  /** Blocking connection for the workers; `producer` for the queues. */
  connection: RedisClient;
  producer: RedisClient;
  /** The queue layout (REDIS_PREFIX, cluster, partitions), or a bare prefix for one Redis. */
  prefix: LayoutOrPrefix;
  everyMs: number;
  clock?: () => Date;
};

/** What {@link buildDomainHealth} started, for shutdown and tests. */
export type DomainHealth = {
  tickWorker: RunningWorker;
  alertWorker: RunningWorker;
  queue: DomainHealthQueue;
  alertQueue: AlertQueue;
  close(): Promise<void>;
};

/**
 * Builds domain-health: a BullMQ job scheduler ticks every `everyMs` (the fixed
 * scheduler id makes it one run per tick across all replicas, and the tick's
 * advisory lock keeps a manual run from overlapping it), and a worker delivers the
 * alerts on the `alerts` queue. On Redis Cluster both workers are supervised, as the
 * sender's are (`startWorker`).
 */
export async function buildDomainHealth(deps: DomainHealthAppDeps): Promise<DomainHealth> {
  const queue = new DomainHealthQueue(deps.producer, deps.prefix);
  const alertQueue = new AlertQueue(deps.producer, deps.prefix);
  const stopKeeper = await queue.keepTicking(deps.everyMs, deps.logger);
  const tickWorker = startWorker(
    () =>
      createWorker(
        'domain-health.tick',
        createDomainHealthProcessor({
          repos: deps.repos,
          touchQueue: deps.touchQueue,
          alertQueue,
          channelNames: deps.channels.map((c) => c.name),
          logger: deps.logger,
          metrics: deps.metrics,
          settings: deps.settings,
          holdInFlight: deps.holdInFlight,
          accountGuard: deps.accountGuard,
          autoResumeAfterMs: deps.autoResumeAfterMs,
          timeScale: deps.timeScale,
          ...(deps.doNotContact ? { doNotContact: deps.doNotContact } : {}),
          clock: deps.clock ?? (() => new Date()),
        }),
        { connection: deps.connection, prefix: deps.prefix, logger: deps.logger, concurrency: 1 },
      ),
    queue.queue,
    deps.prefix,
    deps.logger,
  );
  const alertWorker = startWorker(
    () =>
      createWorker(
        'alert.deliver',
        createDeliverAlertProcessor({
          repos: deps.repos,
          channels: deps.channels,
          publicBaseUrl: deps.publicBaseUrl,
          logger: deps.logger,
          metrics: deps.metrics,
        }),
        { connection: deps.connection, prefix: deps.prefix, logger: deps.logger, concurrency: 4 },
      ),
    alertQueue.queue,
    deps.prefix,
    deps.logger,
  );
  return {
    tickWorker,
    alertWorker,
    queue,
    alertQueue,
    async close() {
      stopKeeper();
      await Promise.all([tickWorker.close(), alertWorker.close()]);
      await Promise.all([queue.close(), alertQueue.close()]);
    },
  };
}
