import { DomainError, suppressionKeysOf, TextSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { SuppressionSchema } from './response-schemas.js';
import { IdParamsSchema } from './schemas.js';

/**
 * `DELETE /v1/suppressions/{id}` and `GET /v1/suppressions/check`. The list and
 * `POST` (which ends the live enrollments it names at once) are in lists.routes.ts.
 */
export const suppressionsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.get(
    '/v1/suppressions/check',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['suppressions'],
        summary: 'Whether an address may be contacted, and the entries that keep it from it',
        description:
          'Checks the address and its domain against the suppression list: `suppressed` and each matching entry.',
        querystring: z.object({ email: z.email().max(320) }).strict(),
        response: {
          200: z.object({
            suppressed: z.boolean(),
            matches: z
              .array(SuppressionSchema.omit({ createdAt: true }))
              .describe('Each entry the address or its domain matches'),
          }),
        },
      },
    },
    async (req) => {
      const matches = await deps.repos.suppressionStops.matching(suppressionKeysOf(req.query.email));
      return { suppressed: matches.length > 0, matches };
    },
  );

  app.delete(
    '/v1/suppressions/:id',
    {
      // Lets a suppressed (perhaps unsubscribed or erased) person be contacted again.
      config: { scope: 'admin' },
      schema: {
        tags: ['suppressions'],
        summary: 'Remove a suppression entry',
        description:
          'The address or domain may be contacted again. Audited with the kind and the reason, never the value. 204 on success.',
        params: IdParamsSchema,
        response: { 204: z.null().describe('Removed: no content, the answer has no body') },
        querystring: z.object({
          reason: TextSchema.trim().min(1).max(500).describe('Why: kept in the audit log'),
        }),
      },
    },
    async (req, reply) => {
      const removed = await deps.repos.suppressionStops.remove(req.params.id);
      if (!removed)
        throw new DomainError('not_found', 'suppression not found', { suppressionId: req.params.id });
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'suppression.removed',
        entityType: 'suppression',
        entityId: req.params.id,
        // The kind only: the value may be an address, which the audit log does not keep.
        data: { kind: removed.kind, reason: req.query.reason },
      });
      // Fastify writes no body with a 204 (RFC 9110); {} only satisfies the declared type.
      return reply.code(204).send(null);
    },
  );
};
