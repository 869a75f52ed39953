import { SUPPRESSION_KINDS } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { addSuppression } from '../use-cases/add-suppression.js';
import { PageQuerySchema, page } from './schemas.js';

/** `/v1/suppressions`, `/v1/events`, `/v1/stats`, `/v1/audit`. */
export const listsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.get(
    '/v1/suppressions',
    { config: { scope: 'read' }, schema: { tags: ['suppressions'], querystring: PageQuerySchema } },
    async (req) => {
      const items = await deps.repos.suppressions.list(req.query.limit, req.query.after);
      return page(items, req.query.limit, (s) => s.id);
    },
  );

  app.post(
    '/v1/suppressions',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['suppressions'],
        body: z
          .object({
            kind: z.enum(SUPPRESSION_KINDS),
            value: z.string().min(3).max(320),
            reason: z.string().max(500).default('manual'),
          })
          .strict(),
      },
    },
    async (req, reply) => {
      const r = await addSuppression(
        { repos: deps.repos, touchQueue: deps.touchQueue, logger: req.log },
        { ...req.body, actor: req.actor },
      );
      return reply.code(r.created ? 201 : 200).send(r);
    },
  );

  app.get(
    '/v1/events',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['events'],
        querystring: PageQuerySchema.extend({
          prospectId: z.uuid().optional(),
          type: z.string().max(50).optional(),
          from: z.coerce.date().optional().describe('Received at or after (ISO 8601)'),
          to: z.coerce.date().optional().describe('Received before (ISO 8601)'),
        }),
      },
    },
    async (req) => {
      const { limit, after, ...filter } = req.query;
      const items = await deps.repos.events.list(filter, limit, after ? Number(after) : undefined);
      return page(items, limit, (e: { seq: number }) => String(e.seq));
    },
  );

  app.get(
    '/v1/stats',
    {
      config: { scope: 'read' },
      schema: { tags: ['stats'], querystring: z.object({ sequenceId: z.uuid().optional() }) },
    },
    async (req) => {
      const [funnel, sentByStepAndVariant] = await Promise.all([
        deps.repos.enrollments.funnel(req.query.sequenceId),
        deps.repos.touches.sentByStepAndVariant(req.query.sequenceId),
      ]);
      return { ...funnel, sentByStepAndVariant };
    },
  );

  app.get(
    '/v1/audit',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['audit'],
        querystring: PageQuerySchema.extend({
          entityType: z.string().max(50).optional(),
          entityId: z.string().max(100).optional(),
        }),
      },
    },
    async (req) => {
      const { limit, after, ...filter } = req.query;
      const items = await deps.repos.audit.list(filter, limit, after ? Number(after) : undefined);
      return page(items, limit, (a: { id: number }) => String(a.id));
    },
  );
};
