import {
  DomainError,
  type EdgeTrigger,
  EdgeTriggerSchema,
  ENROLLMENT_STATUSES,
  placeTouches,
  TextSchema,
} from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { enrollProspects } from '../use-cases/enroll-prospects.js';
import { listEnrollmentsWaiting, WaitingFilterSchema } from './enrollment-waiting.routes.js';
import {
  AuditEntrySchema,
  DateTimeSchema,
  EnrollmentSchema,
  EnrollmentWaitingSchema,
  EventSchema,
  pageOf,
} from './response-schemas.js';
import { IdParamsSchema, noDuplicates, PageQuerySchema, page } from './schemas.js';

const EnrolledSchema = z.object({ id: z.uuid(), prospectId: z.uuid() });

/** What an enrollment request did with each prospect. */
const EnrollResultSchema = z.object({
  enrolled: z.array(EnrolledSchema),
  held: z
    .array(EnrolledSchema)
    .describe('Created `queued`: the sending domain is paused; they start when it is resumed'),
  refused: z.array(
    z.object({
      prospectId: z.uuid(),
      reason: z.enum(['suppressed', 'already_enrolled', 'not_found', 'cooling_off', 'in_other_sequence']),
      sequenceId: z.uuid().optional().describe('`in_other_sequence`: the exclusive sequence that holds them'),
    }),
  ),
});

const TouchSchema = z.object({
  step: z.number().int(),
  attempt: z.number().int(),
  status: z.string(),
  idempotencyKey: z.string(),
  providerMessageId: z.string().nullable(),
  variant: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: DateTimeSchema,
  sentAt: DateTimeSchema.nullable(),
  node: z.string().nullable().describe('The node of the sequence graph it was made at'),
  action: z.string().nullable(),
  edge: z
    .object({ from: z.string(), trigger: EdgeTriggerSchema, wait: z.string() })
    .nullable()
    .describe('The edge that led to the node (null for the first)'),
});

const ReactivationSchema = z.object({
  id: z.uuid(),
  prospectId: z.uuid(),
  fromEnrollmentId: z.uuid(),
  sequenceId: z.uuid(),
  eventId: z.uuid(),
  trigger: z.string(),
  dueAt: DateTimeSchema,
  status: z.enum(['pending', 'enrolled', 'skipped']),
  outcome: z.string().nullable(),
  enrollmentId: z.uuid().nullable().describe('The enrollment it started'),
  createdAt: DateTimeSchema,
  settledAt: DateTimeSchema.nullable(),
});

const EnrollBodySchema = z
  .object({
    sequenceId: z.uuid(),
    mailboxId: z.uuid(),
    prospectIds: z
      .array(z.uuid())
      .min(1)
      .max(100_000)
      .superRefine(noDuplicates((id) => id.toLowerCase())),
    whenDomainPaused: z
      .enum(['refuse', 'hold'])
      .default('refuse')
      .describe('On a paused sending domain: refuse (409 domain_paused) or hold them until it is resumed'),
  })
  .strict();

