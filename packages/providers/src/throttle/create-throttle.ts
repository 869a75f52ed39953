import { Cluster, type Redis } from 'ioredis';
import { BottleneckThrottle } from './bottleneck-throttle.js';
import { MailboxThrottle } from './mailbox-throttle.js';
import type { Throttle, ThrottleKind, ThrottleSeedSource } from './throttle.port.js';

/** What both implementations need; `spacingJitter` is the Lua one's only. */
export type CreateThrottleOptions = {
  prefix: string;
  timeScale?: number;
  spacingJitter?: number;
  seedFrom?: ThrottleSeedSource;
};

/**
 * The Throttle named by SENDER_THROTTLE, on the given Redis client (or Redis
 * Cluster: the Lua buckets only; the configuration refuses Bottleneck there first).
 */
export function createThrottle(
  kind: ThrottleKind,
  redis: Redis | Cluster,
  opts: CreateThrottleOptions,
): Throttle {
  if (kind === 'bottleneck') {
    if (redis instanceof Cluster)
      throw new Error("SENDER_THROTTLE: 'bottleneck' is not supported on Redis Cluster; use 'lua'");
    return new BottleneckThrottle(redis, {
      prefix: opts.prefix,
      ...(opts.timeScale !== undefined ? { timeScale: opts.timeScale } : {}),
      ...(opts.seedFrom ? { seedFrom: opts.seedFrom } : {}),
    });
  }
  return new MailboxThrottle(redis, opts);
}
