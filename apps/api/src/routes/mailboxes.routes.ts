import { TimeZoneSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../app.js';
import { IdParamsSchema } from './schemas.js';

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm');

export const MailboxInputSchema = z
  .object({
    provider: z.string().min(1).max(50),
    address: z.email().max(320),
    perMinute: z.number().int().min(1).max(10_000).optional(),
    perHour: z.number().int().min(1).max(100_000).optional(),
    perDay: z.number().int().min(1).max(1_000_000).optional(),
    minSpacingMs: z.number().int().min(0).max(3_600_000).optional(),
    windowDays: z.array(z.number().int().min(1).max(7)).max(7).optional(),
    windowStart: HHMM.optional(),
    windowEnd: HHMM.optional(),
    timezone: TimeZoneSchema.optional(),
  })
  .strict();

/** `/v1/mailboxes`. */
export const mailboxesRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post('/v1/mailboxes', { schema: { tags: ['mailboxes'], body: MailboxInputSchema } }, async (req, reply) => {
    if (!deps.providerNames.includes(req.body.provider)) {
      return reply.code(400).type('application/problem+json').send({
        type: 'https://touchbase.dev/problems/validation_failed',
        title: 'Invalid request',
        status: 400,
        code: 'validation_failed',
        detail: `body.provider: unknown provider (known: ${deps.providerNames.join(', ')})`,
        errors: [{ field: 'body.provider', message: `unknown provider (known: ${deps.providerNames.join(', ')})` }],
      });
    }
    const mailbox = await deps.repos.mailboxes.create(req.body);
    await deps.repos.audit.write({ actor: req.actor, action: 'mailbox.created', entityType: 'mailbox', entityId: mailbox.id });
    return reply.code(201).send(mailbox);
  });

  app.get('/v1/mailboxes', { schema: { tags: ['mailboxes'] } }, async () => ({ items: await deps.repos.mailboxes.list() }));

  app.get('/v1/mailboxes/:id', { schema: { tags: ['mailboxes'], params: IdParamsSchema } }, async (req) =>
    deps.repos.mailboxes.get(req.params.id),
  );
};
