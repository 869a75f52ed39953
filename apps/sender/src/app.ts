import type { DoNotContactTable } from '@touchbase/core';
import type { Repositories } from '@touchbase/db';
import type { LinkedInSender, ProviderRegistry, Throttle } from '@touchbase/providers';
import {
  type AlertQueue,
  createWorker,
  type LayoutOrPrefix,
  type RedisClient,
  type TouchQueue,
  toLayout,
} from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import type { Worker } from 'bullmq';
import { createSendTouchProcessor } from './processors/send-touch.processor.js';

export type SenderDeps = {
  repos: Repositories;
  touchQueue: TouchQueue;
  providers: ProviderRegistry;
  connection: RedisClient;
  /** The queue layout (REDIS_PREFIX, cluster, partitions), or a bare prefix for one Redis. */
  prefix: LayoutOrPrefix;
  logger: Logger;
  metrics: Metrics;
  concurrency: number;
  timeScale: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  clock?: () => Date;
  /** Per-mailbox caps shared through Redis; leave out only to measure the sender without them. */
  throttle?: Throttle;
  unsubscribeUrl?: (enrollmentId: string) => string;
  holdMs?: number;
  /** Mailbox pause alerts are enqueued here for delivery. */
  alertQueue?: AlertQueue;
  /** Ask the provider's view of the prospect before each send (default true), within this bound. */
  recheck?: boolean;
  recheckTimeoutMs?: number;
  /** Whether a hard bounce the provider reported at the re-check queues a CRM update. */
  notifyCrm?: boolean;
  /** Whether the re-check's replies follow each sequence's reply actions, as ingest's do (INGEST_REPLY_ACTIONS). */
  replyActions?: boolean;
  /** The LinkedIn senders by provider name, for the LinkedIn nodes of graph sequences. */
  linkedInSenders?: ReadonlyMap<string, LinkedInSender>;
  /** Do-not-contact hours and days per recipient country, on top of every sending window. */
  doNotContact?: DoNotContactTable;
  /** SCHEDULER_JITTER_MS: a random spread inside the window for each next touch. */
  jitterMs?: number;
};

/**
 * Builds the sender's workers, one per partition of the `touches` queue
 * (TOUCH_QUEUE_PARTITIONS; one on the default layout). SENDER_CONCURRENCY is the
 * process's, shared out: each partition's worker takes its ceiling share, since
 * BullMQ's concurrency is per worker and a queue (so a partition) is one slot.
 */
export function buildSenderWorkers(deps: SenderDeps): Worker[] {
  const make = senderWorkerFactory(deps);
  return Array.from({ length: toLayout(deps.prefix).touchPartitions }, (_, partition) => make(partition));
}

/** Makes the worker of one touch partition (again, when a supervisor replaces a stalled one). */
export function senderWorkerFactory(deps: SenderDeps): (partition: number) => Worker {
  const partitions = toLayout(deps.prefix).touchPartitions;
  const process = createSendTouchProcessor({
    repos: deps.repos,
    touchQueue: deps.touchQueue,
    providers: deps.providers,
    logger: deps.logger,
    metrics: deps.metrics,
    clock: deps.clock ?? (() => new Date()),
    timeScale: deps.timeScale,
    ...(deps.throttle ? { throttle: deps.throttle } : {}),
    ...(deps.unsubscribeUrl ? { unsubscribeUrl: deps.unsubscribeUrl } : {}),
    ...(deps.holdMs ? { holdMs: deps.holdMs } : {}),
    ...(deps.alertQueue ? { alertQueue: deps.alertQueue } : {}),
    ...(deps.recheck !== undefined ? { recheck: deps.recheck } : {}),
    ...(deps.recheckTimeoutMs !== undefined ? { recheckTimeoutMs: deps.recheckTimeoutMs } : {}),
    ...(deps.notifyCrm !== undefined ? { notifyCrm: deps.notifyCrm } : {}),
    ...(deps.replyActions !== undefined ? { replyActions: deps.replyActions } : {}),
    ...(deps.linkedInSenders ? { linkedIn: { senders: deps.linkedInSenders } } : {}),
    ...(deps.doNotContact ? { doNotContact: deps.doNotContact } : {}),
    ...(deps.jitterMs ? { jitterMs: deps.jitterMs } : {}),
  });
  return (partition) =>
    createWorker('touch.send', process, {
      connection: deps.connection,
      prefix: deps.prefix,
      partition,
      concurrency: Math.max(1, Math.ceil(deps.concurrency / partitions)),
      // A sender killed mid-touch leaves its job locked; after this long another
      // replica takes it over and the claim row tells it the touch is in doubt.
      lockDuration: deps.lockDurationMs ?? 30_000,
      stalledInterval: deps.stalledIntervalMs ?? 15_000,
      maxStalledCount: 10,
      logger: deps.logger,
    });
}

/**
 * The sender's one worker on an unpartitioned `touches` queue (tests and the bench).
 * @throws Error when the layout has several partitions: use {@link buildSenderWorkers}.
 */
export function buildSender(deps: SenderDeps): Worker {
  const workers = buildSenderWorkers(deps);
  if (workers.length !== 1) throw new Error('buildSender serves one touch partition; use buildSenderWorkers');
  return workers[0]!;
}
