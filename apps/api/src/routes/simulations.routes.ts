import { renderSvg, type SimulationReport } from '@touchbase/simulator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { SimulationRequestSchema, simulateCampaign } from '../use-cases/simulate-campaign.js';

const int = () => z.number().int();
const DelaySchema = z.object({
  count: int().describe('Touches it delayed'),
  share: z.number().describe('Their share of all touches'),
  meanHours: z.number(),
  p90Hours: z.number(),
  maxHours: z.number(),
});

const LinkedInCountsSchema = z.object({ invitation: int(), message: int(), profile_visit: int() });
const WhatIfSchema = {
  lastTouchAt: z.iso.datetime().nullable(),
  finished: z.boolean(),
  daysSooner: z.number().nullable(),
};

/** The answer of a dry run (the simulator's SimulationReport). */
const SimulationReportSchema = z.object({
  input: z.object({
    seed: int(),
    start: z.iso.datetime(),
    horizonDays: int(),
    prospects: int(),
    steps: int(),
    mailboxes: z.array(
      z.object({ id: z.string(), domain: z.string(), perDay: int(), perHour: int(), perMinute: int() }),
    ),
    assignment: z.string().describe('How first touches pick a mailbox (`pool`, ...)'),
  }),
  summary: z.object({
    sends: int(),
    lastTouchAt: z.iso.datetime().nullable(),
    lastTouchDay: z.number().nullable().describe('Days from the start to the last touch'),
    finished: z.boolean().describe('Every enrollment ended within the horizon'),
    unfinished: int(),
    enrolled: int(),
    refused: z
      .object({
        alreadyEnrolled: int().describe('Listed twice, or live in this sequence already'),
        inOtherSequence: int().describe('Live in another sequence while either is exclusive'),
        suppressed: int().describe('A suppressed address (by address, domain or erased person)'),
        coolingOff: int().describe('A person not to contact before a later date'),
      })
      .describe('People of the input that enrolling refuses, as the live enrollment does'),
    replied: int(),
    bounced: int(),
    exhausted: int(),
  }),
  days: z.array(
    z.object({
      date: z.iso.date(),
      total: int(),
      byMailbox: z.record(z.string(), int()).describe('Sends per mailbox (by address)'),
      byChannel: z.record(z.string(), int()).describe('Sends per channel'),
      byLinkedInAction: LinkedInCountsSchema.optional().describe(
        'LinkedIn actions per kind, when the sequence has any',
      ),
      byLinkedInAccount: z
        .record(z.string(), int())
        .optional()
        .describe('LinkedIn actions per LinkedIn account (by name), when the sequence has any'),
    }),
  ),
  dailyCap: int().describe("The sum of the mailboxes' daily caps"),
  capUse: z.number().describe('Sends over the daily caps of the days that had any send'),
  mailboxes: z.array(z.object({ id: z.string(), sends: int(), busiestDay: int(), perDay: int() })),
  delays: z.object({
    touches: int(),
    byWindow: DelaySchema,
    byCaps: DelaySchema.describe("Touches delayed by their mailbox's caps (e-mails)"),
    byContactPolicy: DelaySchema.extend({
      holds: z
        .object({ cooldown: int(), new_people_cap: int(), recipient_domain_cap: int() })
        .describe('Holds by policy'),
    }).describe(
      "Touches held by the sequence's contact policies (cooldown, new people a day, recipient-domain cap)",
    ),
  }),
  linkedin: z
    .object({
      accounts: z.array(
        z.object({
          id: z.string(),
          sends: LinkedInCountsSchema,
          busiestDay: LinkedInCountsSchema,
          invitationsPerDay: int(),
          invitationsPerWeek: int(),
          messagesPerDay: int(),
          profileVisitsPerDay: int(),
        }),
      ),
      dailyCaps: LinkedInCountsSchema.describe("The accounts' daily caps per action, summed"),
      capLines: z
        .array(
          z.object({
            actions: z.array(z.enum(['invitation', 'message', 'profile_visit'])),
            value: int(),
          }),
        )
        .describe(
          "The picture's LinkedIn caps lines: the summed daily cap of each action the sequence takes, one per value",
        ),
      byCaps: DelaySchema.describe(
        "LinkedIn actions delayed by their account's caps (share of LinkedIn actions)",
      ),
      byCapsPerAction: z
        .object({ invitation: DelaySchema, message: DelaySchema, profile_visit: DelaySchema })
        .describe("The same per action (share of that action's)"),
    })
    .optional()
    .describe('The LinkedIn accounts under their caps, when the sequence has LinkedIn actions'),
  funnel: z.array(
    z.object({
      node: z.string(),
      action: z.string(),
      channel: z.string(),
      reached: int().describe('Enrollments whose touch at this node was made (done or failed)'),
      sent: int(),
      failed: int().describe('LinkedIn actions that failed for good here'),
      replied: int(),
      bounced: int(),
      outOfOffice: int(),
      opened: int(),
      clicked: int(),
      accepted: int(),
      edgesTaken: int().describe("Events after this node's touch that took one of its edges"),
      notYetSent: int().describe('Touches at this node not gone out by the horizon'),
    }),
  ),
  domains: z.array(
    z.object({
      domain: z.string(),
      sends: int(),
      bounces: int(),
      bounceRate: z.number(),
      warnsOn: z.iso.date().nullable().describe('The UTC day the guard would first warn'),
      crossesOn: z.iso.date().nullable().describe('The UTC day the guard would pause the domain'),
      crossesOnDay: z.number().nullable(),
    }),
  ),
  binding: z.object({
    constraint: z.enum(['caps', 'linkedin_caps', 'contact_policy', 'windows', 'waits', 'bounce_guard']),
    message: z.string(),
    whatIf: z.array(z.object({ extraMailboxes: int(), ...WhatIfSchema })),
    linkedinWhatIf: z
      .array(z.object({ extraAccounts: int(), ...WhatIfSchema }))
      .optional()
      .describe('Re-runs with more LinkedIn accounts (when their caps bind)'),
  }),
  picture: z.string().optional().describe('With `picture=svg`: the SVG of sends per day'),
});

