import { DomainError, heldFirstTouch, TextSchema } from '@touchbase/core';
import { sendProblem } from '@touchbase/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { problemResponse } from '../plugins/openapi-contract.plugin.js';
import {
  AlertSchema,
  DateTimeSchema,
  pageOf,
  SendingDomainDetailSchema,
  SendingDomainSchema,
} from './response-schemas.js';
import { IdParamsSchema, NameCursorSchema, page, pageQuery } from './schemas.js';

/** A manual run of the domain guard: its BullMQ job and state. */
const RunSchema = z.object({
  jobId: z.string().describe('`manual-...`: read it again at GET /v1/domains/health/runs/{jobId}'),
  state: z.string().describe('The BullMQ state: waiting, active, completed, failed, delayed, unknown'),
});

/** What a tick of the guard did (free-form: the guard's own report). */
const RunResultSchema = z.unknown().describe("The tick's report (free-form: the guard's own)");

const ActionBodySchema = z
  .object({
    by: TextSchema.trim().min(1).max(200).describe('Who is acting (a person), for the audit log'),
    reason: TextSchema.trim()
      .min(3)
      .max(500)
      .describe('Why, in plain words, for the audit log and the alert'),
  })
  .strict();

const PauseBodySchema = ActionBodySchema.extend({
  holdTouches: z
    .boolean()
    .default(true)
    .describe('Hold the touches of running sequences too, not only new enrollments'),
}).strict();

const RunQuerySchema = z.object({
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(120)
    .default(30)
    .describe('Seconds to wait for the tick to finish; 202 with the job id if it has not'),
});

const POLL_MS = 50;

/** The cursor of the alerts (newest first): `createdAt|id` of the last one of the previous page. */
const AlertCursorSchema = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z\|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    'a cursor from the `next` of a previous page (an ISO time and a uuid, joined by |)',
  )
  .refine((c) => !Number.isNaN(Date.parse(c.split('|')[0] ?? '')), 'the time of the cursor is not a date');

/**
 * `/v1/domains` (health, pause, resume, a manual run of the guard) and `/v1/alerts`
 * (ops alerts with each channel's delivery, so a failing channel shows).
 */
