import { z } from 'zod';
import { TemplateSchema } from '../templates/index.js';
import { TextSchema } from '../text/safe-text.js';
import { DurationSchema } from '../time/index.js';
import { StepVariantSchema } from './step-variant.js';

/** A node's name in its graph: what errors, the timeline and the funnel call it. */
export const NodeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'use 1 to 64 letters, digits, "_" or "-"')
  .describe('The node\'s name in its graph ("connect", "mail-2")');

const EmailNodeSchema = z
  .object({
    id: NodeIdSchema,
    action: z.literal('email'),
    subject: TemplateSchema.describe('Subject template; later e-mails reuse the first one sent as `Re: …`'),
    body: TemplateSchema,
    variants: z.array(StepVariantSchema).max(5).optional().describe('Extra A/B variants beside subject/body'),
  })
  .strict();

const LinkedInConnectNodeSchema = z
  .object({
    id: NodeIdSchema,
    action: z.literal('linkedin_connect'),
    note: TemplateSchema.optional().describe('The invitation note (LinkedIn caps it at 300 characters)'),
  })
  .strict();

const LinkedInMessageNodeSchema = z
  .object({ id: NodeIdSchema, action: z.literal('linkedin_message'), body: TemplateSchema })
  .strict();

const LinkedInVisitNodeSchema = z.object({ id: NodeIdSchema, action: z.literal('linkedin_visit') }).strict();

const ManualTaskNodeSchema = z
  .object({
    id: NodeIdSchema,
    action: z.literal('manual_task'),
    title: TextSchema.trim().min(1).max(200),
    instructions: TemplateSchema.optional(),
  })
  .strict();

const EndNodeSchema = z.object({ id: NodeIdSchema, action: z.literal('end') }).strict();

/** One action of a sequence graph, or its end. */
export const SequenceNodeSchema = z.discriminatedUnion('action', [
  EmailNodeSchema,
  LinkedInConnectNodeSchema,
  LinkedInMessageNodeSchema,
  LinkedInVisitNodeSchema,
  ManualTaskNodeSchema,
  EndNodeSchema,
]);

/**
 * What takes an edge. The timeouts (`no_reply`, `not_accepted`, `always`) fire when
 * their wait has run out since the node ran; the others fire on the prospect's
 * event (`failed`: the node's own action failed for good; `replied`: a person's
 * answer the sequence would otherwise end on, `takesRepliedEdge`).
 */
export const EDGE_TRIGGERS = [
  'replied',
  'no_reply',
  'connection_accepted',
  'not_accepted',
  'opened',
  'clicked',
  'always',
  'failed',
] as const;
export const EdgeTriggerSchema = z.enum(EDGE_TRIGGERS);

/** The triggers that fire by themselves when their wait runs out. */
export const TIMEOUT_TRIGGERS = ['no_reply', 'not_accepted', 'always'] as const;

export const SequenceEdgeSchema = z
  .object({
    from: NodeIdSchema,
    to: NodeIdSchema,
    trigger: EdgeTriggerSchema.describe(
      'What takes the edge. Timeouts, after `wait` since the node ran: `no_reply`, `not_accepted` (after a ' +
        'linkedin_connect), `always`. Events of the prospect, at once (then `wait` delays the next node): ' +
        "`connection_accepted`, `opened` and `clicked` (after an e-mail), `failed` (the node's LinkedIn action failed " +
        "for good), and `replied`: a person's answer on any channel (e-mail or LinkedIn; interested, " +
        "meeting_request, not_interested, wrong_person, neutral, unclassified...) that the sequence's reply " +
        "actions would end on moves the enrollment along this edge instead of ending it; the reply's other " +
        "actions (CRM mark, notification, referral triage, cooldown, colleagues' company-level stop) still apply. " +
        'Never an unsubscribe, a complaint, a bounce or an out-of-office, which keep their own actions. Without ' +
        'a `replied` edge, a reply ends the enrollment as always. At most one edge per trigger per node.',
    ),
    wait: DurationSchema.optional().describe(
      "A timeout's wait since the node ran; an event's delay before the next node (prospect's time, sender's window)",
    ),
  })
  .strict();

/**
 * A sequence version as a graph. The first node is where every enrollment starts;
 * node number n (1-based, the touch's `step`) is `nodes[n - 1]`, so a chain's
 * numbers are the step numbers of the list it came from.
 */
export const SequenceGraphSchema = z
  .object({
    nodes: z.array(SequenceNodeSchema).min(2).max(60),
    edges: z.array(SequenceEdgeSchema).min(1).max(240),
  })
  .strict();

export type SequenceNode = z.infer<typeof SequenceNodeSchema>;
export type SequenceAction = SequenceNode['action'];
export type EdgeTrigger = z.infer<typeof EdgeTriggerSchema>;
export type SequenceEdge = z.infer<typeof SequenceEdgeSchema>;
export type SequenceGraph = z.infer<typeof SequenceGraphSchema>;

/** The sending channel of a node's action; null for a manual task and an end. */
export function channelOf(action: SequenceAction): 'email' | 'linkedin' | null {
  if (action === 'email') return 'email';
  if (action === 'linkedin_connect' || action === 'linkedin_message' || action === 'linkedin_visit')
    return 'linkedin';
  return null;
}

/**
 * Whether the sender holds a due touch of `action` for a sending slot: its sending
 * identity's state, window, contact policies and caps (a mailbox's for an e-mail, a
 * LinkedIn account's for a LinkedIn action). A manual task waits for none of them:
 * once it is due and its instructions render, it is recorded for a person at once.
 * The sender and "why isn't it sending" (`waitingReason`) both decide by it.
 */
export function waitsForSendingSlot(action: SequenceAction): boolean {
  return channelOf(action) !== null;
}

/** Whether a trigger fires by itself once its wait has run out. */
export function isTimeout(trigger: EdgeTrigger): boolean {
  return (TIMEOUT_TRIGGERS as readonly string[]).includes(trigger);
}
