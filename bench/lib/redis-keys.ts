import type { Redis } from 'ioredis';

/** INFO memory `used_memory`, in bytes. */
export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

/** Deletes every key under `prefix:` (SCAN + UNLINK; never FLUSHALL on a shared Redis). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

/**
 * Bytes Redis attributes to the keys under `prefix:` (MEMORY USAGE): exact for the
 * few big keys, estimated from a sample of `sample` keys for the many small ones.
 * Unlike a used_memory delta it does not move when others use the same Redis.
 */
export async function prefixMemory(redis: Redis, prefix: string, sample = 2000): Promise<number> {
  let cursor = '0';
  const small: string[] = [];
  let smallCount = 0;
  let total = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5000);
    cursor = next;
    const types = await Promise.all(keys.map((k) => redis.type(k)));
    for (const [i, k] of keys.entries()) {
      if (types[i] === 'hash' && !k.endsWith(':meta')) {
        smallCount++;
        if (small.length < sample) small.push(k);
      } else {
        total += Number((await redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '0')) ?? 0);
      }
    }
  } while (cursor !== '0');
  if (small.length > 0) {
    const usages = await Promise.all(
      small.map((k) => redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '0') as Promise<number>),
    );
    total += (usages.reduce((a, b) => a + Number(b ?? 0), 0) / small.length) * smallCount;
  }
  return total;
}

/** The encoding of one job hash under `prefix:` and the server's listpack limit, which decides it. */
export async function jobHashEncoding(
  redis: Redis,
  jobKey: string,
): Promise<{ encoding: string; hashMaxListpackValue: number }> {
  const encoding = String(await redis.object('ENCODING', jobKey));
  const conf = (await redis.config('GET', 'hash-max-listpack-value')) as string[];
  return { encoding, hashMaxListpackValue: Number(conf[1] ?? Number.NaN) };
}