export const domainsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  const { domainHealthQueue: healthQueue, alertQueue } = deps;

  const windowDays = async () => {
    const account = await deps.repos.domainHealth.account();
    return Number(account.settings.windowDays ?? 7);
  };

  app.get(
    '/v1/domains',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['domains'],
        summary: 'List sending domains',
        description:
          'Sending domains in name order, a page at a time, with their last bounce and completion figures and their status.',
        response: { 200: pageOf(SendingDomainSchema) },
        querystring: pageQuery(NameCursorSchema),
      },
    },
    async (req) => {
      const items = await deps.reads.sendingDomains.list(req.query.limit, req.query.after);
      return page(items, req.query.limit, (d: { domain: string }) => d.domain);
    },
  );

  app.get(
    '/v1/domains/health',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['domains'],
        summary: 'Domain guard settings',
        description:
          'The account-wide settings of the domain guard: the bounce threshold and the window of days it judges.',
        response: {
          200: z.object({
            account: z.object({
              level: z.enum(['ok', 'approaching', 'over']),
              figures: z
                .record(z.string(), z.unknown())
                .describe(
                  "The account-wide figures of the last tick (free-form: they follow the guard's rules)",
                ),
              settings: z
                .record(z.string(), z.unknown())
                .describe('The guard settings (threshold, `windowDays`, ...), free-form as stored'),
              checkedAt: DateTimeSchema.nullable(),
            }),
          }),
        },
      },
    },
    async () => {
      const account = await deps.reads.domainHealth.account();
      return { account };
    },
  );

  app.post(
    '/v1/domains/health/run',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['domains'],
        summary: 'Run the domain guard now',
        description:
          'Enqueues a manual tick of the domain guard and waits up to `wait` seconds for it: 200 with its result, 202 with the job id if it is still running.',
        response: {
          200: RunSchema.extend({ result: RunResultSchema }).describe('The run finished'),
          202: RunSchema.describe('Still running'),
          500: problemResponse('The run failed: `detail` says why'),
        },
        querystring: RunQuerySchema,
      },
    },
    async (req, reply) => {
      const jobId = await healthQueue.runNow();
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'domain-health.run',
        entityType: 'account',
        entityId: 'account',
        data: { jobId },
      });
      const deadline = Date.now() + req.query.wait * 1000;
      for (;;) {
        const seen = await healthQueue.run(jobId);
        const state = seen ? await seen.getState() : 'unknown';
        // The job was read before its state: one that finished in between holds no
        // result yet, so a finished job is read again.
        const job = state === 'completed' || state === 'failed' ? await healthQueue.run(jobId) : seen;
        if (job && state === 'completed')
          return reply.code(200).send({ jobId, state, result: job.returnvalue });
        if (job && state === 'failed') {
          return sendProblem(reply, {
            status: 500,
            title: 'The domain health run failed',
            code: 'run_failed',
            detail: job.failedReason,
            jobId,
          });
        }
        if (Date.now() >= deadline) return reply.code(202).send({ jobId, state });
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    },
  );

  app.get(
    '/v1/domains/health/runs/:jobId',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['domains'],
        summary: 'A manual run of the domain guard',
        description:
          'The state of a manual run started with `POST /v1/domains/health/run`, with its result or error.',
        response: {
          200: z.object({
            jobId: z.string().nullish(),
            state: z.string(),
            result: RunResultSchema.nullable(),
            error: z.string().nullable().describe('Why it failed'),
          }),
        },
        params: z.object({ jobId: z.string().regex(/^manual-[\w-]+$/) }),
      },
    },
    async (req) => {
      const seen = await healthQueue.run(req.params.jobId);
      if (!seen) throw new DomainError('not_found', 'run not found', { jobId: req.params.jobId });
      const state = await seen.getState();
      // Read again once finished: the first read may predate its result.
      const job =
        (state === 'completed' || state === 'failed' ? await healthQueue.run(req.params.jobId) : null) ??
        seen;
      return { jobId: job.id, state, result: job.returnvalue ?? null, error: job.failedReason ?? null };
    },
  );

  app.get(
    '/v1/domains/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['domains'],
        summary: 'One sending domain',
        description:
          'A sending domain: status, reason, the figures of each day of the window, enrollments held while it is paused, and its last 20 alerts.',
        response: {
          200: SendingDomainDetailSchema.extend({ alerts: z.array(AlertSchema).describe('Its last 20') }),
        },
        params: IdParamsSchema,
      },
    },
    async (req) => {
      const domain = await deps.repos.sendingDomains.get(req.params.id, await windowDays());
      const alerts = await deps.repos.alerts.list({ domainId: req.params.id }, 20);
      return { ...domain, alerts };
    },
  );

  // Admin scope, pause and resume alike: they stop, or release, the sending of every
  // sequence on the domain at once, not one thing a write key looks after.
  app.post(
    '/v1/domains/:id/pause',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['domains'],
        summary: 'Pause a sending domain',
        description:
          'Stops new enrollments on the domain and, with `holdTouches`, the touches of running sequences too; audited with who and why and alerted to ops. 409 when already paused.',
        response: { 200: SendingDomainDetailSchema },
        params: IdParamsSchema,
        body: PauseBodySchema,
      },
    },
    async (req) => {
      const { by, reason, holdTouches } = req.body;
      const current = await deps.repos.sendingDomains.get(req.params.id, 1);
      const message = `paused by ${by}: ${reason}`;
      const paused = await deps.repos.sendingDomains.pause({
        domainId: req.params.id,
        actor: by,
        kind: 'manual',
        reason: message,
        holdTouches,
        alert: { kind: 'domain.paused', message, data: { figures: current.figures, by } },
      });
      if (!paused)
        throw new DomainError('invalid_state', 'sending domain is already paused', {
          domainStatus: 'paused',
        });
      await alertQueue.enqueue([paused.alertId]);
      return deps.repos.sendingDomains.get(req.params.id, await windowDays());
    },
  );

  app.post(
    '/v1/domains/:id/resume',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['domains'],
        summary: 'Resume a sending domain',
        description:
          'Releases the domain: held enrollments get their first touch, paused touches go on; audited and alerted. 409 when it is not paused.',
        response: {
          200: SendingDomainDetailSchema.extend({
            releasedEnrollments: z.number().int().describe('Held enrollments released by the resume'),
          }),
        },
        params: IdParamsSchema,
        body: ActionBodySchema,
      },
    },
    async (req) => {
      const { by, reason } = req.body;
      const now = deps.enroll.clock();
      const current = await deps.repos.sendingDomains.get(req.params.id, 1);
      const resumed = await deps.repos.sendingDomains.resume({
        domainId: req.params.id,
        actor: by,
        reason,
        automatic: false,
        firstTouchAt: heldFirstTouch(
          now,
          deps.enroll.timeScale,
          deps.enroll.pacingMs,
          undefined,
          deps.enroll.doNotContact,
        ),
        alert: {
          kind: 'domain.resumed',
          message: `resumed by ${by}: ${reason}`,
          data: { figures: current.figures, by },
        },
        at: now,
      });
      if (!resumed)
        throw new DomainError('invalid_state', 'sending domain is not paused', { domainStatus: 'active' });
      // After the commit; a crash here loses nothing: the reconciler schedules active
      // enrollments and the guard's next tick re-enqueues an undelivered alert.
      await deps.touchQueue.schedule(
        resumed.released.map((r) => ({ enrollmentId: r.enrollmentId, step: 1, dueAt: r.dueAt })),
        now.getTime(),
      );
      if (resumed.alertId) await alertQueue.enqueue([resumed.alertId]);
      const domain = await deps.repos.sendingDomains.get(req.params.id, await windowDays());
      return { ...domain, releasedEnrollments: resumed.released.length };
    },
  );

  app.get(
    '/v1/alerts',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['alerts'],
        summary: 'List ops alerts',
        description:
          'Alerts newest first, a page at a time, with each channel delivery; `failing` keeps those with a channel retrying or given up.',
        response: { 200: pageOf(AlertSchema) },
        querystring: pageQuery(AlertCursorSchema).extend({
          domainId: z.uuid().optional(),
          failing: z
            .enum(['true', 'false'])
            .optional()
            .transform((v) => v === 'true')
            .describe('Only alerts with a channel retrying or given up'),
        }),
      },
    },
    async (req) => {
      const { limit, after, domainId, failing } = req.query;
      const [createdAt, id] = after?.split('|') ?? [];
      const items = await deps.reads.alerts.list(
        { ...(domainId ? { domainId } : {}), failing },
        limit,
        createdAt && id ? { createdAt, id } : undefined,
      );
      return page(items, limit, (a) => `${new Date(a.createdAt).toISOString()}|${a.id}`);
    },
  );
};
