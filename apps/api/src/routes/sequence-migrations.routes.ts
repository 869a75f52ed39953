import { DomainError, MigrationFilterSchema, NodeMappingSchema, TextSchema } from '@touchbase/core';
import {
  applyVersionMigration,
  planVersionMigration,
  runMigrationInBackground,
  type SequenceMigrationRow,
} from '@touchbase/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { DateTimeSchema } from './response-schemas.js';
import { IdParamsSchema } from './schemas.js';

const VersionRefSchema = z
  .union([z.number().int().min(1), z.uuid()])
  .describe('A version of this sequence: its number (1, 2, ...) or its id');

const MigrationBodySchema = z
  .object({
    planId: z
      .uuid()
      .optional()
      .describe('Apply this plan (the `planId` of a dry run); nothing else is given'),
    from: VersionRefSchema.optional().describe('The version the enrollments are on'),
    to: VersionRefSchema.optional().describe('The version they move to'),
    mapping: NodeMappingSchema.optional(),
    filter: MigrationFilterSchema.optional(),
    dryRun: z
      .boolean()
      .optional()
      .describe('A plan is always a dry run first (the default); apply it with its `planId`'),
    reason: TextSchema.trim().min(1).max(500).optional().describe('Why: kept in the audit log'),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.planId) {
      for (const k of ['from', 'to', 'mapping', 'filter', 'dryRun'] as const)
        if (b[k] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [k],
            message: 'give only planId (and reason) to apply a plan',
          });
      return;
    }
    for (const k of ['from', 'to', 'mapping', 'reason'] as const)
      if (b[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'required for a plan' });
    if (b.dryRun === false)
      ctx.addIssue({
        code: 'custom',
        path: ['dryRun'],
        message: 'every migration is a plan first: dry-run it, then apply it with its planId',
      });
  });

const MigrationParamsSchema = IdParamsSchema.extend({ mid: z.uuid() });

const VersionOfSchema = z.object({ id: z.uuid(), version: z.number().int() });

/** What a dry run answers: the stored plan. */
const MigrationPlanSchema = z
  .object({
    planId: z.uuid().describe('Apply it with `{ planId }`'),
    sequenceId: z.uuid(),
    from: VersionOfSchema,
    to: VersionOfSchema,
    enrollments: z.number().int().describe('How many enrollments move'),
    perSourceNode: z
      .array(z.object({ from: z.string(), to: z.string(), enrollments: z.number().int() }))
      .describe('Where the enrollments of each source node land'),
    skipped: z
      .array(z.object({ enrollmentId: z.string(), node: z.string(), reason: z.string() }))
      .describe('Enrollments of the population that do not move, and why (`at_end`)'),
    changedMessages: z
      .array(
        z.object({
          from: z.string(),
          to: z.string(),
          enrollments: z.number().int(),
          fields: z.array(z.string()),
        }),
      )
      .describe(
        "People mid-thread whose next message changes: the target node's copy differs (the fields named)",
      ),
    fingerprint: z.string().describe('sha256 of the population (enrollment ids, nodes, statuses)'),
  })
  .describe('A migration plan')
  .meta({ id: 'MigrationPlan' });

/** A stored migration with its progress. */
const MigrationSchema = z
  .object({
    id: z.uuid().describe('The `planId` of its dry run'),
    sequenceId: z.uuid(),
    fromVersionId: z.uuid(),
    toVersionId: z.uuid(),
    mapping: NodeMappingSchema,
    filter: MigrationFilterSchema,
    plan: MigrationPlanSchema.describe('The plan as previewed'),
    fingerprint: z.string().describe('sha256 of the population the plan was made for'),
    createdAt: DateTimeSchema,
    startedAt: DateTimeSchema.nullable(),
    finishedAt: DateTimeSchema.nullable(),
    status: z.enum(['planned', 'applying', 'completed']),
    reason: z.string(),
    plannedBy: z.string(),
    appliedBy: z.string().nullable(),
    progress: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      moved: z.number().int(),
      skipped: z.number().int(),
      deferrals: z.number().int().describe('Times a touch in flight left an enrollment for a later batch'),
      skippedBy: z.record(z.string(), z.number().int()).describe('Skipped enrollments by reason'),
    }),
  })
  .describe('A migration and its progress')
  .meta({ id: 'Migration' });

/** A stored migration, its plan given the type the dry run wrote it with. */
const migrationOut = (m: SequenceMigrationRow) => ({
  ...m,
  plan: m.plan as z.input<typeof MigrationPlanSchema>,
});

/** `/v1/sequences/:id/migrations`: move live enrollments between versions by a node mapping. */
export const sequenceMigrationsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/sequences/:id/migrations',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['sequences'],
        summary: 'Plan or apply a migration between versions',
        description:
          "A dry run (`{ from, to, mapping, filter?, reason }`, versions by number or id, mapping: source node id → target node id) stores a plan and answers it (201): how many enrollments move, per source node where they land, which are skipped and why, and which messages change for people mid-thread (the target node's copy differs). It refuses (422 `invalid_migration`, each error naming the node) a mapping that would resend an action already done (a target at or before a node the enrollment already ran), maps onto a node the target version lacks, or loses an enrollment (a live one at an unmapped node). Applying is a second call with `{ planId }` (202): exactly the previewed population, or 409 `population_changed` when it changed since the dry run. Enrollments with a touch in flight move once it settles; pending jobs get the new version's due times; the move is resumable and audited.",
        response: { 201: MigrationPlanSchema, 202: MigrationSchema },
        params: IdParamsSchema,
        body: MigrationBodySchema,
      },
    },
    async (req, reply) => {
      const b = req.body;
      if (b.planId) {
        const m = await applyVersionMigration(deps.migrate, {
          sequenceId: req.params.id,
          planId: b.planId,
          actor: req.actor,
          reason: b.reason,
        });
        if (m.status === 'applying') void runMigrationInBackground(deps.migrate, m.id);
        return reply.code(202).send(migrationOut(m));
      }
      if (!b.from || !b.to || !b.mapping || !b.reason)
        throw new DomainError('invalid_migration', 'from, to, mapping and reason are required');
      const plan = await planVersionMigration(deps.migrate, {
        sequenceId: req.params.id,
        from: b.from,
        to: b.to,
        mapping: b.mapping,
        filter: b.filter,
        reason: b.reason,
        actor: req.actor,
      });
      return reply.code(201).send(plan);
    },
  );

  app.get(
    '/v1/sequences/:id/migrations/:mid',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['sequences'],
        summary: 'A migration and its progress',
        description:
          'Its status (`planned`, `applying`, `completed`), the plan as previewed, who planned and applied it and why, and its progress: enrollments in all, pending, moved, skipped (stopped or moved on meanwhile), and how often a touch in flight deferred one.',
        response: { 200: MigrationSchema },
        params: MigrationParamsSchema,
      },
    },
    async (req) => {
      const m = await deps.repos.sequenceMigrations.get(req.params.mid, req.params.id);
      if (!m)
        throw new DomainError('not_found', 'migration not found', {
          errors: [{ field: 'mid', message: `no migration ${req.params.mid} for this sequence` }],
        });
      return migrationOut(m);
    },
  );
};
