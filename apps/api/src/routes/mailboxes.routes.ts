import { TextSchema, TimeZoneSchema } from '@touchbase/core';
import { sendProblem } from '@touchbase/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { retimePending } from '../use-cases/retime-pending.js';
import {
  MailboxPoolSchema,
  MailboxRetimedSchema,
  MailboxSchema,
  MailboxUsageSchema,
  pageOf,
} from './response-schemas.js';
import { IdParamsSchema, noDuplicates, PageQuerySchema, page } from './schemas.js';

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm');

/** The window fields of a mailbox, shared by its creation and `PUT /v1/mailboxes/:id/sending-window`. */
const MailboxWindowFields = {
  windowDays: z
    .array(z.number().int().min(1).max(7))
    .max(7)
    .refine((days) => new Set(days).size === days.length, 'days must not repeat')
    .optional()
    .describe('ISO weekdays (1 = Monday) the mailbox sends on; empty: any day and hour'),
  windowStart: HHMM.optional().describe('Local time the window opens (inclusive), default 09:00'),
  windowEnd: HHMM.optional().describe('Local time the window closes (exclusive), default 17:00'),
  holidays: z
    .array(z.iso.date('holidays must be local dates YYYY-MM-DD'))
    .max(366)
    .optional()
    .describe("Local dates (in the prospect's zone) on which the mailbox does not send"),
  timezone: TimeZoneSchema.optional().describe('The zone of prospects that have none; default UTC'),
};

