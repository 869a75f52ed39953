import {
  ContactPolicySchema,
  DurationSchema,
  LinkedInCapsSchema,
  NodeIdSchema,
  SendingWindowSchema,
  SequenceGraphSchema,
  TimeZoneSchema,
  validateGraph,
} from '@touchbase/core';
import { z } from 'zod';

const Odds = z.number().min(0).max(1);

/**
 * Odds of an outcome after a touch: one number for every node, one per node in the
 * graph's order (a list shorter than the sequence repeats its last entry), or per
 * node by its id (a node not named: 0).
 */
export const StepOddsSchema = z.union([Odds, z.array(Odds).min(1).max(60), z.record(NodeIdSchema, Odds)]);

/** A step as the simulator needs it: the channel and the wait; copy is accepted and ignored. */
export const SimulatedStepSchema = z.object({
  channel: z.literal('email').default('email'),
  wait: DurationSchema.default('0s'),
  subject: z.string().optional(),
  body: z.string().optional(),
});

/** A sending identity's window, holidays and zone, with the row's defaults (a mailbox's or a LinkedIn account's). */
const WindowColumnsShape = {
  windowDays: z.array(z.number().int().min(1).max(7)).default([1, 2, 3, 4, 5]),
  windowStart: z.string().default('09:00'),
  windowEnd: z.string().default('17:00'),
  holidays: z.array(z.iso.date()).default([]),
  timezone: TimeZoneSchema.default('UTC'),
};

/** The check a mailbox or account row gets: a bad window would be a silent "never send". */
function checkWindow(
  m: { windowDays: number[]; windowStart: string; windowEnd: string },
  ctx: z.RefinementCtx,
): void {
  if (m.windowDays.length === 0) return;
  const parsed = SendingWindowSchema.safeParse({
    days: m.windowDays,
    start: m.windowStart,
    end: m.windowEnd,
  });
  if (parsed.success) return;
  const field: Record<string, string> = { days: 'windowDays', start: 'windowStart', end: 'windowEnd' };
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? 'windowEnd');
    ctx.addIssue({ code: 'custom', message: issue.message, path: [field[key] ?? key] });
  }
}

/** A mailbox as its row holds it: caps, window, holidays and zone (the row's defaults apply). */
export const SimulatedMailboxSchema = z
  .object({
    id: z.string().min(1).max(200).describe('A name for the mailbox in the output (its address, or a label)'),
    domain: z
      .string()
      .min(1)
      .max(253)
      .optional()
      .describe('Sending domain; defaults to the part of `id` after @'),
    perMinute: z.number().int().min(1).max(10_000).default(5),
    perHour: z.number().int().min(1).max(100_000).default(60),
    perDay: z.number().int().min(1).max(1_000_000).default(300),
    minSpacingMs: z.number().int().min(0).max(86_400_000).default(0),
    ...WindowColumnsShape,
  })
  .superRefine(checkWindow);

/**
 * A LinkedIn sending identity as its row holds it: caps per action (core's
 * `LinkedInCapsSchema`, defaults under LinkedIn's safe limits), and the window,
 * holidays and zone its actions go out in (core's `timingSourceFor`; the row's
 * defaults: weekdays 09:00-17:00 UTC).
 */
export const SimulatedLinkedInAccountSchema = z
  .object({
    id: z.string().min(1).max(200).describe('A name for the account in the output'),
    ...WindowColumnsShape,
  })
  .extend(LinkedInCapsSchema.shape)
  .superRefine(checkWindow);

/** A synthetic population: a size and a mix of time zones (weights, normalised). */
export const SyntheticProspectsSchema = z.object({
  count: z.number().int().min(1).max(200_000),
  timeZones: z
    .record(TimeZoneSchema, z.number().positive())
    .optional()
    .describe('Zone → weight, e.g. {"America/New_York": 3, "Europe/Berlin": 1}; none: the mailbox zone'),
});

