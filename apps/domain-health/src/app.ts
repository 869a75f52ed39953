import type { AlertChannel } from '@touchbase/providers';
import {
  AlertQueue,
  createWorker,
  DomainHealthQueue,
  type LayoutOrPrefix,
  type RedisClient,
  type RunningWorker,
  startWorker,
} from '@touchbase/queues';
import { createDeliverAlertProcessor } from './processors/deliver-alert.processor.js';
import { createDomainHealthProcessor } from './processors/domain-health.processor.js';
import type { DomainHealthDeps } from './use-cases/domain-health-tick.types.js';

/** What a tick needs ({@link DomainHealthDeps}), less what the app makes itself, and what the workers need. */
export type DomainHealthAppDeps = Omit<DomainHealthDeps, 'alertQueue' | 'channelNames' | 'clock'> & {
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
  const { channels, publicBaseUrl, connection, producer, prefix, everyMs, clock, ...tick } = deps;
  const queue = new DomainHealthQueue(producer, prefix, deps.logger);
  const alertQueue = new AlertQueue(producer, prefix, deps.logger);
  const stopKeeper = await queue.keepTicking(everyMs, deps.logger);
  const tickWorker = startWorker(
    () =>
      createWorker(
        'domain-health.tick',
        createDomainHealthProcessor({
          ...tick,
          alertQueue,
          channelNames: channels.map((c) => c.name),
          clock: clock ?? (() => new Date()),
        }),
        { connection, prefix, logger: deps.logger, concurrency: 1 },
      ),
    queue.queue,
    prefix,
    deps.logger,
  );
  const alertWorker = startWorker(
    () =>
      createWorker(
        'alert.deliver',
        createDeliverAlertProcessor({
          repos: deps.repos,
          channels,
          publicBaseUrl,
          logger: deps.logger,
          metrics: deps.metrics,
        }),
        { connection, prefix, logger: deps.logger, concurrency: 4 },
      ),
    alertQueue.queue,
    prefix,
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
