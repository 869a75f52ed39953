import { DomainError, TextSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { retimePending } from '../use-cases/retime-pending.js';
import { MailboxRetimedSchema, MailboxSchema } from './response-schemas.js';
import { IdParamsSchema } from './schemas.js';

const ReasonSchema = TextSchema.trim().min(1).max(500).describe('Why: kept in the audit log');

const CapsBodySchema = z
  .object({
    perMinute: z.number().int().min(1).max(10_000).optional(),
    perHour: z.number().int().min(1).max(100_000).optional(),
    perDay: z.number().int().min(1).max(1_000_000).optional(),
    minSpacingMs: z.number().int().min(0).max(3_600_000).optional(),
    reason: ReasonSchema,
  })
  .strict()
  .refine((b) => [b.perMinute, b.perHour, b.perDay, b.minSpacingMs].some((v) => v !== undefined), {
    message: 'name at least one of perMinute, perHour, perDay, minSpacingMs',
  });

/**
 * `PATCH /v1/mailboxes/{id}/caps`, `POST /v1/mailboxes/{id}/pause`,
 * `DELETE /v1/mailbox-pools/{id}`. The sender reads caps and the mailbox's status
 * at every take, so a change holds for the touches already pending. (Resume is
 * `POST /v1/mailboxes/{id}/resume`, in mailboxes.routes.ts.)
 */
export const mailboxSettingsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.patch(
    '/v1/mailboxes/:id/caps',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['mailboxes'],
        summary: "Change a mailbox's caps (per minute, hour, day, spacing)",
        description:
          'Sets the caps named (at least one); the sender reads them at every take, so pending touches follow them. Pending touches whose job a throttle wait under the old caps held past its due time are brought back to it at once (`retime` says how many). Audited with before, after and the reason.',
        params: IdParamsSchema,
        body: CapsBodySchema,
        response: { 200: MailboxRetimedSchema },
      },
    },
    async (req) => {
      const { reason, ...caps } = req.body;
      const r = await deps.repos.mailboxSettings.setCaps(req.params.id, caps);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'mailbox.caps_set',
        entityType: 'mailbox',
        entityId: req.params.id,
        data: { reason, before: r.before, after: r.after },
      });
      // Due times do not depend on caps; a job a throttle wait under the old caps held
      // past its due time comes back to it, and the sender takes a token under the new ones.
      const retime = await retimePending(
        deps,
        { mailboxId: req.params.id },
        { actor: req.actor, cause: 'caps' },
      );
      return { ...(await deps.repos.mailboxes.get(req.params.id)), retime };
    },
  );

  app.post(
    '/v1/mailboxes/:id/pause',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['mailboxes'],
        summary: 'Pause a mailbox: its touches are held until it is resumed',
        description:
          'The sender holds its touches until `POST /v1/mailboxes/{id}/resume`. Audited with the reason; 409 when it is not active.',
        params: IdParamsSchema,
        body: z.object({ reason: ReasonSchema }).strict(),
        response: { 200: MailboxSchema },
      },
    },
    async (req) => {
      const current = await deps.repos.mailboxes.get(req.params.id);
      if (!(await deps.repos.mailboxSettings.pause(req.params.id, req.body.reason))) {
        throw new DomainError('invalid_state', `mailbox is ${current.status}`, { status: current.status });
      }
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'mailbox.paused',
        entityType: 'mailbox',
        entityId: req.params.id,
        data: { reason: req.body.reason },
      });
      return deps.repos.mailboxes.get(req.params.id);
    },
  );

  app.delete(
    '/v1/mailbox-pools/:id',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['mailboxes'],
        summary: 'Delete a mailbox pool no sequence sends from',
        description: 'Refused (409) while a sequence sends from it. Audited with the reason. 204 on success.',
        params: IdParamsSchema,
        querystring: z.object({ reason: ReasonSchema }),
        response: { 204: z.null().describe('Deleted: no content, the answer has no body') },
      },
    },
    async (req, reply) => {
      await deps.repos.mailboxSettings.deletePool(req.params.id);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'mailbox_pool.deleted',
        entityType: 'mailbox_pool',
        entityId: req.params.id,
        data: { reason: req.query.reason },
      });
      // Fastify writes no body with a 204 (RFC 9110); {} only satisfies the declared type.
      return reply.code(204).send(null);
    },
  );
};
