import type { QueueLogger } from './queue-logger.js';

/** The part of a BullMQ `Queue` (of any job type) this needs. */
type ErrorEmittingQueue = {
  readonly opts: { prefix?: string };
  on(event: 'error', listener: (err: Error) => void): unknown;
};

/**
 * Logs each `error` a producer's BullMQ queue emits, with its queue and prefix (and
 * partition). A queue re-emits its connection's errors (Redis killed, failing over,
 * refusing connections); without a listener BullMQ catches Node's "Unhandled error"
 * and prints it to the console, for every queue and every reconnect attempt, with no
 * id. The runtime logs the connection's own error; these say which queues felt it.
 */
export function logQueueErrors(
  queue: ErrorEmittingQueue,
  logger: QueueLogger,
  ids: { queue: string; partition?: number },
): void {
  const context = { ...ids, prefix: queue.opts.prefix };
  queue.on('error', (err) => logger.warn({ ...context, err: err.message }, 'Queue error'));
}
