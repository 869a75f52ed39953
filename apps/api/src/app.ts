import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { registerProblemHandler } from '@touchbase/runtime';
import { type Logger, type Metrics, type ReadinessCheck, registerHealthRoutes } from '@touchbase/telemetry';
import type { Queue } from 'bullmq';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ApiDeps } from './api-deps.js';
import { registerAuth } from './plugins/auth.plugin.js';
import { registerBullBoard } from './plugins/bull-board.plugin.js';
import { domainsRoutes } from './routes/domains.routes.js';
import { enrollmentsRoutes } from './routes/enrollments.routes.js';
import { listsRoutes } from './routes/lists.routes.js';
import { mailboxesRoutes } from './routes/mailboxes.routes.js';
import { prospectsRoutes } from './routes/prospects.routes.js';
import { prospectsImportRoutes } from './routes/prospects-import.routes.js';
import { sequencesRoutes } from './routes/sequences.routes.js';
import { triageRoutes } from './routes/triage.routes.js';

export type { ApiDeps };

export type ApiAppDeps = ApiDeps & {
  logger: Logger;
  metrics: Metrics;
  checks: ReadinessCheck[];
  adminToken?: string | undefined;
  /** Queues shown in Bull Board. */
  queues: Queue[];
};

/** Builds the API (routes, OpenAPI at /docs, Bull Board, health); never listens. */
export async function buildApi(deps: ApiAppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: 20 * 1024 * 1024,
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerProblemHandler(app);
  registerAuth(app, deps.adminToken);
  await app.register(swagger, {
    openapi: {
      info: { title: 'touchbase', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await registerHealthRoutes(app, { checks: deps.checks, metrics: deps.metrics });
  await registerBullBoard(app, deps.queues);
  const routeDeps: ApiDeps = {
    repos: deps.repos,
    touchQueue: deps.touchQueue,
    domainHealthQueue: deps.domainHealthQueue,
    alertQueue: deps.alertQueue,
    enroll: deps.enroll,
    providerNames: deps.providerNames,
  };
  for (const routes of [
    sequencesRoutes,
    prospectsRoutes,
    prospectsImportRoutes,
    mailboxesRoutes,
    enrollmentsRoutes,
    listsRoutes,
    domainsRoutes,
    triageRoutes,
  ]) {
    await app.register(routes, routeDeps);
  }
  return app;
}
