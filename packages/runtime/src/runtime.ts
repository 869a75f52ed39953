import { AllEnv, checkRedisLayout, loadConfig } from '@touchbase/config';
import type { DoNotContactTable } from '@touchbase/core';
import {
  applyMigrations,
  assertDatabaseReachable,
  createDatabase,
  createReadRepositories,
  createRepositories,
  type Database,
  ensureDatabase,
  type ReadRepositories,
  type Repositories,
} from '@touchbase/db';
import {
  HttpLinkedInSender,
  HttpProviderAdapter,
  LemlistAdapter,
  type LinkedInSender,
  type ProviderAdapter,
  ProviderRegistry,
  SandboxAdapter,
  SmartleadAdapter,
  SmtpAdapter,
  UnipileLinkedInSender,
} from '@touchbase/providers';
import {
  AlertQueue,
  assertRedisReachable,
  createRedisClient,
  type QueueLayout,
  ReactivationQueue,
  type RedisClient,
  type RedisTarget,
  redisReady,
  TouchQueue,
} from '@touchbase/queues';
import { createLogger, type Logger, Metrics } from '@touchbase/telemetry';
import { doNotContactTableOf } from './do-not-contact.js';
import { Shutdown } from './shutdown.js';

export type Config = ReturnType<typeof loadRuntimeConfig>;

/** Parses every variable once, and the Redis layout they make; throws ConfigError naming the bad ones. */
export function loadRuntimeConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(AllEnv, env);
  checkRedisLayout(config);
  return config;
}

/** The dependencies every service is built from. */
export type Runtime = {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** The primary: every write, and every read that must see its own writes. */
  db: Database;
  repos: Repositories;
  /** DATABASE_REPLICA_URL's connections when set (opened lazily: a service that never reads there opens none). */
  replica: Database | undefined;
  /**
   * Where lists, stats, funnels and waiting reasons are read: the replica's
   * repositories when DATABASE_REPLICA_URL is set, else the primary's. The one
   * place that choice is made (docs/scaling.md#read-replica).
   */
  reads: ReadRepositories;
  /** For producers (fails fast) and for workers (blocks, never gives up); ioredis `Cluster`s on Redis Cluster. */
  redis: { producer: RedisClient; worker: RedisClient };
  /** Where each queue's keys live (REDIS_PREFIX, REDIS_CLUSTER_NODES, TOUCH_QUEUE_PARTITIONS): what every queue and worker is built with. */
  queueLayout: QueueLayout;
  touchQueue: TouchQueue;
  /** The producer side of the `alerts` queue, for any service that raises an ops alert. */
  alertQueue: AlertQueue;
  /** COMPLIANCE_DO_NOT_CONTACT, parsed at boot: do-not-contact hours and days per recipient country. */
  doNotContact: DoNotContactTable;
  /** The producer side of the `reactivations` queue (ingest schedules, the scheduler runs them). */
  reactivationQueue: ReactivationQueue;
  providers: ProviderRegistry;
  /** The LinkedIn senders by a LinkedIn account's `provider`: always `sandbox`, plus `unipile` and `http` when configured. */
  linkedInSenders: ReadonlyMap<string, LinkedInSender>;
  shutdown: Shutdown;
};

/**
 * Opens the connections a service needs, after checking that PostgreSQL and Redis
 * answer (with a message saying how to get them when they do not). With
 * `migrate`, the database is created if missing and the migrations applied.
 */
export async function openRuntime(opts: {
  name: string;
  config: Config;
  migrate?: boolean;
  logger?: Logger;
  /** Overrides SANDBOX_URL, for a sandbox started in this process on a free port. */
  sandboxUrl?: string;
}): Promise<Runtime> {
  const { config } = opts;
  const logger = opts.logger ?? createLogger({ name: opts.name, level: config.LOG_LEVEL });
  const redisTarget = redisTargetOf(config);
  await assertRedisReachable(redisTarget);
  await assertDatabaseReachable(config.DATABASE_URL, opts.migrate ?? false);
  if (opts.migrate) {
    await ensureDatabase(config.DATABASE_URL);
    const { applied } = await applyMigrations({ databaseUrl: config.DATABASE_URL });
    if (applied.length > 0) logger.info({ applied }, 'Migrations applied');
  }
  const db = createDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    ...(config.DATABASE_CONNECT_TIMEOUT_MS ? { connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS } : {}),
    onIdleError: (err) => logger.warn({ err: err.message }, 'PostgreSQL idle connection lost'),
  });
  // A pg pool connects on its first query, so a service that reads nothing there
  // (sender, ingest, scheduler) opens no connection to the replica.
  const replica = config.DATABASE_REPLICA_URL
    ? createDatabase(config.DATABASE_REPLICA_URL, {
        poolSize: config.DATABASE_POOL_SIZE,
        ...(config.DATABASE_CONNECT_TIMEOUT_MS
          ? { connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS }
          : {}),
        onIdleError: (err) => logger.warn({ err: err.message }, 'PostgreSQL replica idle connection lost'),
      })
    : undefined;
  // A bad table stops start-up with a configuration error naming the variable.
  const doNotContact = doNotContactTableOf(config);
  const producer = createRedisClient(redisTarget, 'producer');
  const worker = createRedisClient(redisTarget, 'worker');
  const queueLayout = queueLayoutOf(config);
  for (const r of [producer, worker])
    r.on('error', (err) => logger.warn({ err: err.message }, 'Redis connection error'));
  await Promise.all([redisReady(producer), redisReady(worker)]);
  const touchQueue = new TouchQueue(producer, queueLayout, logger);
  const alertQueue = new AlertQueue(producer, queueLayout, logger);
  const reactivationQueue = new ReactivationQueue(producer, queueLayout, logger);
  const sandboxUrl = opts.sandboxUrl ?? config.SANDBOX_URL ?? `http://127.0.0.1:${config.SANDBOX_PORT}`;
  const sandbox = new SandboxAdapter(sandboxUrl, config.SENDER_PROVIDER_TIMEOUT_MS);
  const providers = new ProviderRegistry().register(sandbox);
  const configured = configuredProviders(config);
  for (const adapter of configured) providers.register(adapter);
  const linkedInSenders = configuredLinkedInSenders(config, sandboxUrl);
  const shutdown = new Shutdown(logger, config.SHUTDOWN_TIMEOUT_MS)
    .add('touch queue', () => touchQueue.close())
    .add('alert queue', () => alertQueue.close())
    .add('reactivation queue', () => reactivationQueue.close())
    .add('sandbox adapter', () => sandbox.close())
    .add('provider adapters', async () => {
      await Promise.allSettled(configured.map((a) => a.close()));
    })
    .add('linkedin senders', async () => {
      await Promise.allSettled([...linkedInSenders.values()].map((s) => s.close()));
    })
    .add('redis', async () => {
      await Promise.allSettled([producer.quit(), worker.quit()]);
    })
    .add('database', async () => {
      await Promise.all([db.close(), replica?.close()]);
    });
  const repos = createRepositories(db, { stopBatchHoldMs: config.INGEST_STOP_BATCH_HOLD_MS });
  return {
    config,
    logger,
    metrics: new Metrics(),
    db,
    repos,
    replica,
    reads: replica ? createReadRepositories(replica) : repos,
    redis: { producer, worker },
    queueLayout,
    touchQueue,
    alertQueue,
    reactivationQueue,
    doNotContact,
    providers,
    linkedInSenders,
    shutdown,
  };
}

