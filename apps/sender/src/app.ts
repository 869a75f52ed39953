import type { Repositories } from '@touchbase/db';
import type { LinkedInSender, ProviderRegistry, Throttle } from '@touchbase/providers';
import { type AlertQueue, createWorker, type TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createSendTouchProcessor } from './processors/send-touch.processor.js';

export type SenderDeps = {
  repos: Repositories;
  touchQueue: TouchQueue;
  providers: ProviderRegistry;
  connection: Redis;
  prefix: string;
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
  /** The LinkedIn senders by provider name, for the LinkedIn nodes of graph sequences. */
  linkedInSenders?: ReadonlyMap<string, LinkedInSender>;
};

/** Builds the sender's worker on the `touches` queue; never listens on a port. */
export function buildSender(deps: SenderDeps): Worker {
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
    ...(deps.linkedInSenders ? { linkedIn: { senders: deps.linkedInSenders } } : {}),
  });
  return createWorker('touch.send', process, {
    connection: deps.connection,
    prefix: deps.prefix,
    concurrency: deps.concurrency,
    // A sender killed mid-touch leaves its job locked; after this long another
    // replica takes it over and the claim row tells it the touch is in doubt.
    lockDuration: deps.lockDurationMs ?? 30_000,
    stalledInterval: deps.stalledIntervalMs ?? 15_000,
    maxStalledCount: 10,
    logger: deps.logger,
  });
}
