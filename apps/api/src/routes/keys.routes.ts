import { DomainError } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { ApiKeyNameSchema } from '../auth/api-key.js';
import { API_SCOPES } from '../auth/api-scope.js';
import { createApiKey } from '../use-cases/create-api-key.js';
import { revokeApiKey } from '../use-cases/revoke-api-key.js';
import { ApiKeySchema, pageOf } from './response-schemas.js';
import { IdParamsSchema, PageQuerySchema, page } from './schemas.js';

/** `/v1/keys`: API keys, for the admin scope only (a key that can make keys can do anything). */
export const keysRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.get(
    '/v1/keys',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['keys'],
        summary: 'List API keys (never the keys themselves)',
        description: 'Keys with their name, scope and last use, in pages by id; never the keys themselves.',
        response: { 200: pageOf(ApiKeySchema) },
        querystring: PageQuerySchema.extend({
          includeRevoked: z
            .enum(['true', 'false'])
            .default('false')
            .transform((v) => v === 'true'),
        }),
      },
    },
    async (req) => {
      const { limit, after, includeRevoked } = req.query;
      const keys = await deps.repos.apiKeys.list({ includeRevoked, limit, after });
      return page(keys, limit, (k) => k.id);
    },
  );

  app.post(
    '/v1/keys',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['keys'],
        summary: 'Create an API key; the answer is the only time the key is shown',
        description:
          'A key with a scope (read, write or admin), shown in this answer only; its name is the actor of the audit log.',
        response: {
          201: ApiKeySchema.extend({
            key: z.string().describe('The key itself: shown in this answer only, then only its hash is kept'),
          }),
        },
        body: z.object({ name: ApiKeyNameSchema, scope: z.enum(API_SCOPES) }).strict(),
      },
    },
    async (req, reply) => {
      const { apiKey, key } = await createApiKey(deps, { ...req.body, actor: req.actor });
      return reply.code(201).send({ ...apiKey, key });
    },
  );

  app.post(
    '/v1/keys/:id/revoke',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['keys'],
        summary: 'Revoke an API key at once',
        description: 'Revokes the key at once, browser sessions included.',
        response: { 200: ApiKeySchema },
        params: IdParamsSchema,
      },
    },
    async (req) => {
      const revoked = await revokeApiKey(deps, { idOrName: req.params.id, actor: req.actor });
      if (!revoked)
        throw new DomainError('not_found', 'no live API key has this id', { keyId: req.params.id });
      return revoked;
    },
  );
};
