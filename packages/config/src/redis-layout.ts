import { ConfigError } from './config-error.js';

/** What the Redis variables say about where the queues and buckets live. */
export type RedisLayoutEnv = {
  REDIS_URL: string;
  REDIS_PREFIX: string;
  REDIS_CLUSTER_NODES?: { host: string; port: number }[] | undefined;
  TOUCH_QUEUE_PARTITIONS: number;
  SENDER_THROTTLE: 'lua' | 'bottleneck';
};

/**
 * Refuses the Redis layouts touchbase does not run on, naming the variable to change:
 * on Redis Cluster (REDIS_CLUSTER_NODES set) every queue and every touch partition
 * hash-tags its own keys, so a `{...}` in REDIS_PREFIX would pull them all onto one
 * shard; and Bottleneck's datastore keeps a limiter's keys and channels apart from
 * our hash tags, so the cluster runs the Lua buckets only.
 * @throws ConfigError naming REDIS_PREFIX or SENDER_THROTTLE.
 */
export function checkRedisLayout(env: RedisLayoutEnv): void {
  if (!env.REDIS_CLUSTER_NODES) return;
  const issues: { variable: string; message: string }[] = [];
  if (/[{}]/.test(env.REDIS_PREFIX))
    issues.push({
      variable: 'REDIS_PREFIX',
      message:
        'must not contain { or } with REDIS_CLUSTER_NODES: each queue and touch partition hash-tags its own keys, and a tag in the prefix would put them all on one shard',
    });
  if (env.SENDER_THROTTLE === 'bottleneck')
    issues.push({
      variable: 'SENDER_THROTTLE',
      message:
        "must be 'lua' with REDIS_CLUSTER_NODES: the Bottleneck throttle is not supported on Redis Cluster",
    });
  if (issues.length > 0) throw new ConfigError(issues);
}
