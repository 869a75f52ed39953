import { z } from 'zod';
import { RetimeResultSchema } from '../../use-cases/retime-pending.js';
import { DateSchema, DateTimeSchema, MAILBOX_STATUSES } from './common.schemas.js';

const HEALTH_LEVELS = ['ok', 'approaching', 'over'] as const;

/** Figures of the domain guard's last tick, by name (bounce rate, sends, ...). */
const FiguresSchema = z
  .record(z.string(), z.unknown())
  .describe("The figures of the guard's last tick, by name (free-form: they follow the guard's rules)");

const domainFields = {
  id: z.uuid(),
  domain: z.string(),
  status: z.enum(MAILBOX_STATUSES),
  reason: z.string().nullable().describe('Why it is paused (or was last resumed)'),
  statusSince: DateTimeSchema.nullable(),
  pausedBy: z.string().nullable(),
  pauseKind: z.string().nullable().describe('`manual`, or the guard rule that paused it'),
  holdTouches: z.boolean().describe('A pause holds the touches of running sequences too'),
  healthLevel: z.enum(HEALTH_LEVELS),
  healthySince: DateTimeSchema.nullable(),
  checkedAt: DateTimeSchema.nullable(),
};

/** A sending domain as a mailbox carries it (the stored row). */
export const MailboxDomainSchema = z
  .object({
    ...domainFields,
    healthLevel: z.string().describe('ok, approaching or over (the stored row, typed as text)'),
    figures: z.unknown().describe("The figures of the guard's last tick (free-form: they follow its rules)"),
    completionLowSince: DateTimeSchema.nullable().describe(
      'Since when its completion rate is below the floor',
    ),
    countedFrom: DateTimeSchema.nullable().describe('The day a resume started counting afresh'),
    baseline: z.unknown().describe('The figures the guard compares with (free-form)'),
  })
  .meta({ id: 'MailboxDomain' });

export const MailboxSchema = z
  .object({
    id: z.uuid(),
    provider: z.string(),
    address: z.string().describe('The e-mail address'),
    domainId: z.uuid(),
    status: z.enum(MAILBOX_STATUSES),
    statusReason: z.string().nullable().describe('Why it is paused'),
    perMinute: z.number().int(),
    perHour: z.number().int(),
    perDay: z.number().int(),
    minSpacingMs: z.number().int(),
    windowDays: z.array(z.number().int()).describe('ISO weekdays (1 = Monday) it sends on'),
    windowStart: z.string().describe('HH:mm, local'),
    windowEnd: z.string().describe('HH:mm, local'),
    holidays: z.array(DateSchema),
    timezone: z.string(),
    providerConfig: z
      .unknown()
      .describe('Provider ids of the mailbox, by name (free-form: each provider names its own)'),
    createdAt: DateTimeSchema,
    domain: MailboxDomainSchema,
  })
  .meta({ id: 'Mailbox' });

/** What a change of window or caps did to the pending touches. */
export const MailboxRetimedSchema = MailboxSchema.extend({ retime: RetimeResultSchema });

export const MailboxUsageSchema = z
  .object({
    id: z.uuid(),
    address: z.string().describe('The e-mail address'),
    provider: z.string(),
    domain: z.string(),
    status: z.enum(MAILBOX_STATUSES),
    statusReason: z.string().nullable(),
    caps: z.object({ perMinute: z.number().int(), perHour: z.number().int(), perDay: z.number().int() }),
    used: z
      .object({ minute: z.number().int(), hour: z.number().int(), day: z.number().int() })
      .describe("Sends of the sender's sliding minute, hour and day windows"),
    sentToday: z.number().int().describe("Sends since midnight in the mailbox's zone"),
    lastSentAt: DateTimeSchema.nullable(),
  })
  .meta({ id: 'MailboxUsage' });

export const MailboxPoolSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: DateTimeSchema,
    members: z.array(z.object({ poolId: z.uuid(), mailboxId: z.uuid() })),
  })
  .meta({ id: 'MailboxPool' });

const DomainDaySchema = z.object({
  day: DateSchema,
  sends: z.number().int(),
  bounces: z.number().int(),
  complaints: z.number().int(),
  replies: z.number().int(),
  ended: z.number().int(),
  completed: z.number().int(),
});

const AlertDeliverySchema = z.object({
  channel: z.string(),
  status: z
    .enum(['pending', 'retrying', 'delivered', 'failed'])
    .describe('`retrying`: failed at least once, will be retried; `failed`: given up'),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  lastAttemptAt: DateTimeSchema.nullable(),
  deliveredAt: DateTimeSchema.nullable(),
});

export const AlertSchema = z
  .object({
    id: z.uuid(),
    kind: z.string().describe('e.g. `domain.paused`'),
    domainId: z.uuid().nullable(),
    domain: z.string().nullable(),
    message: z.string(),
    data: z.record(z.string(), z.unknown()).describe('What the alert carries (free-form, by kind)'),
    createdAt: DateTimeSchema,
    settledAt: DateTimeSchema.nullable(),
    deliveries: z.array(AlertDeliverySchema),
  })
  .meta({ id: 'Alert' });

/** A sending domain as listed. */
export const SendingDomainSchema = z
  .object({
    ...domainFields,
    figures: FiguresSchema.nullable(),
    countedFrom: DateSchema.nullable().describe('The day a resume started counting afresh'),
    mailboxes: z.number().int().describe('Its mailboxes'),
  })
  .meta({ id: 'SendingDomain' });

/** A sending domain with the enrollments held while it is paused and the days of the window. */
export const SendingDomainDetailSchema = SendingDomainSchema.extend({
  heldEnrollments: z.number().int(),
  days: z.array(DomainDaySchema).describe('The rollup of each UTC day of the window'),
}).meta({ id: 'SendingDomainDetail' });

export const LinkedInAccountSchema = z
  .object({
    id: z.uuid(),
    provider: z.string(),
    providerAccountId: z.string(),
    name: z.string(),
    profileUrl: z.string().nullable(),
    status: z.enum(MAILBOX_STATUSES),
    statusReason: z.string().nullable(),
    invitationsPerDay: z.number().int(),
    invitationsPerWeek: z.number().int(),
    messagesPerDay: z.number().int(),
    profileVisitsPerDay: z.number().int(),
    perHour: z.number().int(),
    minSpacingMs: z.number().int(),
    windowDays: z.array(z.number().int()),
    windowStart: z.string(),
    windowEnd: z.string(),
    holidays: z.array(DateSchema),
    timezone: z.string(),
    createdAt: DateTimeSchema,
    pools: z.array(z.object({ poolId: z.uuid() })),
  })
  .meta({ id: 'LinkedInAccount' });
