import { z } from 'zod';

/** Reply classes a sequence may choose to go on after (`stopOnReply` off); never an unsubscribe or a complaint. */
export const ContinuableReplyClassSchema = z
  .string()
  .min(1)
  .refine((c) => c !== 'unsubscribe' && c !== 'complaint', {
    message: 'an unsubscribe or a complaint always ends the sequence',
  });

/**
 * What a reply of one class does besides ending (or not) the sequence, each field
 * defaulted to the class's own default, so a sequence that sets one field keeps the
 * class's defaults for the others.
 */
function actionSetSchema(defaults: { markCrm?: boolean; notify?: boolean; triageReferral?: boolean } = {}) {
  return z
    .object({
      /** Mark the contact in the CRM (through the CRM outbox, delivered after the commit). */
      markCrm: z.boolean().default(defaults.markCrm ?? false),
      /** Tell people (the alert channels: log, Slack, webhook) with the reply's first lines. */
      notify: z.boolean().default(defaults.notify ?? false),
      /** Months during which no sequence contacts the person again (null: none). */
      cooldownMonths: z.number().int().min(1).max(60).nullable().default(null),
      /** A referral the reply names ("please contact jane@...") goes to the triage list. */
      triageReferral: z.boolean().default(defaults.triageReferral ?? false),
    })
    .prefault({});
}

/** What a reply of one class does besides ending (or not) the sequence. */
export const ReplyActionSetSchema = actionSetSchema();
export type ReplyActionSet = z.infer<typeof ReplyActionSetSchema>;

const POSITIVE = { markCrm: true, notify: true };

/**
 * What each reply class does, per sequence (`policies.replyActions`). By default
 * every reply ends the sequence (`stopOnReply`); with it off, only the classes not
 * listed in `continueOn` end it. An unsubscribe ends and suppresses, always (it is
 * its own event type, never a reply class here). An out-of-office pauses until the
 * return date, or is ignored.
 */
export const ReplyActionsPolicySchema = z.object({
  stopOnReply: z.boolean().default(true),
  /** With `stopOnReply` off: the reply classes after which the sequence goes on (`unclassified` names a reply no classifier read). */
  continueOn: z.array(ContinuableReplyClassSchema).default([]),
  interested: actionSetSchema(POSITIVE),
  meeting_request: actionSetSchema(POSITIVE),
  not_interested: actionSetSchema(),
  wrong_person: actionSetSchema({ triageReferral: true }),
  /** Any other class (neutral, unclassified, a provider's own). */
  other: actionSetSchema(),
  outOfOffice: z.enum(['pause', 'ignore']).default('pause'),
});
export type ReplyActionsPolicy = z.infer<typeof ReplyActionsPolicySchema>;
