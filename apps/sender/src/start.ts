import { createThrottle, parseLinkedInBucketId, signUnsubscribeToken } from '@touchbase/providers';
import { createRedisClient, type RedisClient, redisReady, startWorker } from '@touchbase/queues';
import { type Runtime, redisTargetOf } from '@touchbase/runtime';
import type { Worker } from 'bullmq';
import { type SenderDeps, senderWorkerFactory } from './app.js';

/** Starts the sender (a worker per touch partition) on a runtime and registers its shutdown (drain the workers first). */
export async function startSender(rt: Runtime): Promise<Worker[]> {
  const { config } = rt;
  // The Lua buckets' own connection, auto-pipelined: the touches in flight ask for
  // their tokens in the same turn of the event loop (a batch's loads resolve together),
  // so their scripts go out in one write and Redis reads them in one go, instead of a
  // write and a read per touch. BullMQ (and Bottleneck) keep the plain producer.
  const throttleRedis = config.SENDER_THROTTLE === 'lua' ? await throttleConnection(rt) : rt.redis.producer;
  const throttle = createThrottle(config.SENDER_THROTTLE, throttleRedis, {
    prefix: config.REDIS_PREFIX,
    timeScale: config.TIME_SCALE,
    spacingJitter: config.SENDER_SPACING_JITTER,
    // A bucket Redis lost is rebuilt from the touches PostgreSQL recorded before it grants again.
    // A LinkedIn account's buckets (`{accountId}-li-{action}`) from its actions of that kind.
    seedFrom: (bucketId, windowsMs) => {
      const linkedIn = parseLinkedInBucketId(bucketId);
      return linkedIn
        ? rt.repos.touchWindows.linkedInCountsInWindows(linkedIn.accountId, linkedIn.action, windowsMs)
        : rt.repos.touchWindows.countsInWindows(bucketId, windowsMs);
    },
  });
  // /u/{token} is served by ingest, which is the part users expose to the internet
  // anyway (provider webhooks reach it).
  const base = (config.INGEST_PUBLIC_URL ?? `http://127.0.0.1:${config.INGEST_PORT}`).replace(/\/$/, '');
  const deps: SenderDeps = {
    repos: rt.repos,
    touchQueue: rt.touchQueue,
    providers: rt.providers,
    connection: rt.redis.worker,
    prefix: rt.queueLayout,
    logger: rt.logger.child({ service: 'sender' }),
    metrics: rt.metrics,
    concurrency: config.SENDER_CONCURRENCY,
    timeScale: config.TIME_SCALE,
    lockDurationMs: config.SENDER_LOCK_DURATION_MS,
    stalledIntervalMs: config.SENDER_STALLED_INTERVAL_MS,
    throttle,
    unsubscribeUrl: (enrollmentId) =>
      `${base}/u/${signUnsubscribeToken(enrollmentId, config.UNSUBSCRIBE_SECRET)}`,
    holdMs: config.SENDER_HOLD_MS / Math.max(1, config.TIME_SCALE / 60),
    alertQueue: rt.alertQueue,
    recheck: config.SENDER_PROVIDER_RECHECK,
    recheckTimeoutMs: config.SENDER_RECHECK_TIMEOUT_MS,
    // The outbox is delivered by ingest's CRM notifier, which sweeps it.
    notifyCrm: Boolean(config.HUBSPOT_ACCESS_TOKEN),
    // A reply the re-check finds is applied as ingest applies one (the sequence's continue-on list, its actions).
    replyActions: config.INGEST_REPLY_ACTIONS,
    linkedInSenders: rt.linkedInSenders,
    doNotContact: rt.doNotContact,
    jitterMs: config.SCHEDULER_JITTER_MS,
  };
  const make = senderWorkerFactory(deps);
  // On Redis Cluster each partition's worker is supervised: one whose fetch loop
  // never came back from a failover is replaced (see WorkerSupervisor).
  const running = rt.touchQueue.partitions.map((queue, partition) =>
    startWorker(() => make(partition), queue, rt.queueLayout, deps.logger, { ids: { partition } }),
  );
  const workers = running.map((r) => r.current);
  // Steps added first run last: the worker drains, then the throttle stops its
  // limiters (nothing takes tokens any more), all before Redis quits.
  rt.shutdown.addFirst('sender throttle', () => throttle.close());
  rt.shutdown.addFirst('sender workers', async () => {
    await Promise.all(running.map((r) => r.close()));
  });
  return workers;
}

/** The auto-pipelined connection of the Lua buckets, quit once the throttle is closed. */
async function throttleConnection(rt: Runtime): Promise<RedisClient> {
  const redis = createRedisClient(redisTargetOf(rt.config), 'producer', {
    autoPipelining: true,
    connectionName: 'touchbase-throttle',
  });
  redis.on('error', (err) => rt.logger.warn({ err: err.message }, 'Redis throttle connection error'));
  await redisReady(redis);
  // Added before the throttle's own step (addFirst): runs after it.
  rt.shutdown.addFirst('sender throttle redis', async () => {
    await redis.quit();
  });
  return redis;
}