/** `/v1/enrollments`: enroll, read, cancel, timeline. */
export const enrollmentsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/enrollments',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['enrollments'],
        summary: 'Enroll prospects on a sequence',
        description:
          'Enrolls each prospect on the latest version of the sequence from the mailbox: the enrolled and the refused with why (suppressed, already enrolled, live in another sequence when either sequence is exclusive: `in_other_sequence` with its `sequenceId`). One prospect refused is an error naming why (409 problem+json, type .../in_other_sequence with `sequenceId` for exclusivity).',
        response: { 201: EnrollResultSchema },
        body: EnrollBodySchema,
      },
    },
    async (req, reply) => {
      const result = await enrollProspects(deps.enroll, req.body);
      // One prospect asked for and refused: say why as an error, not a 201 with nothing in it.
      const only = result.refused[0];
      if (req.body.prospectIds.length === 1 && only) {
        if (only.reason === 'in_other_sequence') {
          throw new DomainError(
            'in_other_sequence',
            `prospect not enrolled: live in sequence ${only.sequenceId} (exclusivity)`,
            { prospectId: only.prospectId, sequenceId: only.sequenceId },
          );
        }
        throw new DomainError(only.reason, `prospect not enrolled: ${only.reason}`, {
          prospectId: only.prospectId,
        });
      }
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/v1/enrollments',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['enrollments'],
        summary: 'List enrollments',
        description: 'Enrollments by id, a page at a time, filtered by status, sequence or prospect.',
        response: {
          // The waiting page first: its items need `waiting`, so a plain page never matches it.
          200: z
            .union([pageOf(EnrollmentWaitingSchema), pageOf(EnrollmentSchema)])
            .describe('A page of enrollments; with `waiting`, each carries its `waiting`'),
        },
        querystring: PageQuerySchema.extend({
          status: z.enum(ENROLLMENT_STATUSES).optional(),
          sequenceId: z.uuid().optional(),
          prospectId: z.uuid().optional(),
          waiting: WaitingFilterSchema,
        }),
      },
    },
    async (req) => {
      if (req.query.waiting)
        return listEnrollmentsWaiting(deps, { ...req.query, waiting: req.query.waiting });
      const { limit, after, waiting: _waiting, ...filter } = req.query;
      const items = await deps.reads.enrollments.list(filter, limit, after);
      return page(items, limit, (e) => e.id);
    },
  );

  app.get(
    '/v1/enrollments/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['enrollments'],
        summary: 'One enrollment',
        description: 'An enrollment: its status, step, next touch and why it stopped.',
        response: { 200: EnrollmentSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => deps.repos.enrollments.get(req.params.id),
  );

  app.get(
    '/v1/enrollments/:id/timeline',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['enrollments'],
        summary: 'Timeline of an enrollment',
        description:
          'The enrollment with its touches (each placed on its sequence graph: `node`, `action` and the `edge` that led there, `{ from, trigger, wait }`), the events of its prospect, its audit entries (`enrollment.edge_taken`: an event took an edge, naming the trigger, the nodes and the timeout it replaced) and its reactivation chain: the reactivations it started (a lost deal, then the enrollment it led to) or came from.',
        response: {
          200: z.object({
            enrollment: EnrollmentSchema,
            touches: z.array(TouchSchema),
            events: z.array(EventSchema).describe('The events of its prospect'),
            audit: z.array(AuditEntrySchema),
            reactivations: z.array(ReactivationSchema),
          }),
        },
        params: IdParamsSchema,
      },
    },
    async (req) => {
      const enrollment = await deps.repos.enrollments.get(req.params.id);
      const [touches, events, audit, reactivations, version] = await Promise.all([
        deps.repos.touches.forEnrollment(enrollment.id),
        deps.repos.events.list({ prospectId: enrollment.prospectId }, 500),
        deps.repos.audit.list({ entityType: 'enrollment', entityId: enrollment.id }, 500),
        deps.repos.reactivations.chainOf(enrollment.id),
        deps.repos.sequences.version(enrollment.sequenceVersionId),
      ]);
      const taken = audit.flatMap((a) => (a.action === 'enrollment.edge_taken' ? [edgeTakenOf(a.data)] : []));
      const placed = placeTouches(
        version.graph,
        touches,
        taken.filter((x) => x !== null),
      );
      return {
        enrollment,
        touches: touches.map((t, i) => ({
          ...t,
          ...(placed[i] ?? { node: null, action: null, edge: null }),
        })),
        events,
        audit,
        reactivations,
      };
    },
  );

  app.post(
    '/v1/enrollments/:id/cancel',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['enrollments'],
        summary: 'Cancel an enrollment',
        description:
          'Ends the enrollment at once (its pending touch will not be sent), audited with the reason. 409 when it has already ended.',
        response: { 200: EnrollmentSchema },
        params: IdParamsSchema,
        body: z
          .object({ reason: TextSchema.max(500).optional() })
          .strict()
          // Fastify hands a missing body over as null.
          .nullish(),
      },
    },
    async (req) => {
      const stopped = await deps.repos.enrollments.stop(
        req.params.id,
        'cancelled',
        req.body?.reason ?? 'manual',
      );
      if (!stopped) {
        const current = await deps.repos.enrollments.get(req.params.id);
        throw new DomainError('invalid_state', `enrollment is ${current.status}`, { status: current.status });
      }
      try {
        await deps.touchQueue.cancel([
          { enrollmentId: stopped.id, step: stopped.currentStep, attempt: stopped.currentAttempt },
        ]);
      } catch (err) {
        // The enrollment is cancelled in PostgreSQL: a job that survives is fenced by the claim.
        req.log.warn(
          { enrollmentId: stopped.id, step: stopped.currentStep, err: (err as Error).message },
          'Pending job removal failed; the fence holds',
        );
      }
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'enrollment.cancelled',
        entityType: 'enrollment',
        entityId: stopped.id,
        data: { reason: req.body?.reason ?? 'manual' },
      });
      return deps.repos.enrollments.get(stopped.id);
    },
  );
};

/** The edge an `enrollment.edge_taken` audit entry names, or null for an entry of another shape. */
function edgeTakenOf(data: unknown): { from: string; to: string; trigger: EdgeTrigger } | null {
  const d = data as { from?: unknown; to?: unknown; trigger?: unknown } | null;
  if (typeof d?.from !== 'string' || typeof d.to !== 'string' || typeof d.trigger !== 'string') return null;
  const trigger = EdgeTriggerSchema.safeParse(d.trigger);
  return trigger.success ? { from: d.from, to: d.to, trigger: trigger.data } : null;
}
