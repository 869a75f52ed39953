import { randomUUID } from 'node:crypto';
import { addressHash, TextSchema } from '@touchbase/core';
import { applyEvent } from '@touchbase/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { IdParamsSchema } from './schemas.js';

/** The `source` of the erasure events the API records. */
const API_SOURCE = 'api';

/**
 * `DELETE /v1/prospects/{id}`: erases a person as an `erasure_request` event does,
 * through the same use case (a synthetic event of source `api`): every sequence
 * ends, the person's rows go, only the sha-256 of the address stays on the
 * suppression list, pending jobs are removed. The operator's request is audited
 * under the hash, never the address.
 */
export const prospectErasureRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.delete(
    '/v1/prospects/:id',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['prospects'],
        summary: 'Erase a prospect (GDPR): same effect as an erasure_request event',
        description:
          'Every sequence of the person ends, their rows go, only the sha-256 of the address stays on the suppression list and pending jobs are removed. Audited under the hash, never the address.',
        params: IdParamsSchema,
        querystring: z.object({
          reason: TextSchema.trim().min(1).max(500).describe('Why: kept in the audit log'),
        }),
        response: {
          200: z.object({
            erased: z.literal(true),
            eventId: z.string().nullable(),
            enrollmentsEnded: z.number().int(),
          }),
        },
      },
    },
    async (req) => {
      const prospect = await deps.repos.prospects.get(req.params.id);
      const result = await applyEvent(
        { events: deps.repos.events, touchQueue: deps.touchQueue, logger: deps.logger },
        {
          source: API_SOURCE,
          // Random, not the prospect id: the event log keeps no link to the person.
          externalId: `erasure-${randomUUID()}`,
          type: 'erasure_request',
          occurredAt: new Date(),
          email: prospect.email,
          channel: 'email',
          data: {},
        },
      );
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'prospect.erasure_requested',
        entityType: 'prospect',
        entityId: `sha256:${addressHash(prospect.email)}`,
        data: { reason: req.query.reason, eventId: result.eventId, outcome: result.outcome },
      });
      return { erased: true as const, eventId: result.eventId, enrollmentsEnded: result.stopped.length };
    },
  );
};
