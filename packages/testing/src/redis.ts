import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** A Redis key prefix of a test's own, so runs never collide; `cleanup()` deletes its keys. */
export async function createTestRedisPrefix(
  label: string,
  url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
) {
  const prefix = `tbtest-${label}-${randomBytes(4).toString('hex')}`;
  return {
    prefix,
    url,
    async cleanup(): Promise<void> {
      const redis = new Redis(url, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await redis.unlink(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