/** A prospect list: a CSV text with a `timezone` column (or `time_zone`, `tz`), or rows. */
export const ProspectListSchema = z.union([
  z.object({ csv: z.string().min(1).max(50_000_000) }),
  z.object({
    list: z
      .array(
        z.object({
          id: z.string().optional().describe('The person; a person listed twice is enrolled once'),
          timezone: z.string().nullable().optional(),
          email: z
            .string()
            .max(320)
            .optional()
            .describe(
              "The address: its company domain (core's `companyDomainOf`) unless `companyDomain` names one",
            ),
          companyDomain: z
            .string()
            .max(253)
            .nullable()
            .optional()
            .describe("The person's company, by domain: the recipient-domain cap counts per company"),
          lastContactAt: z.iso
            .datetime({ offset: true })
            .nullable()
            .optional()
            .describe(
              'When another enrollment last touched the person (the API fills it for existing prospects): the cooldown counts from it',
            ),
          refusal: z
            .enum(['suppressed', 'cooling_off'])
            .optional()
            .describe(
              'Why enrolling refuses the person though exclusivity would not (the API fills it from the suppression list and the prospect): a suppressed address, or a person not to contact yet',
            ),
          liveIn: z
            .array(z.object({ sequenceId: z.string().min(1), exclusive: z.boolean() }))
            .max(100)
            .optional()
            .describe(
              'The sequences the person is live in now, and whether each is exclusive (the API fills it for existing prospects): exclusivity refuses them as enrolling does',
            ),
          enrolledInSequence: z
            .boolean()
            .optional()
            .describe(
              'Whether the person was ever enrolled in this sequence, live or ended (the API fills it for existing prospects): enrolling refuses them as already enrolled',
            ),
        }),
      )
      .min(1)
      .max(200_000),
  }),
]);

