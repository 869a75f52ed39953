import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Before any test: PostgreSQL and Redis must answer. Say how to get them instead
 * of letting a hundred tests fail with ECONNREFUSED.
 */
export default async function setup(): Promise<void> {
  const pgUrl = process.env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const problems: string[] = [];
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    const u = new URL(pgUrl);
    problems.push(`PostgreSQL at ${u.hostname}:${u.port || 5432}: ${(err as Error).message}`);
  } finally {
    await client.end(); // never rejects: a failed connect stays in `problems`
  }
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 3000,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    problems.push(`Redis at ${redisUrl}: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
  if (problems.length > 0) {
    throw new Error(
      `The tests need PostgreSQL and Redis:\n  ${problems.join('\n  ')}\n` +
        'Start them with `docker compose up -d redis postgres`, or install the OS packages (apt-get install postgresql redis-server); ' +
        'set TEST_DATABASE_SERVER_URL / REDIS_URL if they run elsewhere.',
    );
  }
}
