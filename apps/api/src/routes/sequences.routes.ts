import {
  patchSequencePolicies,
  type SendingWindow,
  SendingWindowSchema,
  SequenceDefinitionSchema,
  type SequenceGraph,
  SequenceGraphSchema,
  SequencePoliciesSchema,
  type SequenceStep,
  SequenceStepsSchema,
} from '@touchbase/core';
import { ProblemError } from '@touchbase/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { checkSequenceGraph, versionOfBody } from '../use-cases/check-sequence-graph.js';
import { RetimeResultSchema, retimePending } from '../use-cases/retime-pending.js';
import { pageOf, SequenceDetailSchema, SequenceSchema, SequenceVersionSchema } from './response-schemas.js';
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

/** A stored sequence row, its JSON columns given the types their writers checked. */
function sequenceOut<R extends { sendingWindow: unknown; policies: unknown }>(row: R) {
  return {
    ...row,
    sendingWindow: row.sendingWindow as SendingWindow | null,
    policies: row.policies as Record<string, unknown>,
  };
}

/** `/v1/sequences`: sequences and their immutable versions. */
export const sequencesRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/sequences',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        summary: 'Create a sequence',
        description:
          'A sequence with its first version, given as `steps` (e-mail steps with subject and body templates and waits; run as a chain) or as a `graph` (nodes: email, linkedin_connect, linkedin_message, linkedin_visit, manual_task, end; edges: from, to, trigger, wait), optionally a mailbox pool and its own sending window; audited. A graph that cannot run is a 400 `invalid_graph` naming each node and edge (unreachable node, a node without a timeout, a loop without a wait, two edges of one trigger, a channel without a sending identity in the pool).',
        response: {
          201: z.object({
            id: z.uuid(),
            name: z.string(),
            sendingWindow: SendingWindowSchema.nullable(),
            version: SequenceVersionSchema.describe('Its first version'),
          }),
        },
        body: SequenceCreateSchema,
      },
    },
    async (req, reply) => {
      const { mailboxPoolId, sendingWindow, ...definition } = req.body;
      if (mailboxPoolId) await deps.repos.mailboxes.getPool(mailboxPoolId);
      const { graph } = versionOfBody(definition);
      await checkSequenceGraph(deps, graph, mailboxPoolId ?? null);
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
    {
      config: { scope: 'read' },
      schema: {
        tags: ['sequences'],
        summary: 'List sequences',
        description: 'Sequences by id, a page at a time.',
        response: { 200: pageOf(SequenceSchema) },
        querystring: PageQuerySchema,
      },
    },
    async (req) => {
      const items = await deps.reads.sequences.list(req.query.limit, req.query.after);
      return page(items.map(sequenceOut), req.query.limit, (s) => s.id);
    },
  );

  app.get(
    '/v1/sequences/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['sequences'],
        summary: 'One sequence',
        description: 'A sequence with its versions.',
        response: { 200: SequenceDetailSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => {
      const sequence = await deps.repos.sequences.get(req.params.id);
      return {
        ...sequenceOut(sequence),
        versions: sequence.versions.map((v) => ({
          ...v,
          steps: v.steps as SequenceStep[],
          graph: v.graph as SequenceGraph,
        })),
      };
    },
  );

  app.put(
    '/v1/sequences/:id/mailbox-pool',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        summary: 'Set the mailbox pool of a sequence',
        description:
          'First touches are sent from this pool (null: from the mailbox given at enrollment); audited.',
        response: { 200: z.object({ id: z.uuid(), mailboxPoolId: z.uuid().nullable() }) },
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

  const PoliciesResponseSchema = z.object({ id: z.uuid(), policies: SequencePoliciesSchema });

  app.get(
    '/v1/sequences/:id/policies',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['sequences'],
        summary: 'The policies of a sequence',
        description:
          'Every policy with its value, the defaults filled in: company-level stop, campaign dates, tracking, and who may be contacted (`contact`: exclusivity, cooldown days, new people per day, recipient-domain cap per day).',
        response: { 200: PoliciesResponseSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => ({ id: req.params.id, policies: await deps.repos.sequences.policies(req.params.id) }),
  );

  app.patch(
    '/v1/sequences/:id/policies',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        summary: 'Change the policies of a sequence',
        description:
          'A JSON merge patch (RFC 7396) of the policies: objects merge field by field, null puts a policy back to its default. The result is validated whole (an unknown field is refused, named) and returned with the defaults filled in; audited with the patch and the policies before and after. Changes apply from the next enrollment or touch.',
        response: { 200: PoliciesResponseSchema },
        params: IdParamsSchema,
        body: z
          .record(z.string(), z.unknown())
          .describe('e.g. { "contact": { "exclusive": false, "cooldownDays": 14, "newPeoplePerDay": 50 } }'),
      },
    },
    async (req) => {
      const before = await deps.repos.sequences.policies(req.params.id);
      const patched = patchSequencePolicies(before, req.body);
      if (!patched.ok) {
        throw new ProblemError({
          status: 400,
          title: 'Invalid policies',
          code: 'validation_failed',
          detail: patched.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
          errors: patched.errors,
        });
      }
      const policies = await deps.repos.sequences.setPolicies(req.params.id, patched.policies);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'sequence.policies_set',
        entityType: 'sequence',
        entityId: req.params.id,
        data: { patch: req.body, before, after: policies },
      });
      return { id: req.params.id, policies };
    },
  );

  app.put(
    '/v1/sequences/:id/sending-window',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        summary: 'Set the sending window of a sequence',
        description:
          'The window of the sequence overrides the mailbox window (null: the mailbox window again). Pending touches are re-timed at once from their unfitted due time (forward when the window widens, back when it narrows; a touch in flight is left), and the answer says how many (`retime`); both audited.',
        response: {
          200: z.object({
            id: z.uuid(),
            sendingWindow: SendingWindowSchema.nullable(),
            retime: RetimeResultSchema,
          }),
        },
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
      // Pending touches follow the new window now, brought forward or pushed back.
      const retime = await retimePending(
        deps,
        { sequenceId: req.params.id },
        { actor: req.actor, cause: 'window' },
      );
      return { id: req.params.id, sendingWindow: req.body.sendingWindow, retime };
    },
  );

  app.post(
    '/v1/sequences/:id/versions',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        summary: 'Add a version to a sequence',
        description:
          'A new immutable version, as `steps` or as a `graph` (see POST /v1/sequences); new enrollments run it, running ones keep theirs; audited. A graph is checked against the sequence pool.',
        response: { 201: SequenceVersionSchema },
        params: IdParamsSchema,
        body: z
          .object({
            steps: SequenceStepsSchema.optional().describe('A linear list of e-mail steps; or give `graph`'),
            graph: SequenceGraphSchema.optional().describe('The version as a graph; or give `steps`'),
          })
          .strict(),
      },
    },
    async (req, reply) => {
      const definition = versionOfBody(req.body);
      const sequence = await deps.repos.sequences.get(req.params.id);
      await checkSequenceGraph(deps, definition.graph, sequence.mailboxPoolId);
      // The body as given (steps or graph): the definition already holds both, which addVersion refuses.
      const version = await deps.repos.sequences.addVersion(req.params.id, req.body);
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