/** Everything a dry run needs; every field but the sequence, mailboxes and prospects has a default. */
export const SimulationInputSchema = z.object({
  start: z.iso
    .datetime({ offset: true })
    .describe('When the enrollment is made (ISO 8601); the virtual clock starts here'),
  seed: z.number().int().min(0).max(4_294_967_295).default(1),
  horizonDays: z.number().int().min(1).max(366).default(60),
  sequence: z
    .object({
      id: z
        .string()
        .optional()
        .describe('The sequence, when it exists: a person live in it is already enrolled'),
      name: z.string().max(200).optional(),
      exclusive: z
        .boolean()
        .default(true)
        .describe(
          "The contact policy's `exclusive`: a person live in another sequence is refused when either is exclusive",
        ),
      steps: z.array(SimulatedStepSchema).min(1).max(30).optional(),
      graph: SequenceGraphSchema.optional().describe(
        'A sequence version as a graph (nodes and edges with triggers), instead of `steps`',
      ),
      window: SendingWindowSchema.nullable()
        .optional()
        .describe("The sequence's own window (overrides the mailboxes')"),
      contactPolicy: ContactPolicySchema.omit({ exclusive: true })
        .default({ cooldownDays: 30, newPeoplePerDay: null, recipientDomainPerDay: null })
        .describe(
          "The contact policies the sender holds touches for (core's `contactHold`): the cooldown after another enrollment's touch, new people a day, touches a day per recipient company",
        ),
      countedToday: z
        .array(
          z.object({
            dayStart: z.iso
              .datetime({ offset: true })
              .describe("The start of the run's first day in a mailbox's zone"),
            firstTouches: z
              .number()
              .int()
              .min(0)
              .describe("The sequence's first touches the new-people cap counted"),
            domainTouches: z
              .record(z.string().max(253), z.number().int().min(0))
              .default({})
              .describe('Touches the recipient-domain cap counted, per company domain'),
          }),
        )
        .max(200)
        .default([])
        .describe(
          'What the day caps counted before the run starts, per day start (the API reads it for an existing sequence, by the query the sender counts with): the caps of that day start from it',
        ),
    })
    .superRefine((seq, ctx) => {
      if ((seq.steps === undefined) === (seq.graph === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'give exactly one of `steps` and `graph`', path: ['steps'] });
        return;
      }
      // The graph's own checks, as a version gets them: a graph that cannot run is refused, naming the node.
      for (const issue of seq.graph ? validateGraph(seq.graph) : [])
        ctx.addIssue({ code: 'custom', message: issue.message, path: ['graph', ...issue.path] });
    }),
  mailboxes: z.array(SimulatedMailboxSchema).min(1).max(200),
  linkedinAccounts: z
    .array(SimulatedLinkedInAccountSchema)
    .min(1)
    .max(200)
    .default(() => [SimulatedLinkedInAccountSchema.parse({ id: 'linkedin' })])
    .describe(
      "The LinkedIn accounts a graph's LinkedIn actions go out from, each under its caps (default: one account with the default caps)",
    ),
  assignment: z
    .enum(['pool', 'round-robin'])
    .default('pool')
    .describe(
      'pool: the first touch goes from the mailbox with most room (a pool sequence); round-robin: prospects split evenly, each enrolled on one mailbox',
    ),
  prospects: z.union([SyntheticProspectsSchema, ProspectListSchema]),
  odds: z
    .object({
      reply: StepOddsSchema.default(0.03),
      bounce: StepOddsSchema.default(0.01),
      outOfOffice: StepOddsSchema.default(0.02),
      open: StepOddsSchema.default(0).describe('Odds an e-mail is opened (an `opened` edge takes it)'),
      click: StepOddsSchema.default(0).describe(
        'Odds an e-mail is clicked (opened too; a `clicked` edge takes it)',
      ),
      accept: StepOddsSchema.default(0.3).describe('Odds a LinkedIn invitation is accepted'),
      failure: StepOddsSchema.default(0).describe(
        'Odds a LinkedIn action fails for good (profile not found: the `failed` edge, or on to another channel)',
      ),
    })
    .default({ reply: 0.03, bounce: 0.01, outOfOffice: 0.02, open: 0, click: 0, accept: 0.3, failure: 0 }),
  responseDelay: DurationSchema.default('2h').describe(
    'How long after a touch its reply, bounce or out-of-office arrives',
  ),
  pacingMs: z.number().int().min(0).max(3_600_000).default(500).describe('SCHEDULER_PACING_MS'),
  jitterMs: z.number().int().min(0).max(3_600_000).default(0).describe('SCHEDULER_JITTER_MS'),
  spacingJitter: z.number().min(0).max(5).default(0.3).describe('SENDER_SPACING_JITTER'),
  domainGuard: z
    .object({
      bounceThreshold: z.number().min(0).max(1).default(0.03),
      bounceWarnRatio: z.number().gt(0).max(1).default(0.8),
      minSends: z.number().int().min(1).default(50),
      windowDays: z.number().int().min(1).max(90).default(7),
    })
    .default({ bounceThreshold: 0.03, bounceWarnRatio: 0.8, minSends: 50, windowDays: 7 }),
  whatIf: z
    .object({
      extraMailboxes: z.array(z.number().int().min(1).max(50)).max(5).default([1, 2, 3]),
      extraLinkedInAccounts: z
        .array(z.number().int().min(1).max(50))
        .max(5)
        .default([1, 2, 3])
        .describe('Re-runs with this many more LinkedIn accounts (only when LinkedIn caps bind)'),
    })
    .default({ extraMailboxes: [1, 2, 3], extraLinkedInAccounts: [1, 2, 3] })
    .describe('Re-runs with this many more mailboxes like the last one, to name the binding constraint'),
});

export type SimulationInput = z.input<typeof SimulationInputSchema>;
export type SimulationSettings = z.output<typeof SimulationInputSchema>;
export type SimulatedMailbox = z.output<typeof SimulatedMailboxSchema>;
export type SimulatedStep = z.output<typeof SimulatedStepSchema>;
export type SimulatedLinkedInAccount = z.output<typeof SimulatedLinkedInAccountSchema>;
