import {
  ENROLLMENT_STATUSES,
  LinkedInActionSchema,
  SendingWindowSchema,
  SequenceGraphSchema,
  SequenceStepSchema,
  WAITING_REASONS,
} from '@touchbase/core';
import { z } from 'zod';
import { DateTimeSchema } from './common.schemas.js';

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
    cap: z
      .enum(['minute', 'hour', 'day', 'week'])
      .optional()
      .describe(
        'Which cap is full (`mailbox_cap_reached`, `linkedin_cap_reached`; `week`: a LinkedIn account’s invitations)',
      ),
    detail: z
      .string()
      .optional()
      .describe('The recorded reason of a pause, of the mailbox, the domain or the LinkedIn account'),
    action: LinkedInActionSchema.optional().describe(
      'The LinkedIn action whose cap is full (`linkedin_cap_reached`)',
    ),
    linkedinAccount: z
      .object({
        id: z.uuid(),
        name: z.string(),
        chosen: z
          .boolean()
          .describe(
            'False: the enrollment has no LinkedIn account yet; this is the one the sender would choose now',
          ),
      })
      .optional()
      .describe('At a LinkedIn node: the LinkedIn account that acts, whose window and caps hold the touch'),
    window: z
      .object({
        days: z.array(z.number().int()).describe('ISO weekdays, 1 = Monday'),
        start: z.string(),
        end: z.string(),
        holidays: z.array(z.string()).optional(),
        timeZone: z
          .string()
          .describe('The zone its hours are read in: the prospect’s, else the LinkedIn account’s'),
      })
      .optional()
      .describe('The window waited for (`linkedin_window_closed`)'),
  })
  .meta({ id: 'Waiting' });

/** An enrollment with why it is not being sent (the waiting reads leave out `reactivatedFromId`). */
export const EnrollmentWaitingSchema = EnrollmentSchema.omit({ reactivatedFromId: true })
  .extend({
    reactivatedFromId: z.uuid().nullable().optional(),
    waiting: WaitingSchema.nullable().describe('Null once it has ended'),
  })
  .meta({ id: 'EnrollmentWaiting' });
