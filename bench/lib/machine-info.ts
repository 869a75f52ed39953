import os from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The machine and service versions a figure was measured on. */
export type MachineInfo = {
  /** Stable across runs on the same machine: cpu model, cores and memory (not the hostname, containers change it). */
  id: string;
  hostname: string;
  cores: number;
  memoryGb: number;
  cpuModel: string;
  platform: string;
  node: string;
  redis: string;
  postgres: string;
  date: string;
};

/**
 * Cores, memory, cpu model, Node, Redis and PostgreSQL versions and the date.
 * The servers are those of `REDIS_URL` and `TEST_DATABASE_SERVER_URL` (the defaults
 * the tests use); a server that does not answer is reported as `unavailable`.
 */
export async function machineInfo(
  opts: { redisUrl?: string; postgresUrl?: string } = {},
): Promise<MachineInfo> {
  const cpus = os.cpus();
  const cpuModel = (cpus[0]?.model ?? 'unknown').replace(/\s+/g, ' ').trim();
  const cores = cpus.length;
  const memoryGb = Math.round((os.totalmem() / 1024 ** 3) * 10) / 10;
  const [redis, postgres] = await Promise.all([
    redisVersion(opts.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    postgresVersion(
      opts.postgresUrl ??
        process.env.TEST_DATABASE_SERVER_URL ??
        'postgresql://postgres@127.0.0.1:5432/postgres',
    ),
  ]);
  return {
    id: `${cpuModel} / ${cores} cores / ${Math.round(memoryGb)} GB`,
    hostname: os.hostname(),
    cores,
    memoryGb,
    cpuModel,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    redis,
    postgres,
    date: new Date().toISOString(),
  };
}

async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    const info = await redis.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } catch {
    return 'unavailable';
  } finally {
    redis.disconnect();
  }
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } catch {
    return 'unavailable';
  } finally {
    await client.end(); // never rejects: an unreachable server reads 'unavailable'
  }
}
