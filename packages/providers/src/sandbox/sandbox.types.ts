/** What the sandbox answers a touch with (`bounce` is hard; `soft_bounce` is a full mailbox, 4.2.2). */
export type SandboxOutcome = 'reply' | 'bounce' | 'soft_bounce' | 'out_of_office' | 'none';

/** What the sandbox knows of an address, as its prospect-status endpoint answers. */
export type SandboxProspectStatus = 'replied' | 'bounced' | 'ok';

/** A delivered touch, as the sandbox's log keeps it. */
export type SandboxDelivery = {
  seq: number;
  idempotencyKey: string;
  messageId: string;
  conversationId: string;
  to: string;
  from: string;
  subject: string;
  body: string;
  inReplyTo: string | null;
  /** The one-click unsubscribe link the touch carried (its List-Unsubscribe), or null. */
  unsubscribeUrl: string | null;
  enrollmentId: string;
  step: number;
  at: string;
};

/**
 * How the sandbox retries a webhook ingest did not acknowledge: up to `attempts`
 * pushes, waiting `backoffMs * 2^n` (at most `maxBackoffMs`) between two. After the
 * last the push is given up; the event stays in the pull stream.
 */
export type SandboxWebhookRetry = { attempts: number; backoffMs: number; maxBackoffMs: number };

/** Like the providers it stands for: a dozen pushes over about half a minute. */
export const DEFAULT_SANDBOX_WEBHOOK_RETRY: SandboxWebhookRetry = {
  attempts: 12,
  backoffMs: 100,
  maxBackoffMs: 5_000,
};

/** One event of the sandbox's stream, with what became of its webhook. */
export type SandboxLoggedEvent = {
  seq: number;
  id: string;
  payload: SandboxEventPayload | SandboxLinkedInEventPayload;
  /** Pushes tried so far. */
  attempts: number;
  /** `pending` while pushes go on; `delivered` (a 2xx), `refused` (a final 4xx) or `given_up`. */
  push: 'pending' | 'delivered' | 'refused' | 'given_up';
  /** When ingest acknowledged it (2xx), if it did. */
  deliveredAt: string | null;
  /** Why the last push failed (`HTTP 503`, `ECONNREFUSED`), null when none did. */
  lastError: string | null;
};

export type SandboxOptions = {
  host?: string;
  port?: number;
  /** Ingest's sandbox webhook URL; may be set later with `setWebhookUrl`. */
  webhookUrl?: string;
  /** Signs the webhooks; also the Bearer token of the event stream (`GET /events`). */
  webhookSecret: string;
  /** Webhook retries; defaults to `DEFAULT_SANDBOX_WEBHOOK_RETRY`. */
  webhookRetry?: Partial<SandboxWebhookRetry>;
  odds?: { reply: number; bounce: number; outOfOffice: number };
  /** How its LinkedIn members behave (see SandboxLinkedIn); defaults to DEFAULT_SANDBOX_LINKEDIN. */
  linkedin?: Partial<SandboxLinkedInOptions>;
  /** Delay before an answer in real (uncompressed) ms; divided by timeScale. */
  eventDelayMs?: number;
  timeScale?: number;
  seed?: number;
};

/** The JSON body of a sandbox webhook. */
export type SandboxEventPayload = {
  id: string;
  type: 'reply' | 'bounce' | 'out_of_office';
  occurred_at: string;
  message_id: string;
  conversation_id: string;
  email: string;
  enrollment_id: string;
  step: number;
  text?: string;
  bounce?: { hard: boolean; status: string; diagnostic: string };
  return_date?: string;
};

/**
 * The JSON body of a sandbox LinkedIn webhook: the generic HTTP LinkedIn
 * contract's event (see HttpLinkedInSender) with its id; `message_id` is the id
 * the action answered.
 */
export type SandboxLinkedInEventPayload = {
  id: string;
  type: 'linkedin.connection_accepted' | 'reply' | 'linkedin.invitation_failed';
  occurred_at: string;
  channel: 'linkedin';
  linkedin_url: string;
  message_id: string;
  account_id: string;
  in_reply: boolean;
  text?: string;
  reason?: string;
};

/** How the sandbox's LinkedIn members behave, by seeded odds (a script per profile wins). */
export type SandboxLinkedInOptions = {
  /** Odds that an invitation is accepted (0 to 1). */
  acceptOdds: number;
  /** Delay before an acceptance in real ms (divided by timeScale); LinkedIn members take hours. */
  acceptDelayMs: number;
  /** Odds that a message gets an answer. */
  replyOdds: number;
  replyDelayMs: number;
  replyText?: string;
};
