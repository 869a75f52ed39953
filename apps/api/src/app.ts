import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { registerProblemHandler } from '@touchbase/runtime';
import {
  type Logger,
  lazyChildLoggerFactory,
  type Metrics,
  type ReadinessCheck,
  registerHealthRoutes,
  registerMetricsRoute,
} from '@touchbase/telemetry';
import type { Queue } from 'bullmq';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  LogController,
} from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger.js';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import type { Cluster, Redis } from 'ioredis';
import type { ApiDeps } from './api-deps.js';
import { Authenticator } from './auth/authenticator.js';
import { decorateAuth, guardedScope, withScope } from './plugins/auth.plugin.js';
import { bullBoardPlugin } from './plugins/bull-board.plugin.js';
import { consolePlugin } from './plugins/console.plugin.js';
import { declareProblemResponses } from './plugins/openapi-contract.plugin.js';
import { registerKeyRateLimit } from './plugins/rate-limit.plugin.js';
import { checkedSerializerCompiler } from './plugins/response-serializer.js';
import { domainsRoutes } from './routes/domains.routes.js';
import { enrollmentActionsRoutes } from './routes/enrollment-actions.routes.js';
import { enrollmentWaitingRoutes } from './routes/enrollment-waiting.routes.js';
import { enrollmentsRoutes } from './routes/enrollments.routes.js';
import { keysRoutes } from './routes/keys.routes.js';
import { linkedinAccountsRoutes } from './routes/linkedin-accounts.routes.js';
import { listsRoutes } from './routes/lists.routes.js';
import { loginRoutes } from './routes/login.routes.js';
import { mailboxSettingsRoutes } from './routes/mailbox-settings.routes.js';
import { mailboxesRoutes } from './routes/mailboxes.routes.js';
import { prospectErasureRoutes } from './routes/prospect-erasure.routes.js';
import { prospectMergeRoutes } from './routes/prospect-merge.routes.js';
import { prospectsRoutes } from './routes/prospects.routes.js';
import { prospectsImportRoutes } from './routes/prospects-import.routes.js';
import { sequenceMigrationsRoutes } from './routes/sequence-migrations.routes.js';
import { sequencesRoutes } from './routes/sequences.routes.js';
import { simulationsRoutes } from './routes/simulations.routes.js';
import { statsRoutes } from './routes/stats.routes.js';
import { suppressionsRoutes } from './routes/suppressions.routes.js';
import { triageRoutes } from './routes/triage.routes.js';

export type { ApiDeps };

export type ApiAppDeps = Omit<ApiDeps, 'reads' | 'migrate'> & {
  /** Where lists and stats are read (the runtime's `reads`); the primary's `repos` when absent. */
  reads?: ApiDeps['reads'] | undefined;
  logger: Logger;
  metrics: Metrics;
  checks: ReadinessCheck[];
  /** A Bearer token with the admin scope (ADMIN_TOKEN), besides the keys of the database. */
  adminToken?: string | undefined;
  /** Queues shown in Bull Board. */
  queues: Queue[];
  /** Where the console's bundle is (tests); found beside the sources or under the working directory by default. */
  consoleDir?: string | undefined;
  auth?: ApiAuthOptions;
  /**
   * A field a handler answers that its response schema does not declare (zod drops it),
   * or a value of a type it does not allow, is a 500 (true: the tests); by default the
   * first is a warning logged once per route, the second an error logged and the answer
   * sent unchecked.
   */
  strictResponses?: boolean | undefined;
};

/** How the API authenticates; every field has a default fit for tests and loopback. */
export type ApiAuthOptions = {
  /** Signs browser session cookies (API_SESSION_SECRET); random per process by default. */
  sessionSecret?: string | undefined;
  /** Browser session lifetime (API_SESSION_TTL_MS); 8 hours by default. */
  sessionTtlMs?: number | undefined;
  /** Requests per minute and key (API_RATE_LIMIT_PER_MINUTE); 0 (the default here) turns it off. */
  rateLimitPerMinute?: number | undefined;
  /** Where the rate limit counts (shared by replicas); in memory when absent. */
  redis?: Redis | Cluster | undefined;
  redisPrefix?: string | undefined;
  /** `/metrics` and `/docs` open to all (true, the default: loopback) or behind a read key. */
  opsOpen?: boolean | undefined;
};

const EIGHT_HOURS_MS = 8 * 3_600_000;

