import {
  CONSENT_STATES,
  ENROLLMENT_STATUSES,
  IDENTITY_KINDS,
  LEGAL_BASES,
  SendingWindowSchema,
  SequenceGraphSchema,
  SequenceStepSchema,
  SUPPRESSION_KINDS,
  WAITING_REASONS,
} from '@touchbase/core';
import { z } from 'zod';
import { API_SCOPES } from '../auth/api-scope.js';
import { RetimeResultSchema } from '../use-cases/retime-pending.js';

/*
 * The shapes the API answers. Each one several routes answer is registered with an id
 * (`.meta({ id })`): the OpenAPI document states it once, under components/schemas, and
 * the routes refer to it. Objects are `z.object`: the checking serializer
 * (plugins/response-serializer.ts) makes a field a handler answers and a schema lacks a
 * 500 in the tests, so a schema here names every field its routes answer.
 */

/**
 * A moment, answered as ISO 8601 (`2026-11-27T13:22:51.123Z`). Handlers give a Date
 * (serialised with toISOString) or, from a row PostgreSQL built as JSON, its ISO text.
 */
export const DateTimeSchema = z
  .union([z.date(), z.iso.datetime({ offset: true })])
  .describe('ISO 8601 date and time');

/** A local date `YYYY-MM-DD`. */
const DateSchema = z.iso.date();

const MAILBOX_STATUSES = ['active', 'paused'] as const;
const HEALTH_LEVELS = ['ok', 'approaching', 'over'] as const;

/** A list page: the items and the cursor of the next page (null at the end). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z
    .object({
      items: z.array(item),
      next: z.string().nullable().describe('The cursor of the next page (`after`), null at the end'),
    })
    .describe('A page of a list');
}

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

export const SequenceVersionSchema = z
  .object({
    id: z.uuid(),
    sequenceId: z.uuid(),
    version: z.number().int(),
    steps: z.array(SequenceStepSchema).describe('The e-mail steps it was given as (empty for a graph)'),
    graph: SequenceGraphSchema.describe('The graph it runs as (a list of steps runs as its chain)'),
  })
  .meta({ id: 'SequenceVersion' });

const sequenceFields = {
  id: z.uuid(),
  name: z.string(),
  createdAt: DateTimeSchema,
  mailboxPoolId: z.uuid().nullable(),
  sendingWindow: SendingWindowSchema.nullable(),
  policies: z
    .record(z.string(), z.unknown())
    .describe(
      'The policies as set, a merge patch of the defaults (free-form here: GET /v1/sequences/{id}/policies gives them whole and typed)',
    ),
};

export const SequenceSchema = z.object(sequenceFields).meta({ id: 'Sequence' });

export const SequenceDetailSchema = z
  .object({
    ...sequenceFields,
    versions: z.array(SequenceVersionSchema.extend({ createdAt: DateTimeSchema })),
  })
  .meta({ id: 'SequenceDetail' });

export const EnrollmentSchema = z
  .object({
    id: z.uuid(),
    prospectId: z.uuid(),
    sequenceId: z.uuid(),
    sequenceVersionId: z.uuid(),
    mailboxId: z.uuid(),
    status: z.enum(ENROLLMENT_STATUSES),
    currentStep: z.number().int().describe('The node (step) of its graph it is at, from 1'),
    currentAttempt: z
      .number()
      .int()
      .describe("Attempt of the current step's touch (2 or 3 after a soft bounce)"),
    nextTouchAt: DateTimeSchema.nullable(),
    conversationId: z.string().nullable(),
    firstMessageId: z.string().nullable(),
    stopReason: z.string().nullable(),
    reactivatedFromId: z.uuid().nullable().describe('The enrollment a reactivation started this one from'),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
  })
  .meta({ id: 'Enrollment' });

export const WaitingSchema = z
  .object({
    reason: z.enum(WAITING_REASONS),
    until: DateTimeSchema.nullable().describe('Null where only a person can end the wait'),
    variables: z.array(z.string()).optional().describe('The variables the copy lacks (`missing_variable`)'),
    cap: z.enum(['minute', 'hour', 'day']).optional().describe('Which cap is full (`mailbox_cap_reached`)'),
    detail: z.string().optional().describe('The recorded reason of a pause, of the mailbox or the domain'),
  })
  .meta({ id: 'Waiting' });

/** An enrollment with why it is not being sent (the waiting reads leave out `reactivatedFromId`). */
export const EnrollmentWaitingSchema = EnrollmentSchema.omit({ reactivatedFromId: true })
  .extend({
    reactivatedFromId: z.uuid().nullable().optional(),
    waiting: WaitingSchema.nullable().describe('Null once it has ended'),
  })
  .meta({ id: 'EnrollmentWaiting' });

