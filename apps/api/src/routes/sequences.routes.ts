import { SendingWindowSchema, SequenceDefinitionSchema, SequenceStepsSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { IdParamsSchema, PageQuerySchema, page } from './schemas.js';

const SequenceCreateSchema = SequenceDefinitionSchema.extend({
  mailboxPoolId: z
    .uuid()
    .optional()
    .describe('Send first touches from this pool: the member with the most room left today'),
  sendingWindow: SendingWindowSchema.nullable()
    .optional()
    .describe(
      "The sequence's own window ({ days, start, end, holidays }, in the prospect's zone); overrides the mailbox's",
    ),
});

/** `/v1/sequences`: sequences and their immutable versions. */
export const sequencesRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/sequences',
    { config: { scope: 'write' }, schema: { tags: ['sequences'], body: SequenceCreateSchema } },
    async (req, reply) => {
      const { mailboxPoolId, sendingWindow, ...definition } = req.body;
      if (mailboxPoolId) await deps.repos.mailboxes.getPool(mailboxPoolId);
      const created = await deps.repos.sequences.create(definition, { sendingWindow: sendingWindow ?? null });
      if (mailboxPoolId) await deps.repos.mailboxes.setSequencePool(created.id, mailboxPoolId);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'sequence.created',
        entityType: 'sequence',
        entityId: created.id,
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/v1/sequences',
    { config: { scope: 'read' }, schema: { tags: ['sequences'], querystring: PageQuerySchema } },
    async (req) => {
      const items = await deps.repos.sequences.list(req.query.limit, req.query.after);
      return page(items, req.query.limit, (s) => s.id);
    },
  );

  app.get(
    '/v1/sequences/:id',
    { config: { scope: 'read' }, schema: { tags: ['sequences'], params: IdParamsSchema } },
    async (req) => deps.repos.sequences.get(req.params.id),
  );

  app.put(
    '/v1/sequences/:id/mailbox-pool',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        params: IdParamsSchema,
        body: z.object({ mailboxPoolId: z.uuid().nullable() }).strict(),
      },
    },
    async (req) => {
      await deps.repos.mailboxes.setSequencePool(req.params.id, req.body.mailboxPoolId);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'sequence.pool_set',
        entityType: 'sequence',
        entityId: req.params.id,
        data: { mailboxPoolId: req.body.mailboxPoolId },
      });
      return { id: req.params.id, mailboxPoolId: req.body.mailboxPoolId };
    },
  );

  app.put(
    '/v1/sequences/:id/sending-window',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        params: IdParamsSchema,
        body: z.object({ sendingWindow: SendingWindowSchema.nullable() }).strict(),
      },
    },
    async (req) => {
      await deps.repos.sequences.setSendingWindow(req.params.id, req.body.sendingWindow);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'sequence.window_set',
        entityType: 'sequence',
        entityId: req.params.id,
        data: { sendingWindow: req.body.sendingWindow },
      });
      return { id: req.params.id, sendingWindow: req.body.sendingWindow };
    },
  );

  app.post(
    '/v1/sequences/:id/versions',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        params: IdParamsSchema,
        body: z.object({ steps: SequenceStepsSchema }).strict(),
      },
    },
    async (req, reply) => {
      const version = await deps.repos.sequences.addVersion(req.params.id, req.body.steps);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'sequence.version_added',
        entityType: 'sequence',
        entityId: req.params.id,
        data: { version: version.version },
      });
      return reply.code(201).send(version);
    },
  );
};