/** Builds the API (routes, OpenAPI at /docs, Bull Board, health); never listens. */
export async function buildApi(deps: ApiAppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: 20 * 1024 * 1024,
    logController: new LogController({ disableRequestLogging: true }),
    // A request that logs nothing makes no pino child (its reqId binding) either.
    childLoggerFactory: lazyChildLoggerFactory as unknown as FastifyChildLoggerFactory,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    checkedSerializerCompiler({
      strict: deps.strictResponses ?? false,
      log: deps.logger,
    }),
  );
  registerProblemHandler(app);
  decorateAuth(app);
  const auth = deps.auth ?? {};
  // @fastify/cookie signs the session cookie (HMAC-SHA256) with this secret.
  await app.register(cookie, { secret: auth.sessionSecret ?? randomBytes(32).toString('hex') });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'touchbase',
        version: '1',
        description: 'The internal REST API of touchbase. Every error is RFC 9457 problem+json.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key or ADMIN_TOKEN' },
          session: { type: 'apiKey', in: 'cookie', name: 'touchbase_session', description: 'After /login' },
        },
      },
    },
    transform: jsonSchemaTransform,
    // The shapes several routes answer (registered with an id) become components/schemas.
    transformObject: jsonSchemaTransformObject,
  });
  // Open to all: probes must answer without a key.
  await registerHealthRoutes(app, { checks: deps.checks, metrics: deps.metrics, metricsRoute: false });
  const authenticator = new Authenticator(deps.repos.apiKeys, deps.adminToken);
  await app.register(loginRoutes, { authenticator, sessionTtlMs: auth.sessionTtlMs ?? EIGHT_HOURS_MS });
  // /metrics and /docs: open while only this machine can reach the API (loopback, the
  // default), behind a read key otherwise (startApi decides from API_OPS_ACCESS and API_HOST):
  // the document maps every route, the metrics tell the volume of a business.
  const opsRoutes: FastifyPluginAsync = async (ops) => {
    registerMetricsRoute(ops, deps.metrics);
    await ops.register(swaggerUi, { routePrefix: '/docs' });
  };
  if (auth.opsOpen ?? true) await app.register(opsRoutes);

  const routeDeps: ApiDeps = {
    repos: deps.repos,
    reads: deps.reads ?? deps.repos,
    touchQueue: deps.touchQueue,
    domainHealthQueue: deps.domainHealthQueue,
    alertQueue: deps.alertQueue,
    enroll: deps.enroll,
    migrate: {
      repos: deps.repos,
      touchQueue: deps.touchQueue,
      logger: deps.logger,
      clock: deps.enroll.clock,
      timeScale: deps.enroll.timeScale,
      ...(deps.enroll.jitterMs ? { jitterMs: deps.enroll.jitterMs } : {}),
      ...(deps.doNotContact ? { doNotContact: deps.doNotContact } : {}),
    },
    providerNames: deps.providerNames,
    // The waiting route's answers need the country table ("no contact at this time in DE").
    ...(deps.doNotContact ? { doNotContact: deps.doNotContact } : {}),
    logger: deps.logger,
  };
  // Every other route, now and later (/v1, Bull Board, any UI page), is registered in
  // this scope, so the guard's hook runs for it whatever the spelling of its path.
  await app.register(guardedScope, {
    authenticator,
    routes: async (scope) => {
      declareProblemResponses(scope);
      await registerKeyRateLimit(scope, {
        perMinute: auth.rateLimitPerMinute ?? 0,
        redis: auth.redis,
        prefix: auth.redisPrefix,
      });
      if (!(auth.opsOpen ?? true)) await scope.register(withScope('read', opsRoutes, {}));
      await scope.register(withScope('admin', bullBoardPlugin, { queues: deps.queues }));
      // The console's page reads with any key; each action it takes needs its route's scope.
      await scope.register(withScope('read', consolePlugin, { dir: deps.consoleDir }));
      for (const routes of [
        sequencesRoutes,
        sequenceMigrationsRoutes,
        prospectsRoutes,
        prospectsImportRoutes,
        mailboxesRoutes,
        mailboxSettingsRoutes,
        linkedinAccountsRoutes,
        enrollmentsRoutes,
        enrollmentActionsRoutes,
        listsRoutes,
        suppressionsRoutes,
        prospectErasureRoutes,
        prospectMergeRoutes,
        domainsRoutes,
        triageRoutes,
        keysRoutes,
        statsRoutes,
        simulationsRoutes,
        enrollmentWaitingRoutes,
      ]) {
        await scope.register(routes, routeDeps);
      }
    },
  });
  return app;
}
