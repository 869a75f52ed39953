import { TextSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { IntegerCursorSchema, PageQuerySchema, page, pageQuery } from './schemas.js';

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
            kind: z.enum(['email', 'domain']),
            value: TextSchema.min(3).max(320),
            reason: TextSchema.max(500).default('manual'),
          })
          .strict(),
      },
    },
    async (req, reply) => {
      const r = await deps.repos.suppressions.add(req.body.kind, req.body.value, req.body.reason);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'suppression.added',
        entityType: 'suppression',
        entityId: r.id,
        data: { kind: req.body.kind, reason: req.body.reason },
      });
      return reply.code(r.created ? 201 : 200).send(r);
    },
  );

  app.get(
    '/v1/events',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['events'],
        querystring: pageQuery(IntegerCursorSchema).extend({
          prospectId: z.uuid().optional(),
          type: TextSchema.max(50).optional(),
        }),
      },
    },
    async (req) => {
      const { limit, after, ...filter } = req.query;
      const items = await deps.repos.events.list(filter, limit, after);
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
        querystring: pageQuery(IntegerCursorSchema).extend({
          entityType: TextSchema.max(50).optional(),
          entityId: TextSchema.max(100).optional(),
        }),
      },
    },
    async (req) => {
      const { limit, after, ...filter } = req.query;
      const items = await deps.repos.audit.list(filter, limit, after);
      return page(items, limit, (a: { id: number }) => String(a.id));
    },
  );
};
