import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { readFunnel } from '../use-cases/read-funnel.js';
import { FunnelRowSchema } from './response-schemas.js';
import { IdParamsSchema } from './schemas.js';

const RangeQuerySchema = z.object({
  from: z.coerce.date().optional().describe('Only enrollments started at or after this time (ISO 8601)'),
  to: z.coerce.date().optional().describe('Only enrollments started before this time (ISO 8601)'),
});

const FUNNEL_DESCRIPTION =
  'Counts of distinct enrollments: enrolled, sent (reached by the step), delivered, opened and clicked ' +
  '(null when the provider reports none), replied, positive replies (sentiment positive or class interested), ' +
  'bounced, unsubscribed (complaints included), exhausted; and rates over `sent`. Replies and engagement ' +
  'belong to the step whose message they answer (else the last step sent before them); bounces, ' +
  'unsubscribes and exhaustion to the last step sent. `from`/`to` select the enrollments started in that ' +
  'range, so every rate divides counts of the same people.';

const rows = (what: string) => z.array(FunnelRowSchema).describe(what);

/** `/v1/stats/funnel` and `/v1/sequences/:id/funnel`: the funnel per sequence, step, variant, mailbox, domain. */
export const statsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.get(
    '/v1/stats/funnel',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['stats'],
        summary: 'Funnel per sequence, step and A/B variant',
        description: FUNNEL_DESCRIPTION,
        response: {
          200: z.object({
            sequences: rows('Per sequence (`sequenceId`)'),
            steps: rows('Per sequence and step (`sequenceId`, `step`)'),
            variants: rows('Per sequence, step and A/B variant (`sequenceId`, `step`, `variant`)'),
          }),
        },
        querystring: RangeQuerySchema.extend({ sequenceId: z.uuid().optional() }),
      },
    },
    async (req) => {
      const r = await readFunnel(deps.reads, ['sequence', 'step', 'variant'], req.query);
      return { sequences: r.sequence, steps: r.step, variants: r.variant };
    },
  );

  app.get(
    '/v1/stats/funnel/mailboxes',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['stats'],
        summary: 'Funnel per sending mailbox and per sending domain',
        description: FUNNEL_DESCRIPTION,
        response: {
          200: z.object({
            mailboxes: rows('Per mailbox (`mailboxId`, `address`)'),
            domains: rows('Per sending domain (`domainId`, `domain`)'),
          }),
        },
        querystring: RangeQuerySchema.extend({ sequenceId: z.uuid().optional() }),
      },
    },
    async (req) => {
      const r = await readFunnel(deps.reads, ['mailbox', 'domain'], req.query);
      return { mailboxes: r.mailbox, domains: r.domain };
    },
  );

  app.get(
    '/v1/sequences/:id/funnel',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['stats'],
        summary: "One sequence's funnel: total, per step, per variant, per mailbox and per domain",
        description: FUNNEL_DESCRIPTION,
        response: {
          200: z.object({
            sequenceId: z.uuid(),
            total: FunnelRowSchema.nullable().describe('The whole sequence; null before anyone is enrolled'),
            steps: rows('Per step'),
            variants: rows('Per step and A/B variant'),
            mailboxes: rows('Per mailbox'),
            domains: rows('Per sending domain'),
          }),
        },
        params: IdParamsSchema,
        querystring: RangeQuerySchema,
      },
    },
    async (req) => {
      await deps.repos.sequences.get(req.params.id);
      const r = await readFunnel(deps.reads, ['sequence', 'step', 'variant', 'mailbox', 'domain'], {
        ...req.query,
        sequenceId: req.params.id,
      });
      return {
        sequenceId: req.params.id,
        total: r.sequence[0] ?? null,
        steps: r.step,
        variants: r.variant,
        mailboxes: r.mailbox,
        domains: r.domain,
      };
    },
  );
};
