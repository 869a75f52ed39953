import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/** A connection BullMQ and the throttle's scripts run on: one Redis, or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: REDIS_URL, or the seed nodes of a cluster (REDIS_CLUSTER_NODES). */
export type RedisTarget = { url: string } | { nodes: { host: string; port: number }[] };

/**
 * Creates an ioredis connection for BullMQ. Workers block on Redis, so BullMQ needs
 * `maxRetriesPerRequest: null` on theirs; producers fail fast instead, so an API
 * request does not hang while Redis is away.
 */
export function createRedis(url: string, role: 'worker' | 'producer', extra: RedisOptions = {}): Redis {
  return new Redis(url, { ...roleOptions(role), ...extra });
}

/**
 * The same for a Redis Cluster: one ioredis `Cluster` that follows the slots. During
 * a failover the shard refuses its slots (CLUSTERDOWN, then MOVED to the promoted
 * replica) for about `cluster-node-timeout`; the client asks again every 200 ms,
 * producers a few times (then the caller sees a Redis outage), workers until it answers.
 */
export function createRedisCluster(
  nodes: { host: string; port: number }[],
  role: 'worker' | 'producer',
  extra: ClusterOptions = {},
): Cluster {
  return new Cluster(nodes, {
    enableReadyCheck: true,
    enableOfflineQueue: role === 'worker',
    scaleReads: 'master',
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    slotsRefreshTimeout: 2_000,
    ...extra,
    redisOptions: {
      ...roleOptions(role),
      ...extra.redisOptions,
    },
  });
}

/**
 * A connection to the target: a `Cluster` for seed nodes, else a `Redis`. With
 * `autoPipelining`, the commands issued in one turn of the event loop go out in one
 * write (ioredis' `enableAutoPipelining`): only for connections BullMQ never uses
 * (Bull and BullMQ jobs have gone missing on auto-pipelined connections).
 */
export function createRedisClient(
  target: RedisTarget,
  role: 'worker' | 'producer',
  opts: { autoPipelining?: boolean; connectionName?: string } = {},
): RedisClient {
  const auto = opts.autoPipelining ? { enableAutoPipelining: true } : {};
  const named = opts.connectionName ? { connectionName: opts.connectionName } : {};
  return 'nodes' in target
    ? createRedisCluster(target.nodes, role, { ...auto, redisOptions: named })
    : createRedis(target.url, role, { ...auto, ...named });
}

/**
 * Resolves once the client is ready. A producer refuses commands until then
 * (`enableOfflineQueue: false`), and BullMQ's queues ask for the server version as
 * soon as they are built, so the runtime waits for this before building them; a
 * cluster is ready once it has loaded the slot map.
 */
export function redisReady(client: RedisClient, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      reject(new Error(`Redis not ready after ${timeoutMs} ms (status ${client.status})`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', onReady);
  });
}

function roleOptions(role: 'worker' | 'producer'): RedisOptions {
  return {
    maxRetriesPerRequest: role === 'worker' ? null : 3,
    enableReadyCheck: true,
    enableOfflineQueue: role === 'worker',
    connectionName: `touchbase-${role}`,
  };
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

/**
 * Thrown at boot when the Redis found is not the kind the configuration names: a
 * cluster node behind REDIS_URL (BullMQ would meet MOVED on most keys), or a Redis
 * without cluster mode among REDIS_CLUSTER_NODES. Names the variable to set.
 */
export class RedisLayoutError extends Error {
  override readonly name = 'RedisLayoutError';
  readonly code = 'redis_layout';
  constructor(
    readonly variable: 'REDIS_URL' | 'REDIS_CLUSTER_NODES',
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

/**
 * Pings Redis once with a short timeout, for boot checks, and checks it is the kind
 * configured: every seed node of a cluster in cluster mode with its slots served
 * (`cluster_state:ok`), and REDIS_URL not a cluster node.
 * @throws RedisUnavailableError when a node does not answer; RedisLayoutError when it is the wrong kind.
 */
export async function assertRedisReachable(target: string | RedisTarget, timeoutMs = 3000): Promise<void> {
  const t: RedisTarget = typeof target === 'string' ? { url: target } : target;
  if ('url' in t) {
    const info = await probe(t.url, timeoutMs);
    if (info.clusterEnabled)
      throw new RedisLayoutError(
        'REDIS_URL',
        `${new URL(t.url).host} is a Redis Cluster node; set REDIS_CLUSTER_NODES to its nodes (host:port,...) instead`,
      );
    return;
  }
  for (const node of t.nodes) {
    const info = await probe(
      `redis://${node.host.includes(':') ? `[${node.host}]` : node.host}:${node.port}`,
      timeoutMs,
    );
    if (!info.clusterEnabled)
      throw new RedisLayoutError(
        'REDIS_CLUSTER_NODES',
        `${node.host}:${node.port} is not in cluster mode (cluster-enabled no); list the nodes of a Redis Cluster, or unset REDIS_CLUSTER_NODES and set REDIS_URL`,
      );
    if (info.clusterState !== 'ok')
      throw new RedisLayoutError(
        'REDIS_CLUSTER_NODES',
        `the cluster of ${node.host}:${node.port} is not serving every slot (cluster_state:${info.clusterState}); finish \`redis-cli --cluster create\` or fix it first`,
      );
  }
}

async function probe(
  url: string,
  timeoutMs: number,
): Promise<{ clusterEnabled: boolean; clusterState: string | undefined }> {
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
    const info = await redis.info('cluster');
    const clusterEnabled = /^cluster_enabled:1/m.test(info);
    const clusterState = clusterEnabled
      ? /^cluster_state:(\w+)/m.exec(await redis.cluster('INFO'))?.[1]
      : undefined;
    return { clusterEnabled, clusterState };
  } catch (err) {
    throw new RedisUnavailableError(url, err);
  } finally {
    redis.disconnect();
  }
}
