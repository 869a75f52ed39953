/**
 * Whether an error says Redis could not serve a command (it is away, the connection
 * closed, the producer's retries ran out), as ioredis and BullMQ report it: a
 * transient state in which the same request may succeed later. Recognised by name
 * and message, since ioredis has no codes for them.
 */
export function isRedisOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'MaxRetriesPerRequestError' || err.name === 'RedisUnavailableError') return true;
  return (
    REDIS_AWAY.some((re) => re.test(err.message)) || (err.cause !== undefined && isRedisOutage(err.cause))
  );
}

const REDIS_AWAY = [
  // A producer does not queue commands while disconnected (enableOfflineQueue: false).
  /Stream isn't writeable and enableOfflineQueue options is false/,
  /^Connection is closed\.?$/,
  /Reached the max retries per request limit/,
];
