import {
  ConsentInputSchema,
  LegalBasisInputSchema,
  normalisedEmail,
  normalisedPhone,
  normaliseLinkedInProfileUrl,
  refuseUnsafeText,
  TextSchema,
  TimeZoneSchema,
} from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { ProspectRefSchema, ProspectSchema, pageOf } from './response-schemas.js';
import { IdParamsSchema, noDuplicates, PageQuerySchema, page } from './schemas.js';

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
    /** More addresses of the same person (identities: events from them find the person; touches go to `email`). */
    otherEmails: z.array(z.email().max(320)).max(20).optional(),
    /** A LinkedIn profile URL in any spelling; stored in core's one form. */
    linkedinUrl: z
      .string()
      .trim()
      .max(500)
      .superRefine(refuseUnsafeText)
      .refine((u) => normaliseLinkedInProfileUrl(u) !== null, 'a LinkedIn profile URL (linkedin.com/in/...)')
      .optional(),
    /** A phone number with its country code (`+49 30 1234567`); stored in E.164. */
    phone: z
      .string()
      .max(40)
      .refine(
        (p) => normalisedPhone(p) !== null,
        'a phone number with its country code, such as +49 30 1234567',
      )
      .optional(),
    /** Consent as recorded where the person came from: granted, denied, withdrawn (yes/no read too). */
    consent: ConsentInputSchema.optional(),
    /** The GDPR art. 6(1) basis for contacting the person: by name (legitimate_interests) or letter (f). */
    legalBasis: LegalBasisInputSchema.optional(),
    /** When the consent was given or refused (ISO 8601). */
    consentAt: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
    /** HubSpot's record id of the contact (digits), so HubSpot's webhooks find the prospect. */
    hubspotId: z
      .string()
      .trim()
      .regex(/^[1-9][0-9]{0,19}$/, 'a HubSpot record id: digits only')
      .optional(),
    attributes: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/), TextSchema.max(2000)).optional(),
  })
  .strict();

/**
 * Prospects of one request: an address (compared lower-cased) may appear once as a
 * row's own. Rows naming one person otherwise (the same LinkedIn URL, HubSpot id,
 * phone or another address of theirs) are merged into one prospect.
 */
export const ProspectListSchema = z
  .array(ProspectInputSchema)
  .superRefine(noDuplicates((p) => normalisedEmail(p.email), 'email'));

/** A row whose identities named more than one known prospect (`index` in the request, or the CSV line). */
export const ConflictSchema = z
  .object({ index: z.number().int(), prospectId: z.uuid(), otherProspectIds: z.array(z.uuid()) })
  .describe('Joined to prospectId; the identities held by the others stayed with them');

/** `/v1/prospects`: bulk JSON upsert by person, reads. */
export const prospectsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/prospects',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['prospects'],
        summary: 'Create or update prospects',
        description:
          'Upserts up to 10,000 prospects, one per person: a row naming a known identity (an address, the LinkedIn URL, the HubSpot id, the phone) updates that prospect and adds its other identities to it, and rows of one request sharing an identity are one prospect (the same id is answered for each). A row whose identities name two known prospects joins the first and is listed in `conflicts` (`POST /v1/prospects/{id}/merge` joins them).',
        response: {
          200: z.object({
            prospects: z.array(ProspectRefSchema).describe("Each row's person, in the order given"),
            conflicts: z.array(ConflictSchema),
          }),
        },
        body: z.object({ prospects: ProspectListSchema.min(1).max(10_000) }).strict(),
      },
    },
    async (req) => {
      const { prospects, conflicts } = await deps.repos.prospects.importMany(req.body.prospects);
      return { prospects: prospects.map((r) => ({ id: r.id, email: r.email })), conflicts };
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
        response: { 200: pageOf(ProspectSchema) },
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
        description:
          'A prospect with its names, zone, attributes, consent and legal basis, and every identity it is known by (addresses, LinkedIn URL, HubSpot id, phone).',
        response: { 200: ProspectSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => deps.repos.prospects.get(req.params.id),
  );
};
