import { LinkedInCapsSchema, normaliseLinkedInProfileUrl, TextSchema, TimeZoneSchema } from '@touchbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { LinkedInAccountSchema, pageOf } from './response-schemas.js';
import { IdParamsSchema, noDuplicates, PageQuerySchema, page } from './schemas.js';

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm');
const caps = LinkedInCapsSchema.shape;

/** The LinkedIn providers an account can belong to (the sandbox speaks the generic HTTP contract). */
export const LINKEDIN_PROVIDERS = ['unipile', 'http', 'sandbox'] as const;

export const LinkedInAccountInputSchema = z
  .object({
    provider: z
      .enum(LINKEDIN_PROVIDERS)
      .describe('unipile, http (the generic HTTP LinkedIn contract) or sandbox'),
    providerAccountId: TextSchema.trim()
      .min(1)
      .max(200)
      .describe("The account's id at the provider (Unipile's account_id, a tool's sender id)"),
    name: TextSchema.trim().min(1).max(200).describe('Whose account it is, for people'),
    profileUrl: z
      .string()
      .max(500)
      .transform((url, ctx) => {
        const normalised = normaliseLinkedInProfileUrl(url);
        if (!normalised)
          ctx.addIssue({ code: 'custom', message: 'not a LinkedIn profile URL (…/in/<slug>)' });
        return normalised ?? url;
      })
      .optional()
      .describe("The account's own profile URL; stored normalised"),
    invitationsPerDay: caps.invitationsPerDay.optional().describe('Connection requests a day (default 20)'),
    invitationsPerWeek: caps.invitationsPerWeek
      .optional()
      .describe('Connection requests a week (default 100)'),
    messagesPerDay: caps.messagesPerDay.optional().describe('Messages a day (default 50)'),
    profileVisitsPerDay: caps.profileVisitsPerDay.optional().describe('Profile visits a day (default 80)'),
    perHour: caps.perHour.optional().describe('Actions of one kind an hour (default 15)'),
    minSpacingMs: caps.minSpacingMs.optional().describe('Least gap between two actions (default 60000)'),
    windowDays: z
      .array(z.number().int().min(1).max(7))
      .max(7)
      .refine((days) => new Set(days).size === days.length, 'days must not repeat')
      .optional()
      .describe('ISO weekdays (1 = Monday) the account acts on; empty: any day and hour'),
    windowStart: HHMM.optional().describe('Local time the window opens (inclusive), default 09:00'),
    windowEnd: HHMM.optional().describe('Local time the window closes (exclusive), default 17:00'),
    holidays: z
      .array(z.iso.date())
      .max(366)
      .optional()
      .describe('Local dates on which the account does not act'),
    timezone: TimeZoneSchema.optional().describe('The zone of prospects that have none; default UTC'),
    poolIds: z
      .array(z.uuid())
      .max(100)
      .superRefine(noDuplicates((id) => id.toLowerCase()))
      .optional()
      .describe('Mailbox pools the account joins, so sequences of those pools can act on LinkedIn from it'),
  })
  .strict()
  .superRefine((a, ctx) => {
    if ((a.windowStart ?? '09:00') >= (a.windowEnd ?? '17:00')) {
      ctx.addIssue({ code: 'custom', path: ['windowEnd'], message: 'windowStart must be before windowEnd' });
    }
    if (a.invitationsPerDay !== undefined && a.invitationsPerWeek !== undefined) {
      if (a.invitationsPerDay > a.invitationsPerWeek) {
        ctx.addIssue({
          code: 'custom',
          path: ['invitationsPerDay'],
          message: 'invitationsPerDay cannot exceed invitationsPerWeek',
        });
      }
    }
  });

/** `/v1/linkedin-accounts`: LinkedIn sending identities, mailbox-like accounts with caps per action. */
export const linkedinAccountsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/linkedin-accounts',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['linkedin-accounts'],
        summary: 'Create a LinkedIn account',
        description:
          "A LinkedIn sending identity at a provider (Unipile, the generic HTTP contract, the sandbox): its caps per action (connection requests a day and a week, messages and profile visits a day; defaults under LinkedIn's safe limits), its window and zone, and the pools it sends from.",
        response: { 201: LinkedInAccountSchema },
        body: LinkedInAccountInputSchema,
      },
    },
    async (req, reply) => {
      const account = await deps.repos.linkedinAccounts.create(req.body);
      await deps.repos.audit.write({
        actor: req.actor,
        action: 'linkedin_account.created',
        entityType: 'linkedin_account',
        entityId: account.id,
      });
      return reply.code(201).send(account);
    },
  );

  app.get(
    '/v1/linkedin-accounts',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['linkedin-accounts'],
        summary: 'List LinkedIn accounts',
        description: 'LinkedIn accounts with their caps, window, status and pools, a page at a time (by id).',
        response: { 200: pageOf(LinkedInAccountSchema) },
        querystring: PageQuerySchema,
      },
    },
    async (req) => {
      const items = await deps.repos.linkedinAccounts.page(req.query.limit, req.query.after);
      return page(items, req.query.limit, (a) => a.id);
    },
  );

  app.get(
    '/v1/linkedin-accounts/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['linkedin-accounts'],
        summary: 'One LinkedIn account',
        description: 'A LinkedIn account with its caps, window, status and pools.',
        response: { 200: LinkedInAccountSchema },
        params: IdParamsSchema,
      },
    },
    async (req) => deps.repos.linkedinAccounts.get(req.params.id),
  );
};