/** A window must open before it closes (the defaults, 09:00 and 17:00, fill what is left out). */
function windowOpensBeforeItCloses(
  w: { windowStart?: string | undefined; windowEnd?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if ((w.windowStart ?? '09:00') >= (w.windowEnd ?? '17:00')) {
    ctx.addIssue({
      code: 'custom',
      path: ['windowEnd'],
      message: 'windowStart must be before windowEnd (windows over midnight are not supported)',
    });
  }
}

export const MailboxInputSchema = z
  .object({
    provider: TextSchema.min(1).max(50),
    address: z.email().max(320),
    perMinute: z.number().int().min(1).max(10_000).optional(),
    perHour: z.number().int().min(1).max(100_000).optional(),
    perDay: z.number().int().min(1).max(1_000_000).optional(),
    minSpacingMs: z.number().int().min(0).max(3_600_000).optional(),
    ...MailboxWindowFields,
    providerConfig: z
      .record(TextSchema.max(100), z.union([TextSchema.max(500), z.number(), z.boolean()]))
      .optional()
      .describe(
        'Provider ids for this mailbox (Smartlead/lemlist campaignId, lemlist sendUserId/sendUserMailboxId); never secrets',
      ),
  })
  .strict()
  .superRefine(windowOpensBeforeItCloses);

/** `PUT /v1/mailboxes/:id/sending-window`: the whole window at once (what is left out takes the default). */
export const MailboxWindowInputSchema = z
  .object(MailboxWindowFields)
  .strict()
  .superRefine(windowOpensBeforeItCloses);

export const MailboxPoolInputSchema = z
  .object({
    name: TextSchema.trim().min(1).max(200),
    mailboxIds: z
      .array(z.uuid())
      .min(1)
      .max(1000)
      .superRefine(noDuplicates((id) => id.toLowerCase())),
  })
  .strict();

/** `/v1/mailboxes`. */
export const mailboxesRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/mailboxes',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['mailboxes'],
        summary: 'Create a mailbox',
        description:
          'A sending mailbox of a provider: its caps per minute, hour and day, its sending window and zone, and the provider ids it needs.',
        response: { 201: MailboxSchema },
        body: MailboxInputSchema,
      },
    },
    async (req, reply) => {
      if (!deps.providerNames.includes(req.body.provider)) {
        return sendProblem(reply, {
          status: 400,
          title: 'Invalid request',
          code: 'validation_failed',
          detail: `body.provider: unknown provider (known: ${deps.providerNames.join(', ')})`,
          errors: [
            { field: 'body.provider', message: `unknown provider (known: ${deps.providerNames.join(', ')})` },
          ],
        });
      }
      const mailbox = await deps.repos.mailboxes.create(req.body);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'mailbox.created',
        entityType: 'mailbox',
        entityId: mailbox.id,
      });
      return reply.code(201).send(mailbox);
    },
  );

  app.get(
    '/v1/mailboxes',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['mailboxes'],
        summary: 'List mailboxes',
        description: 'Mailboxes with their caps, window and status, a page at a time (by id).',
        response: { 200: pageOf(MailboxSchema) },
        querystring: PageQuerySchema,
      },
    },
    async (req) => {
      const items = await deps.reads.mailboxSettings.mailboxPage(req.query.limit, req.query.after);
      return page(items, req.query.limit, (m) => m.id);
    },
  );

  app.get(
    '/v1/mailboxes/usage',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['mailboxes'],
        summary: 'Cap usage of each mailbox',
        description:
          "Each mailbox (by id, a page at a time) with its caps, its state and why it is paused, `sentToday` (sends since midnight in the mailbox's zone), and `used`: the sends of the sender's sliding minute, hour and day windows (the day: the last 24 hours; all three shortened by TIME_SCALE), counted as the sender's token bucket counts them.",
        response: { 200: pageOf(MailboxUsageSchema) },
        querystring: PageQuerySchema,
      },
    },
    async (req) => {
      const scale = Math.max(1, deps.enroll.timeScale);
      const items = await deps.reads.touchWindows.usage(
        [60_000 / scale, 3_600_000 / scale, 86_400_000 / scale],
        req.query.limit,
        req.query.after,
      );
      return page(items, req.query.limit, (m) => m.id);
    },
  );

  app.get(
    '/v1/mailboxes/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['mailboxes'],
        summary: 'One mailbox',
        description: 'A mailbox with its caps, window and status.',
        response: { 200: MailboxSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => deps.repos.mailboxes.get(req.params.id),
  );

  // A new holiday list each year, new hours: pending touches are re-timed to the new window now.
  app.put(
    '/v1/mailboxes/:id/sending-window',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['mailboxes'],
        summary: 'Set the sending window of a mailbox',
        description:
          'Replaces the whole window (days, hours, holidays, zone); what is left out takes the default. Pending touches are re-timed at once from their unfitted due time (forward when the window widens, back when it narrows; a touch in flight is left), and the answer says how many (`retime`); both audited.',
        response: { 200: MailboxRetimedSchema },
        params: IdParamsSchema,
        body: MailboxWindowInputSchema,
      },
    },
    async (req) => {
      const w = req.body;
      const mailbox = await deps.repos.mailboxes.setSendingWindow(req.params.id, {
        windowDays: w.windowDays ?? [1, 2, 3, 4, 5],
        windowStart: w.windowStart ?? '09:00',
        windowEnd: w.windowEnd ?? '17:00',
        holidays: w.holidays ?? [],
        ...(w.timezone ? { timezone: w.timezone } : {}),
      });
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'mailbox.window_set',
        entityType: 'mailbox',
        entityId: req.params.id,
        data: { ...w },
      });
      // Pending touches follow the new window now, brought forward or pushed back.
      const retime = await retimePending(
        deps,
        { mailboxId: req.params.id },
        { actor: req.actor, cause: 'window' },
      );
      return { ...mailbox, retime };
    },
  );

  // A mailbox the sender paused (a provider blamed our setup) sends again once resumed.
  app.post(
    '/v1/mailboxes/:id/resume',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['mailboxes'],
        summary: 'Resume a mailbox',
        description:
          'A paused mailbox (by the sender, a provider blamed its setup, or by an operator) sends again; audited with the reason.',
        response: { 200: MailboxSchema },
        params: IdParamsSchema,
        body: z
          .object({ reason: TextSchema.trim().min(1).max(500) })
          .strict()
          // Fastify hands a missing body over as null.
          .nullish(),
      },
    },
    async (req) => {
      const resumed = await deps.repos.mailboxes.resume(req.params.id);
      if (resumed) {
        await deps.repos.audit.write({
          actor: req.actor,
          action: 'mailbox.resumed',
          entityType: 'mailbox',
          entityId: req.params.id,
          data: { reason: req.body?.reason ?? 'not given' },
        });
      }
      return deps.repos.mailboxes.get(req.params.id);
    },
  );

  app.post(
    '/v1/mailbox-pools',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['mailboxes'],
        summary: 'Create a mailbox pool',
        description:
          'A named pool of mailboxes; a sequence using it sends each first touch from the member with the most room left today.',
        response: { 201: MailboxPoolSchema },
        body: MailboxPoolInputSchema,
      },
    },
    async (req, reply) => {
      const pool = await deps.repos.mailboxes.createPool(req.body.name, req.body.mailboxIds);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'mailbox_pool.created',
        entityType: 'mailbox_pool',
        entityId: pool.id,
      });
      return reply.code(201).send(pool);
    },
  );

  app.get(
    '/v1/mailbox-pools',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['mailboxes'],
        summary: 'List mailbox pools',
        description: 'Pools with their members, a page at a time (by id).',
        response: { 200: pageOf(MailboxPoolSchema) },
        querystring: PageQuerySchema,
      },
    },
    async (req) => {
      const items = await deps.reads.mailboxSettings.poolPage(req.query.limit, req.query.after);
      return page(items, req.query.limit, (p) => p.id);
    },
  );

  app.get(
    '/v1/mailbox-pools/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['mailboxes'],
        summary: 'One mailbox pool',
        description: 'A pool with its members.',
        response: { 200: MailboxPoolSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => deps.repos.mailboxes.getPool(req.params.id),
  );
};
