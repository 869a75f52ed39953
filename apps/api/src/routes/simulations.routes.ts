import { renderSvg } from '@touchbase/simulator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { SimulationRequestSchema, simulateCampaign } from '../use-cases/simulate-campaign.js';
import { ObjectSchema } from './schemas.js';

const DESCRIPTION =
  'A dry run on a virtual clock with the rules the live system uses (windows in the prospect zone, DST, ' +
  "the mailboxes' caps and spacing, pool choice, pacing, out-of-office pauses, the bounce guard), without " +
  'sending anything or changing any state. Give a sequence (steps and waits) or `sequenceId`, mailboxes or ' +
  '`mailboxIds` (a pool sequence defaults to its members), prospects (a count and a time-zone mix, a CSV ' +
  'text with a `timezone` column, or rows), the odds of reply, bounce and out-of-office per step, and a ' +
  'seed. Answers sends per day per mailbox and channel, the last touch, the share of touches delayed by ' +
  'windows and caps, the funnel per node, the day a domain would cross the bounce guard, and the binding ' +
  'constraint in words, from re-runs with more mailboxes. The same request gives the same answer.';

/** `POST /v1/simulations`: a campaign's dry run (read scope: it changes nothing). */
export const simulationsRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.post(
    '/v1/simulations',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['simulations'],
        summary: 'Simulate a campaign before it runs',
        description: DESCRIPTION,
        body: SimulationRequestSchema,
        querystring: z.object({
          picture: z
            .enum(['svg'])
            .optional()
            .describe('svg: add `picture`, the SVG of sends per day stacked by mailbox with the caps line'),
        }),
        response: { 200: ObjectSchema },
      },
    },
    async (req) => {
      const report = await simulateCampaign({ repos: deps.repos, clock: () => new Date() }, req.body);
      return req.query.picture === 'svg' ? { ...report, picture: renderSvg(report) } : report;
    },
  );
};
