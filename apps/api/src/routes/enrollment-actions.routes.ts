import { DomainError, ENROLLMENT_STATUSES, PAUSE_KINDS, TextSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { actOnEnrollments, type EnrollmentAction } from '../use-cases/act-on-enrollments.js';
import { EnrollmentSchema } from './response-schemas.js';
import { IdParamsSchema } from './schemas.js';

/** Most enrollments one bulk request changes; the answer says when more matched. */
const BULK_CAP = 10_000;

const ReasonSchema = TextSchema.trim().min(1).max(500).describe('Why: kept in the audit log');

const PauseBodySchema = z
  .object({
    reason: ReasonSchema,
    until: z.coerce
      .date()
      .optional()
      .describe('Resume by itself then (the reconciler picks it up); absent: paused until resumed'),
  })
  .strict();

const ReasonBodySchema = z.object({ reason: ReasonSchema }).strict();

const FilterSchema = z
  .object({
    sequenceId: z.uuid().optional(),
    mailboxId: z.uuid().optional(),
    status: z.enum(ENROLLMENT_STATUSES).optional(),
    pausedFor: z
      .enum(PAUSE_KINDS)
      .optional()
      .describe('Paused ones by why: `missing_variable` resumes those held for a variable since filled'),
  })
  .strict()
  .refine((f) => Object.values(f).some((v) => v !== undefined), {
    message: 'name at least one of sequenceId, mailboxId, status, pausedFor',
  });

const BulkBodySchema = z
  .object({
    filter: FilterSchema,
    reason: ReasonSchema,
    until: z.coerce.date().optional().describe('pause only: resume by itself then'),
    limit: z.number().int().min(1).max(BULK_CAP).default(BULK_CAP).describe('At most this many are changed'),
  })
  .strict();

const ActionReportSchema = z.object({
  matched: z.number().int(),
  changed: z.number().int(),
  capped: z.boolean().describe('More matched than the limit: send the request again for the rest'),
  ids: z.array(z.uuid()).describe('The enrollments changed'),
});

/**
 * `/v1/enrollments/{id}/pause|resume` and `/v1/enrollments/bulk/{pause|resume|cancel}`:
 * an operator's actions, each audited with the key's name and the reason given.
 * A resume takes every kind of pause, a missing template variable's included
 * (fill the variable first: the sender pauses it again otherwise).
 */
export const enrollmentActionsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  const act = (
    log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
    input: Parameters<typeof actOnEnrollments>[1],
  ) => actOnEnrollments({ repos: deps.repos, touchQueue: deps.touchQueue, logger: log }, input);

  /** One enrollment: 404 when unknown, 409 when its status does not allow the action. */
  const actOnOne = async (
    req: { params: { id: string }; actor: string; log: Parameters<typeof act>[0] },
    action: EnrollmentAction,
    reason: string,
  ) => {
    const r = await act(req.log, {
      action,
      selection: { ids: [req.params.id] },
      cap: 1,
      actor: req.actor,
      reason,
    });
    if (r.changed === 0) {
      const current = await deps.repos.enrollments.get(req.params.id);
      throw new DomainError('invalid_state', `enrollment is ${current.status}`, { status: current.status });
    }
    return deps.repos.enrollments.get(req.params.id);
  };

  app.post(
    '/v1/enrollments/:id/pause',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['enrollments'],
        summary: 'Pause an active enrollment, until a date or until resumed',
        description:
          'Holds the enrollment: no touch is sent until it is resumed, or `until` passes. Audited with the reason; 409 when its status does not allow it.',
        params: IdParamsSchema,
        body: PauseBodySchema,
        response: { 200: EnrollmentSchema },
      },
    },
    async (req) => actOnOne(req, { kind: 'pause', until: req.body.until ?? null }, req.body.reason),
  );

  app.post(
    '/v1/enrollments/:id/resume',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['enrollments'],
        summary: 'Resume a paused enrollment (manual, out of office, missing variable)',
        description:
          'Takes every kind of pause; fill a missing variable first, or the sender pauses it again. Audited with the reason; 409 when it is not paused.',
        params: IdParamsSchema,
        body: ReasonBodySchema,
        response: { 200: EnrollmentSchema },
      },
    },
    async (req) => actOnOne(req, { kind: 'resume' }, req.body.reason),
  );

  for (const kind of ['pause', 'resume', 'cancel'] as const) {
    app.post(
      `/v1/enrollments/bulk/${kind}`,
      {
        // Many enrollments at once, cancels for good: destructive, so admin.
        config: { scope: 'admin' },
        schema: {
          tags: ['enrollments'],
          summary: `${kind[0]?.toUpperCase()}${kind.slice(1)} the enrollments matching a filter`,
          description:
            'Changes at most `limit` enrollments matching the filter (at least one criterion), each audited with the reason; `capped` says when more matched.',
          body: BulkBodySchema,
          response: { 200: ActionReportSchema },
        },
      },
      async (req) => {
        const action: EnrollmentAction =
          kind === 'pause' ? { kind, until: req.body.until ?? null } : { kind };
        return act(req.log, {
          action,
          selection: req.body.filter,
          cap: req.body.limit,
          actor: req.actor,
          reason: req.body.reason,
        });
      },
    );
  }
};
