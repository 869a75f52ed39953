/**
 * @touchbase/queues: the queue contract (names, job payload schemas, options), the
 * Redis connection factory, the touch producer and the worker factory.
 */
export { AlertQueue } from './alert-queue.js';
export { createWorker, retriesOf } from './create-worker.js';
export { type KeptScheduler, keepJobScheduler } from './job-scheduler-keeper.js';
export * from './queue-catalog.js';
export type { QueueLogger } from './queue-logger.js';
export { assertRedisReachable, createRedis, RedisUnavailableError } from './redis-connection.js';
export { touchJobId, touchKeyOfJobId } from './touch-job-id.js';
export { type ScheduledTouch, type TouchJobKey, TouchJobRemovalError, TouchQueue } from './touch-queue.js';
