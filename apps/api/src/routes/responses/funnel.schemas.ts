import { z } from 'zod';

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
