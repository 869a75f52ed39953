import { ENROLLMENT_STATUSES, SUPPRESSION_KINDS, TextSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { addSuppression } from '../use-cases/add-suppression.js';
import { AuditEntrySchema, EventSchema, pageOf, SuppressionSchema } from './response-schemas.js';
import { IntegerCursorSchema, PageQuerySchema, page, pageQuery } from './schemas.js';

/** What adding a suppression did. */
const SuppressionAddedSchema = z.object({
  id: z.uuid(),
  created: z.boolean().describe('False when it existed already'),
  enrollmentsEnded: z.number().int().describe('Live enrollments it ended at once'),
});

/** `GET /v1/stats`: the funnel of every sequence or of one, by status, step, variant and node. */
const StatsSchema = z.object({
  enrolled: z.number().int(),
  byStatus: z.partialRecord(z.enum(ENROLLMENT_STATUSES), z.number().int()).describe('Enrollments per status'),
  sentByStep: z.record(z.string(), z.number().int()).describe('Touches sent per step number'),
  sentByStepAndVariant: z.array(
    z.object({ step: z.number().int(), variant: z.number().int(), sent: z.number().int() }),
  ),
  byNode: z
    .array(
      z.object({
        version: z.number().int(),
        step: z.number().int(),
        node: z.string().nullable(),
        action: z.string().nullable(),
        reached: z.number().int(),
        sent: z.number().int(),
        failed: z.number().int(),
        repliedAfter: z.number().int(),
      }),
    )
    .optional()
    .describe('For one sequence: per version and node of its graph'),
});

/** `/v1/suppressions`, `/v1/events`, `/v1/stats`, `/v1/audit`. */
export const listsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.get(
    '/v1/suppressions',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['suppressions'],
        summary: 'List suppressions',
        description: 'Suppressed addresses and domains, a page at a time.',
        response: { 200: pageOf(SuppressionSchema) },
        querystring: PageQuerySchema,
      },
    },
    async (req) => {
      const items = await deps.reads.suppressions.list(req.query.limit, req.query.after);
      return page(items, req.query.limit, (s) => s.id);
    },
  );

  app.post(
    '/v1/suppressions',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['suppressions'],
        summary: 'Suppress an address or a domain',
        description:
          'Adds a suppression (absolute: never sent to again), audited; 201 when new, 200 when it existed.',
        response: { 200: SuppressionAddedSchema, 201: SuppressionAddedSchema },
        body: z
          .object({
            kind: z.enum(SUPPRESSION_KINDS),
            value: TextSchema.min(3).max(320),
            reason: TextSchema.max(500).default('manual'),
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
        summary: 'List events',
        description: 'Recorded provider events in the order received, a page at a time, by prospect or type.',
        response: { 200: pageOf(EventSchema) },
        querystring: pageQuery(IntegerCursorSchema).extend({
          prospectId: z.uuid().optional(),
          type: TextSchema.max(50).optional(),
          from: z.coerce.date().optional().describe('Received at or after (ISO 8601)'),
          to: z.coerce.date().optional().describe('Received before (ISO 8601)'),
        }),
      },
    },
    async (req) => {
      const { limit, after, ...filter } = req.query;
      const items = await deps.reads.events.list(filter, limit, after);
      return page(items, limit, (e) => String(e.seq));
    },
  );

  app.get(
    '/v1/stats',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['stats'],
        summary: 'Funnel statistics',
        description:
          'The funnel of every sequence or of one: enrolled, sent, replied, bounced and the rest, and sends per step and A/B variant; for one sequence, `byNode`: per version and node of its graph (a chain: per step), how many enrollments reached it, had its action done, had it fail for good, and replied after it.',
        response: { 200: StatsSchema },
        querystring: z.object({ sequenceId: z.uuid().optional() }),
      },
    },
    async (req) => {
      const [funnel, sentByStepAndVariant, byNode] = await Promise.all([
        deps.reads.enrollments.funnel(req.query.sequenceId),
        deps.reads.touches.sentByStepAndVariant(req.query.sequenceId),
        req.query.sequenceId ? deps.reads.enrollments.nodeFunnel(req.query.sequenceId) : undefined,
      ]);
      return { ...funnel, sentByStepAndVariant, ...(byNode ? { byNode } : {}) };
    },
  );

  app.get(
    '/v1/audit',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['audit'],
        summary: 'Audit log',
        description: 'Who did what and why, in order, a page at a time, by entity.',
        response: { 200: pageOf(AuditEntrySchema) },
        querystring: pageQuery(IntegerCursorSchema).extend({
          entityType: TextSchema.max(50).optional(),
          entityId: TextSchema.max(100).optional(),
        }),
      },
    },
    async (req) => {
      const { limit, after, ...filter } = req.query;
      const items = await deps.reads.audit.list(filter, limit, after);
      return page(items, limit, (a) => String(a.id));
    },
  );
};
