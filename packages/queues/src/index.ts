/**
 * @touchbase/queues: the queue contract (names, job payload schemas, options), the
 * Redis connection factory, a producer for every queue and the worker factory.
 */
export { AlertQueue } from './alert-queue.js';
export { createWorker, retriesOf } from './create-worker.js';
export { DomainHealthQueue } from './domain-health-queue.js';
export * from './queue-catalog.js';
export {
  hashSlot,
  type LayoutOrPrefix,
  type QueueLayout,
  queuePrefix,
  singleRedis,
  toLayout,
  touchPartitionOf,
  touchPartitionTag,
} from './queue-layout.js';
export type { QueueLogger } from './queue-logger.js';
export { ReactivationQueue } from './reactivation-queue.js';
export {
  assertRedisReachable,
  createRedis,
  createRedisClient,
  createRedisCluster,
  type RedisClient,
  RedisLayoutError,
  type RedisTarget,
  RedisUnavailableError,
  redisReady,
} from './redis-connection.js';
export { isRedisOutage } from './redis-outage.js';
export { SchedulerQueue } from './scheduler-queue.js';
export { touchJobId, touchKeyOfJobId } from './touch-job-id.js';
export {
  type ScheduledTouch,
  TOUCH_EVENTS_MAX_LEN,
  type TouchJobKey,
  TouchJobRemovalError,
  TouchQueue,
} from './touch-queue.js';
export {
  type RunningWorker,
  type SupervisionOptions,
  startWorker,
  WorkerSupervisor,
} from './worker-supervisor.js';
