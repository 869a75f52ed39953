import { normalisedEmail, refuseUnsafeText, TextSchema, TimeZoneSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { EntitySchema, IdParamsSchema, noDuplicates, PageQuerySchema, PageSchema, page } from './schemas.js';

export const ProspectInputSchema = z
  .object({
    email: z.email().max(320),
    firstName: TextSchema.trim().max(200).optional(),
    lastName: TextSchema.trim().max(200).optional(),
    company: TextSchema.trim().max(200).optional(),
    /** The company's domain, when the address's is not it (a free-mail address); by default derived from the address. */
    companyDomain: TextSchema.trim()
      .max(253)
      .regex(/^(https?:\/\/)?(www\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+\.?\/?$/, 'a domain such as acme.com')
      .optional(),
    timezone: TimeZoneSchema.optional(),
    linkedinUrl: z.url().max(500).superRefine(refuseUnsafeText).optional(),
    /** HubSpot's record id of the contact (digits), so HubSpot's webhooks find the prospect. */
    hubspotId: z
      .string()
      .trim()
      .regex(/^[1-9][0-9]{0,19}$/, 'a HubSpot record id: digits only')
      .optional(),
    attributes: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/), TextSchema.max(2000)).optional(),
  })
  .strict();

/** Prospects of one request: an address (compared lower-cased) may appear once. */
export const ProspectListSchema = z
  .array(ProspectInputSchema)
  .superRefine(noDuplicates((p) => normalisedEmail(p.email), 'email'));

/** `/v1/prospects`: bulk JSON upsert by address, reads. */
export const prospectsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/prospects',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['prospects'],
        summary: 'Create or update prospects',
        description:
          'Upserts up to 10,000 prospects by address (compared lower-cased; each address once per request).',
        response: {
          200: z.looseObject({ prospects: z.array(z.looseObject({ id: z.string(), email: z.string() })) }),
        },
        body: z.object({ prospects: ProspectListSchema.min(1).max(10_000) }).strict(),
      },
    },
    async (req) => {
      const rows = await deps.repos.prospects.upsertMany(req.body.prospects);
      return { prospects: rows.map((r) => ({ id: r.id, email: r.email })) };
    },
  );

  app.get(
    '/v1/prospects',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['prospects'],
        summary: 'List or search prospects',
        description:
          'Prospects by id, a page at a time; with `q`, only those whose address, name or company contains it (case-insensitive).',
        response: { 200: PageSchema },
        querystring: PageQuerySchema.extend({
          q: TextSchema.trim()
            .min(2)
            .max(200)
            .optional()
            .describe('Search: part of an address, a first or last name (or both), or a company'),
        }),
      },
    },
    async (req) => {
      const items = await deps.reads.prospects.list(req.query.limit, req.query.after, req.query.q);
      return page(items, req.query.limit, (p) => p.id);
    },
  );

  app.get(
    '/v1/prospects/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['prospects'],
        summary: 'One prospect',
        description: 'A prospect with its names, zone and attributes.',
        response: { 200: EntitySchema },
        params: IdParamsSchema,
      },
    },
    async (req) => deps.repos.prospects.get(req.params.id),
  );
};
