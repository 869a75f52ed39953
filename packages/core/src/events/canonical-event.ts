import { z } from 'zod';

/** The event types of docs/architecture.md#canonical-events; providers' payloads are normalised to these. */
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
  /** A CRM contact's lifecycle stage changed (`data.stage`): may reactivate the person. */
  'crm.lifecycle_stage',
  'linkedin.connection_accepted',
  /** A LinkedIn invitation the provider reports as failed after it was accepted for sending (`data.reason`). */
  'linkedin.invitation_failed',
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
  /** A LinkedIn profile URL naming the prospect (resolved through prospect_identity). */
  linkedinUrl: z.string().max(500).optional(),
  /** A CRM record id naming the prospect (resolved through prospect_identity, kind = source). */
  crmId: z.string().max(100).optional(),
  channel: z.enum(['email', 'linkedin', 'phone', 'other']).default('email'),
  /**
   * How the delivery proved where it came from: a signature over the body, or only
   * a per-endpoint secret token (absent: a signature, or our own pull with credentials).
   * Token deliveries may stop or pause, never start a send.
   */
  auth: z.enum(['signature', 'token']).optional(),
  /** Whether the message answers one of ours (In-Reply-To, a provider thread); false for a cold inbound. */
  inReply: z.boolean().optional(),
  /** Reply class, when classified. */
  classification: z.string().optional(),
  sentiment: z.enum(['positive', 'negative', 'neutral']).optional(),
  /** The classifier's rules that fired, in words: why the event got its class. */
  why: z.array(z.string().max(1000)).max(50).optional(),
  bounce: z
    .object({ hard: z.boolean(), status: z.string().optional(), reason: z.string().optional() })
    .optional(),
  returnDate: z.string().optional(),
  /** For a `wrong_person` reply: the address the writer points us to (stored as its hash). */
  referral: z.string().max(320).optional(),
  /** A reply's first lines, addresses and numbers masked, for a notification (never stored in the event log). */
  excerpt: z.string().max(400).optional(),
  newEmail: z.string().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type CanonicalEvent = z.infer<typeof CanonicalEventSchema>;
