import { assertDatabaseReachable } from '@touchbase/db';
import { DomainHealthQueue, SchedulerQueue } from '@touchbase/queues';
import { listenNamed, type Runtime } from '@touchbase/runtime';
import type { FastifyInstance } from 'fastify';
import { buildApi } from './app.js';
import { decideBinding, isLoopback } from './auth/bind-policy.js';

/**
 * Starts the API on a runtime: decides where it may listen (closed by default:
 * loopback only without credentials, see decideBinding), builds, listens, and
 * stops intake first on shutdown.
 * @throws ConfigError when API_HOST is not loopback and there is no credential.
 */
export async function startApi(rt: Runtime, opts: { pacingMs?: number } = {}): Promise<FastifyInstance> {
  const { config } = rt;
  const binding = decideBinding({
    host: config.API_HOST,
    hasAdminToken: Boolean(config.ADMIN_TOKEN),
    activeKeys: await rt.repos.apiKeys.countActive(),
  });
  // The replica answers lists and stats: refuse to start on a URL that leads nowhere,
  // naming the variable, rather than fail every list later.
  if (config.DATABASE_REPLICA_URL)
    await assertDatabaseReachable(config.DATABASE_REPLICA_URL, false, 'DATABASE_REPLICA_URL');
  // /metrics and /docs: open while only this machine can reach the API, guarded otherwise.
  const opsOpen =
    config.API_OPS_ACCESS === 'open' || (config.API_OPS_ACCESS === 'auto' && isLoopback(binding.host));
  // Shown in Bull Board; the domain-health one also takes the operator's manual runs.
  const schedulerQueue = new SchedulerQueue(rt.redis.producer, rt.queueLayout, rt.logger);
  const domainHealthQueue = new DomainHealthQueue(rt.redis.producer, rt.queueLayout, rt.logger);
  const app = await buildApi({
    repos: rt.repos,
    reads: rt.reads,
    touchQueue: rt.touchQueue,
    domainHealthQueue,
    alertQueue: rt.alertQueue,
    enroll: {
      repos: rt.repos,
      touchQueue: rt.touchQueue,
      clock: () => new Date(),
      timeScale: rt.config.TIME_SCALE,
      pacingMs: opts.pacingMs ?? rt.config.SCHEDULER_PACING_MS,
      doNotContact: rt.doNotContact,
      jitterMs: rt.config.SCHEDULER_JITTER_MS,
      logger: rt.logger.child({ service: 'api' }),
    },
    providerNames: rt.providers.names(),
    doNotContact: rt.doNotContact,
    logger: rt.logger.child({ service: 'api' }),
    metrics: rt.metrics,
    adminToken: rt.config.ADMIN_TOKEN,
    auth: {
      sessionSecret: config.API_SESSION_SECRET,
      sessionTtlMs: config.API_SESSION_TTL_MS,
      rateLimitPerMinute: config.API_RATE_LIMIT_PER_MINUTE,
      redis: rt.redis.producer,
      redisPrefix: config.REDIS_PREFIX,
      opsOpen,
    },
    queues: [...rt.touchQueue.partitions, schedulerQueue.queue, domainHealthQueue.queue, rt.alertQueue.queue],
    checks: [
      { name: 'postgres', check: () => rt.db.pool.query('SELECT 1') },
      { name: 'redis', check: () => rt.redis.producer.ping() },
    ],
  });
  if (binding.open) {
    rt.logger.warn(
      { host: binding.host, port: config.API_PORT },
      'API bound to loopback only and open: no ADMIN_TOKEN and no API key (touchbase keys create) exist',
    );
  }
  if (!config.API_SESSION_SECRET)
    rt.logger.info('API_SESSION_SECRET is not set: browser sessions are signed with a key of this process');
  const where = { host: binding.host, port: config.API_PORT };
  await listenNamed('API_PORT', where, () => app.listen(where));
  rt.logger.info({ host: binding.host, port: config.API_PORT, opsOpen }, 'API listening');
  rt.shutdown.addFirst('api http', async () => {
    await app.close();
    await Promise.all([schedulerQueue.close(), domainHealthQueue.close()]);
  });
  return app;
}
