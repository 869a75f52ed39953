import { Redis, type RedisOptions } from 'ioredis';

/**
 * Creates an ioredis connection for BullMQ. Workers block on Redis, so BullMQ needs
 * `maxRetriesPerRequest: null` on theirs; producers fail fast instead, so an API
 * request does not hang while Redis is away.
 */
export function createRedis(url: string, role: 'worker' | 'producer', extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 3,
    enableReadyCheck: true,
    enableOfflineQueue: role === 'worker',
    connectionName: `touchbase-${role}`,
    ...extra,
  });
}

/** Thrown when Redis cannot be reached at boot; says how to get it. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
  readonly code = 'redis_unavailable';
  constructor(url: string, cause: unknown) {
    const u = new URL(url);
    super(
      `Could not connect to Redis at ${u.hostname}:${u.port || 6379} (${(cause as Error)?.message ?? cause}). ` +
        'Start it with `docker compose up -d redis`, or install the OS package (apt-get install redis-server) and run `redis-server`; set REDIS_URL if it runs elsewhere.',
    );
  }
}

/** Pings Redis once with a short timeout, for boot checks. */
export async function assertRedisReachable(url: string, timeoutMs = 3000): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  // The failure that fires 'error' also rejects the connect or ping below, which reports it.
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new RedisUnavailableError(url, err);
  } finally {
    redis.disconnect();
  }
}
