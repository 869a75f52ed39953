import { DomainError, WAITING_REASONS } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import {
  type ExplainWaitingDeps,
  explainWaiting,
  listWaiting,
  waitingSummary,
} from '../use-cases/explain-waiting.js';
import { DateTimeSchema, EnrollmentWaitingSchema } from './response-schemas.js';
import { IdParamsSchema } from './schemas.js';

/** The `waiting` filter of `GET /v1/enrollments`: one of core's reasons. */
export const WaitingFilterSchema = z
  .enum(WAITING_REASONS)
  .optional()
  .describe(
    'Only live enrollments not being sent for this reason (see GET /v1/enrollments/{id}/waiting); ' +
      'combines with sequenceId only, and each item carries its `waiting`',
  );

/**
 * The clock and TIME_SCALE the answers use: the enrollment use case's. Read from
 * `reads` (the replica when set): a reason is an estimate of a moment, and a few
 * milliseconds of replica lag do not change it.
 */
export function waitingDeps(
  deps: ApiDeps,
  repos: ExplainWaitingDeps['repos'] = deps.reads,
): ExplainWaitingDeps {
  return {
    repos,
    clock: deps.enroll.clock,
    timeScale: deps.enroll.timeScale,
    ...(deps.doNotContact ? { doNotContact: deps.doNotContact } : {}),
  };
}

/**
 * One enrollment's reason, from the replica; one the replica does not have yet
 * (enrolled within its lag) is asked of the primary, so a client that has just
 * enrolled never gets a 404 for it.
 */
async function explainOne(deps: ApiDeps, id: string) {
  try {
    return await explainWaiting(waitingDeps(deps), id);
  } catch (err) {
    if (deps.reads === deps.repos || !(err instanceof DomainError) || err.code !== 'not_found') throw err;
    return explainWaiting(waitingDeps(deps, deps.repos), id);
  }
}

/** `GET /v1/enrollments?waiting=REASON`: a page of live enrollments waiting for that reason. */
export function listEnrollmentsWaiting(
  deps: ApiDeps,
  q: {
    waiting: (typeof WAITING_REASONS)[number];
    sequenceId?: string | undefined;
    limit: number;
    after?: string | undefined;
  },
) {
  // `after` is an enrollment id: the route's pageQuery(UuidCursorSchema) refused any other shape.
  return listWaiting(waitingDeps(deps), {
    reason: q.waiting,
    sequenceId: q.sequenceId,
    limit: q.limit,
    after: q.after,
  });
}

/** "Why isn't it sending?": per enrollment, and counted per reason. */
export const enrollmentWaitingRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  const wd = waitingDeps(deps);

  app.get(
    '/v1/enrollments/:id/waiting',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['enrollments'],
        summary: 'Why an enrollment is not being sent right now, and until when',
        description:
          'The enrollment with `waiting`: `{ reason, until, variables?, cap?, detail?, action?, linkedinAccount?, window? }`, or null once it has ended, and `lastFailure` (`{ step, reason, at }`: the last node of a graph sequence whose action failed for good and was passed over, e.g. `linkedin_profile_not_found`). ' +
          'Reasons: ' +
          WAITING_REASONS.join(', ') +
          '. `due` means nothing holds it: its touch goes out next. `until` is null where only a person can end the wait. ' +
          'At a LinkedIn node the LinkedIn account holds the touch (its state, window and zone, its caps per action), not the mailbox: ' +
          '`linkedinAccount` names it (`chosen: false` when none is kept yet and it is the one the sender would choose).',
        params: IdParamsSchema,
        response: {
          200: EnrollmentWaitingSchema.extend({
            lastFailure: z
              .object({ step: z.number().int(), reason: z.string(), at: DateTimeSchema })
              .nullable()
              .describe('The last node whose action failed for good and was passed over'),
          }).describe('The enrollment'),
        },
      },
    },
    async (req) => explainOne(deps, req.params.id),
  );

  app.get(
    '/v1/enrollments/waiting/summary',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['enrollments'],
        summary: 'How many live enrollments wait for each reason',
        description:
          'The live enrollments (of one sequence, or all) counted per waiting reason, with their total.',
        response: {
          200: z.object({
            total: z.number().int(),
            byReason: z
              .partialRecord(z.enum(WAITING_REASONS), z.number().int())
              .describe('Live enrollments per reason'),
          }),
        },
        querystring: z.object({ sequenceId: z.uuid().optional() }),
      },
    },
    async (req) => waitingSummary(wd, { sequenceId: req.query.sequenceId }),
  );
};
