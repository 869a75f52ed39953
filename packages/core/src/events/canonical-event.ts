import { z } from 'zod';

/** The event types of DESIGN.md; providers' payloads are normalised to these. */
export const EventTypeSchema = z.enum([
  'reply',
  'bounce',
  'unsubscribe',
  'complaint',
  'out_of_office',
  'sent',
  'delivered',
  'opened',
  'clicked',
  'email_changed',
  'erasure_request',
  'crm.deal_lost',
  'crm.deal_won',
  'linkedin.connection_accepted',
]);
export type EventType = z.infer<typeof EventTypeSchema>;

/**
 * A provider event after normalisation. It names the prospect by whatever the
 * provider gives (our message id, the address, our enrollment id); ingest resolves it.
 */
export const CanonicalEventSchema = z.object({
  source: z.string().min(1),
  externalId: z.string().min(1).max(500),
  type: EventTypeSchema,
  occurredAt: z.coerce.date(),
  email: z.string().optional(),
  messageId: z.string().optional(),
  enrollmentId: z.uuid().optional(),
  channel: z.enum(['email', 'linkedin', 'phone', 'other']).default('email'),
  /** Reply class, when classified. */
  classification: z.string().optional(),
  sentiment: z.enum(['positive', 'negative', 'neutral']).optional(),
  bounce: z
    .object({ hard: z.boolean(), status: z.string().optional(), reason: z.string().optional() })
    .optional(),
  returnDate: z.string().optional(),
  newEmail: z.string().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type CanonicalEvent = z.infer<typeof CanonicalEventSchema>;