const DESCRIPTION =
  'A dry run on a virtual clock with the rules the live system uses (windows in the prospect zone, DST, ' +
  "the mailboxes' caps and spacing, LinkedIn accounts' caps per action, pool choice, pacing, out-of-office " +
  'pauses, the contact policies (cooldown, new people a day, recipient-domain cap), the bounce guard; ' +
  'suppressed people refused as enrolling refuses them), without ' +
  'sending anything or changing any state. Give a sequence (steps and waits) or `sequenceId`, mailboxes or ' +
  '`mailboxIds` (a pool sequence defaults to its members), prospects (a count and a time-zone mix, a CSV ' +
  'text with a `timezone` column, or rows), the odds of reply, bounce and out-of-office per step, and a ' +
  'seed. Answers sends per day per mailbox and channel, the last touch, the share of touches delayed by ' +
  'windows and caps, the funnel per node, the day a domain would cross the bounce guard, and the binding ' +
  'constraint in words, from re-runs with more mailboxes. The same request gives the same answer.';

/** Both ways equal: a field the simulator adds to its report and this schema lacks fails the build. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaIsTheReport: Same<
  Omit<z.output<typeof SimulationReportSchema>, 'picture'>,
  SimulationReport
> = true;
void schemaIsTheReport;

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
            .describe(
              'svg: add `picture`, the SVG of sends per day stacked by mailbox with the caps line, and of LinkedIn actions per day stacked by account with their caps per action',
            ),
        }),
        response: { 200: SimulationReportSchema },
      },
    },
    async (req) => {
      const report = await simulateCampaign({ repos: deps.repos, clock: () => new Date() }, req.body);
      return req.query.picture === 'svg' ? { ...report, picture: renderSvg(report) } : report;
    },
  );
};
