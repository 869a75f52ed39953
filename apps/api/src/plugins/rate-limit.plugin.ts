import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Cluster, Redis } from 'ioredis';
import { LOCAL_PRINCIPAL } from '../auth/authenticator.js';

export type KeyRateLimitOptions = {
  /** Requests per minute and key; 0 turns the limit off. */
  perMinute: number;
  /** Counts in Redis, shared by every replica; in memory (this process only) when absent. */
  redis?: Redis | Cluster | undefined;
  /** Key prefix of the counters in Redis (the deployment's REDIS_PREFIX). */
  prefix?: string | undefined;
};

/**
 * The per-key rate limit of the guarded scope (@fastify/rate-limit): counted by
 * key id (its route-level hook runs after the guard's, so the key is known), 429
 * problem+json with Retry-After past the limit.
 */
export async function registerKeyRateLimit(scope: FastifyInstance, opts: KeyRateLimitOptions): Promise<void> {
  if (opts.perMinute <= 0) return;
  await scope.register(rateLimit, {
    global: true,
    max: opts.perMinute,
    timeWindow: 60_000,
    ...(opts.redis ? { redis: opts.redis, nameSpace: `${opts.prefix ?? 'touchbase'}:api-rate-limit:` } : {}),
    keyGenerator: (req) => req.principal?.keyId ?? req.ip,
    // The open mode (no credential exists, loopback only) has no key to count by.
    allowList: (req) => req.principal === LOCAL_PRINCIPAL,
    // Redis away must not take the API down with it: the limit is a fairness rule,
    // not a security boundary (the guard is), so requests go on uncounted.
    skipOnError: true,
    onExceeded: (req, key) => req.log.warn({ keyId: key, actor: req.actor }, 'API rate limit reached'),
    errorResponseBuilder: (_req, ctx) =>
      Object.assign(
        new Error(`rate limit of ${ctx.max} requests a minute reached for this key; retry in ${ctx.after}`),
        {
          statusCode: ctx.statusCode,
          code: 'rate_limited',
        },
      ),
  });
}