export const ProspectSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    emailStatus: z.string().describe('`valid`, or why the address cannot be sent to'),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    company: z.string().nullable(),
    companyDomain: z.string().nullable(),
    timezone: z.string().nullable(),
    attributes: z
      .record(z.string(), z.string())
      .describe("The person's template variables (free-form names, as imported)"),
    consent: z.enum(CONSENT_STATES).nullable(),
    legalBasis: z.enum(LEGAL_BASES).nullable(),
    consentAt: DateTimeSchema.nullable(),
    linkedinUrl: z.string().nullable(),
    hubspotId: z.string().nullable(),
    phone: z.string().nullable().describe('E.164'),
    identities: z
      .array(z.object({ kind: z.enum(IDENTITY_KINDS), value: z.string() }))
      .describe('Every name the person is known by, their own address included'),
  })
  .meta({ id: 'Prospect' });

/** Prospects as an upsert answers them: the id of each row's person. */
export const ProspectRefSchema = z.object({ id: z.uuid(), email: z.string() }).meta({ id: 'ProspectRef' });

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

export const SuppressionSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(SUPPRESSION_KINDS),
    value: z.string().describe('The address, the domain, or the sha-256 of an erased address'),
    reason: z.string().nullable(),
    createdAt: DateTimeSchema,
  })
  .meta({ id: 'Suppression' });

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string().describe('The actor of the audit log'),
    scope: z.enum(API_SCOPES),
    createdAt: DateTimeSchema,
    lastUsedAt: DateTimeSchema.nullable().describe('To the minute'),
    revokedAt: DateTimeSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const TriageItemSchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid(),
    source: z.string(),
    kind: z.enum(['unknown_sender', 'cold_inbound', 'referral']),
    email: z.string().nullable(),
    classification: z.string().nullable(),
    why: z.array(z.string()).describe('The classifier rules that fired'),
    receivedAt: DateTimeSchema,
    resolvedAt: DateTimeSchema.nullable(),
  })
  .meta({ id: 'TriageItem' });

export const EventSchema = z
  .object({
    seq: z.number().int().describe('Its place in the log: the cursor'),
    id: z.uuid(),
    source: z.string(),
    externalId: z.string(),
    type: z.string(),
    prospectId: z.uuid().nullable(),
    enrollmentId: z.uuid().nullable(),
    receivedAt: DateTimeSchema,
    appliedAt: DateTimeSchema.nullable(),
    outcome: z.string().nullable(),
    classification: z.string().nullable(),
    why: z.array(z.string()).nullable(),
  })
  .meta({ id: 'Event' });

export const AuditEntrySchema = z
  .object({
    id: z.number().int().describe('Its place in the log: the cursor'),
    actor: z.string(),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string(),
    data: z.unknown().describe('What the action recorded (free-form, by action)'),
    at: DateTimeSchema,
  })
  .meta({ id: 'AuditEntry' });

/** One row of a funnel: unknown counts null, rates over `sent` (null with nothing sent). */
const funnelCounts = {
  enrolled: z.number().int().optional().describe('Absent where it means nothing (a step, a variant)'),
  sent: z.number().int(),
  delivered: z.number().int().nullable(),
  opened: z.number().int().nullable(),
  clicked: z.number().int().nullable(),
  replied: z.number().int(),
  positiveReplies: z.number().int(),
  bounced: z.number().int(),
  unsubscribed: z.number().int(),
  exhausted: z.number().int(),
  replyRate: z.number().nullable(),
  positiveReplyRate: z.number().nullable(),
  bounceRate: z.number().nullable(),
  unsubscribeRate: z.number().nullable(),
  openRate: z.number().nullable(),
  clickRate: z.number().nullable(),
};
export const FunnelRowSchema = z
  .object({
    ...funnelCounts,
    sequenceId: z.uuid().optional(),
    step: z.number().int().optional(),
    variant: z.number().int().optional(),
    mailboxId: z.uuid().optional(),
    address: z.string().optional(),
    domainId: z.uuid().optional(),
    domain: z.string().optional(),
  })
  .describe('The keys of its view (sequence, step, variant, mailbox, domain) and its counts')
  .meta({ id: 'FunnelRow' });
