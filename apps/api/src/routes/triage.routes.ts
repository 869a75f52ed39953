import { DomainError } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { pageOf, TriageItemSchema } from './response-schemas.js';
import { IdParamsSchema, PageQuerySchema, page } from './schemas.js';

/**
 * `/v1/triage`: replies from addresses we do not know and cold inbounds. Ingest
 * records them and changes no enrollment; a person reads them here (with the
 * classifier's class and why) and marks them handled.
 */
export const triageRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.get(
    '/v1/triage',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['triage'],
        summary: 'List triage items',
        description:
          'Replies from unknown senders, cold inbounds and referrals named by wrong-person replies, with the classifier class and why; open ones by default.',
        response: { 200: pageOf(TriageItemSchema) },
        querystring: PageQuerySchema.extend({
          open: z
            .enum(['true', 'false'])
            .default('true')
            .transform((v) => v === 'true')
            .describe('Only items not yet handled (default) or all'),
          kind: z.enum(['unknown_sender', 'cold_inbound', 'referral']).optional(),
        }),
      },
    },
    async (req) => {
      const { limit, after, open, kind } = req.query;
      const items = await deps.reads.triage.list({ open, ...(kind ? { kind } : {}) }, limit, after);
      return page(items, limit, (t) => t.id);
    },
  );

  app.post(
    '/v1/triage/:id/resolve',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['triage'],
        summary: 'Resolve a triage item',
        description: 'Marks the item handled; audited.',
        response: { 200: TriageItemSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => {
      const item = await deps.repos.triage.resolve(req.params.id);
      if (!item) throw new DomainError('not_found', 'triage item not found', { triageId: req.params.id });
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'triage.resolved',
        entityType: 'triage_item',
        entityId: item.id,
      });
      return item;
    },
  );
};
