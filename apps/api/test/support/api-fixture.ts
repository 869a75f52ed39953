import { createDatabase, createRepositories, type Database, type Repositories } from '@touchbase/db';
import { AlertQueue, createRedis, DomainHealthQueue, TouchQueue } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix, type TestDatabase } from '@touchbase/testing';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ApiScope } from '../../src/auth/api-scope.js';
import { type ApiAuthOptions, buildApi, createApiKey } from '../../src/index.js';

const logger = createLogger({ name: 'test', level: 'silent' });

/** An API over a database and a Redis prefix of its own, for the authentication tests. */
export type ApiFixture = {
  app: FastifyInstance;
  db: Database;
  repos: Repositories;
  redis: Redis;
  prefix: string;
  touchQueue: TouchQueue;
  /** Creates a key with this scope and returns it (the secret). */
  key(scope: ApiScope, name?: string): Promise<string>;
  close(): Promise<void>;
};

let keyCount = 0;

export async function apiFixture(
  label: string,
  opts: {
    adminToken?: string;
    auth?: (redis: Redis, prefix: string) => ApiAuthOptions;
    consoleDir?: string;
    /** COMPLIANCE_DO_NOT_CONTACT, as the API's start gives it. */
    doNotContact?: import('@touchbase/core').DoNotContactTable;
  } = {},
): Promise<ApiFixture> {
  const tdb: TestDatabase = await createTestDatabase(label);
  const db = createDatabase(tdb.url);
  const testPrefix = await createTestRedisPrefix(label);
  const redis = createRedis(testPrefix.url, 'producer');
  const touchQueue = new TouchQueue(redis, testPrefix.prefix, logger);
  const domainHealthQueue = new DomainHealthQueue(redis, testPrefix.prefix, logger);
  const alertQueue = new AlertQueue(redis, testPrefix.prefix, logger);
  const repos = createRepositories(db);
  const app = await buildApi({
    repos,
    touchQueue,
    domainHealthQueue,
    alertQueue,
    enroll: { repos, touchQueue, clock: () => new Date(), timeScale: 1, pacingMs: 0 },
    providerNames: ['sandbox'],
    logger,
    metrics: new Metrics({ defaultMetrics: false }),
    checks: [],
    queues: [touchQueue.queue],
    // A field a handler answers that its response schema lacks fails the request.
    strictResponses: true,
    ...(opts.adminToken ? { adminToken: opts.adminToken } : {}),
    ...(opts.auth ? { auth: opts.auth(redis, testPrefix.prefix) } : {}),
    ...(opts.consoleDir ? { consoleDir: opts.consoleDir } : {}),
    ...(opts.doNotContact ? { doNotContact: opts.doNotContact } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    repos,
    redis,
    prefix: testPrefix.prefix,
    touchQueue,
    async key(scope, name = `${scope}-key-${++keyCount}`) {
      return (await createApiKey({ repos }, { name, scope, actor: 'test' })).key;
    },
    async close() {
      await app.close();
      await Promise.all([touchQueue.close(), domainHealthQueue.close(), alertQueue.close()]);
      redis.disconnect();
      await testPrefix.cleanup();
      await db.close();
      await tdb.drop();
    },
  };
}

/** Every operation of the API's OpenAPI document, with its declared scope. */
export function documentedOperations(
  app: FastifyInstance,
): { method: string; path: string; url: string; scope: ApiScope | undefined }[] {
  const doc = app.swagger() as {
    paths: Record<string, Record<string, { 'x-scope'?: ApiScope }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      // Path parameters become a uuid: a route that exists, for an entity that does not.
      url: path.replace(/\{[^}]+\}/g, '0b9f1c1e-6a3e-4b8e-9a57-2f0f3d1f6a11'),
      scope: op['x-scope'],
    })),
  );
}
