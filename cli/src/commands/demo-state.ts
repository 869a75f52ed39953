import { dropDatabase } from '@touchbase/db';
import { createRedis } from '@touchbase/queues';

/** The demo's own database and Redis key prefix, so its runs never mix with the user's data. */
export type DemoState = { databaseUrl: string; redisPrefix: string };

/** Name of the demo's database, on the server of DATABASE_URL. */
export const DEMO_DATABASE = 'touchbase_demo';
/** Key prefix of the demo's queues and buckets. */
export const DEMO_REDIS_PREFIX = 'touchbase-demo';

/**
 * Where the demo keeps its state: the server and credentials of `DATABASE_URL` with
 * the database `touchbase_demo` (or `databaseUrl`), and the Redis prefix
 * `touchbase-demo` (or `redisPrefix`).
 */
export function demoState(
  env: Record<string, string | undefined>,
  opts: { databaseUrl?: string | undefined; redisPrefix?: string | undefined } = {},
): DemoState {
  let databaseUrl = opts.databaseUrl;
  if (!databaseUrl) {
    const url = new URL(env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/touchbase');
    url.pathname = `/${DEMO_DATABASE}`;
    databaseUrl = url.toString();
  }
  return { databaseUrl, redisPrefix: opts.redisPrefix || DEMO_REDIS_PREFIX };
}

/**
 * Starts the demo from nothing: drops its database (start-up creates and migrates it
 * again) and deletes its Redis keys, so a run never piles onto the last one's
 * sequences, mailboxes and jobs.
 */
export async function resetDemoState(state: DemoState, redisUrl: string): Promise<void> {
  await dropDatabase(state.databaseUrl);
  const redis = createRedis(redisUrl, 'producer', { enableOfflineQueue: true });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${state.redisPrefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
