import { TextSchema } from '@touchbase/core';
import { ProblemError } from '@touchbase/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { mergeProspects } from '../use-cases/merge-prospects.js';
import { IdParamsSchema } from './schemas.js';

const MergeBodySchema = z
  .object({
    from: z
      .uuid()
      .describe('The prospect merged away: its identities, enrollments, events and suppressions follow'),
    reason: TextSchema.trim().min(1).max(500).describe('Why: kept in the audit log'),
  })
  .strict();

const MergeResultSchema = z.object({
  prospectId: z.string(),
  mergedFrom: z.string(),
  moved: z.array(z.string()).describe('Enrollments of `from` now the person’s'),
  leftBehind: z
    .array(
      z.object({
        enrollmentId: z.string(),
        keptEnrollmentId: z.string(),
        sequenceId: z.string(),
        cancelled: z.boolean().describe('It was live and is now cancelled with stop reason `merged`'),
      }),
    )
    .describe('Enrollments in a sequence both were in: the one not kept, cancelled if live'),
  endedForExclusivity: z
    .array(z.object({ enrollmentId: z.string(), keptEnrollmentId: z.string() }))
    .describe(
      'Live enrollments in other sequences cancelled (`merged`) because an exclusive sequence holds the person',
    ),
  leftBehindOn: z
    .string()
    .nullable()
    .describe('The record holding them (no address; erased with the person)'),
  suppressionsFollowed: z.number().int(),
});

/**
 * `POST /v1/prospects/{id}/merge`: `from` is the same person as `id`. Its
 * identities, enrollments, events and suppressions follow to `id`; where both are
 * in one sequence one enrollment is kept (live over ended, then the earlier) and
 * the other is cancelled with reason `merged`. Audited with the actor and reason.
 */
export const prospectMergeRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/prospects/:id/merge',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['prospects'],
        summary: 'Merge another prospect of the same person into this one',
        description:
          'The identities (addresses, LinkedIn URL, HubSpot id, phone), enrollments, events and suppressions of `from` follow to this prospect, which keeps its own address; `from` is gone. Where both are in one sequence, the live enrollment is kept over an ended one, else the earlier, and the other is cancelled with stop reason `merged` (listed in `leftBehind`). Where the person is then live in two sequences and one is exclusive (contact policy), the one started first goes on and the other is cancelled (`endedForExclusivity`). An unsubscribe or complaint under either address keeps the person out; a bounce stays with its address. Audited (`prospect.merged`) with the actor and the reason.',
        params: IdParamsSchema,
        body: MergeBodySchema,
        response: { 200: MergeResultSchema },
      },
    },
    async (req) => {
      if (req.body.from.toLowerCase() === req.params.id.toLowerCase()) {
        throw new ProblemError({
          status: 400,
          title: 'Invalid merge',
          code: 'validation_failed',
          errors: [{ field: 'from', message: 'a prospect cannot be merged into itself' }],
        });
      }
      const result = await mergeProspects(deps, {
        intoId: req.params.id,
        fromId: req.body.from,
        reason: req.body.reason,
        actor: req.actor,
      });
      const { stopped: _stopped, ...answer } = result;
      return answer;
    },
  );
};