/** Redis as configured: the cluster's seed nodes when REDIS_CLUSTER_NODES is set, else REDIS_URL. */
export function redisTargetOf(config: Config): RedisTarget {
  return config.REDIS_CLUSTER_NODES ? { nodes: config.REDIS_CLUSTER_NODES } : { url: config.REDIS_URL };
}

/** The queue layout of the configuration (see `queuePrefix` in @touchbase/queues). */
export function queueLayoutOf(config: Config): QueueLayout {
  return {
    prefix: config.REDIS_PREFIX,
    cluster: Boolean(config.REDIS_CLUSTER_NODES),
    touchPartitions: config.TOUCH_QUEUE_PARTITIONS,
  };
}

/**
 * The LinkedIn senders a LinkedIn account may name: the sandbox's LinkedIn (the
 * generic HTTP contract on its loopback server), Unipile and a generic HTTP tool
 * when their variables are set.
 */
export function configuredLinkedInSenders(config: Config, sandboxUrl: string): Map<string, LinkedInSender> {
  const timeoutMs = config.SENDER_PROVIDER_TIMEOUT_MS;
  const senders = new Map<string, LinkedInSender>();
  // The sandbox asks no token of LinkedIn calls; the contract's header is sent anyway.
  senders.set(
    'sandbox',
    new HttpLinkedInSender({ baseUrl: sandboxUrl, token: 'sandbox', timeoutMs, name: 'sandbox' }),
  );
  if (config.UNIPILE_URL && config.UNIPILE_API_KEY)
    senders.set(
      'unipile',
      new UnipileLinkedInSender({ baseUrl: config.UNIPILE_URL, apiKey: config.UNIPILE_API_KEY, timeoutMs }),
    );
  if (config.HTTP_LINKEDIN_URL && config.HTTP_LINKEDIN_TOKEN)
    senders.set(
      'http',
      new HttpLinkedInSender({
        baseUrl: config.HTTP_LINKEDIN_URL,
        token: config.HTTP_LINKEDIN_TOKEN,
        timeoutMs,
      }),
    );
  return senders;
}

/**
 * The real providers whose credentials are set, besides the always-present
 * sandbox: a mailbox may only name a provider registered here.
 */
export function configuredProviders(config: Config): (ProviderAdapter & { close(): Promise<void> })[] {
  const timeoutMs = config.SENDER_PROVIDER_TIMEOUT_MS;
  const adapters: (ProviderAdapter & { close(): Promise<void> })[] = [];
  if (config.SMARTLEAD_API_KEY) {
    adapters.push(
      new SmartleadAdapter({
        apiKey: config.SMARTLEAD_API_KEY,
        baseUrl: config.SMARTLEAD_BASE_URL,
        timeoutMs,
      }),
    );
  }
  if (config.LEMLIST_API_KEY) {
    adapters.push(
      new LemlistAdapter({ apiKey: config.LEMLIST_API_KEY, baseUrl: config.LEMLIST_BASE_URL, timeoutMs }),
    );
  }
  if (config.HTTP_PROVIDER_URL && config.HTTP_PROVIDER_TOKEN) {
    adapters.push(
      new HttpProviderAdapter({
        baseUrl: config.HTTP_PROVIDER_URL,
        token: config.HTTP_PROVIDER_TOKEN,
        timeoutMs,
      }),
    );
  }
  if (config.SMTP_HOST) {
    adapters.push(
      new SmtpAdapter({
        host: config.SMTP_HOST,
        port: config.SMTP_PORT,
        secure: config.SMTP_SECURE,
        user: config.SMTP_USER,
        password: config.SMTP_PASSWORD,
        timeoutMs,
        poolSize: config.SMTP_POOL_SIZE,
      }),
    );
  }
  return adapters;
}
