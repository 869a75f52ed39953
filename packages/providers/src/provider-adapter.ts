/** One outgoing touch as every provider receives it. */
export type SendRequest = {
  /**
   * `{enrollmentId}-{step}`: the same key for every retry of the same touch. A
   * resend after a soft bounce is another send and has its own key,
   * `{enrollmentId}-{step}-{attempt}`.
   */
  idempotencyKey: string;
  from: string;
  to: string;
  subject: string;
  body: string;
  /** The provider's conversation of the first touch; follow-ups stay in it. */
  conversationId?: string | null;
  /** RFC 5322 Message-ID of the first touch, for In-Reply-To/References. */
  inReplyTo?: string | null;
  metadata: { enrollmentId: string; step: number; prospectId: string };
  /** The prospect's name and company, for providers that keep their own lead record. */
  prospect?: { firstName?: string | null; lastName?: string | null; company?: string | null };
  /** The sending mailbox's provider settings (campaign ids, sender ids; never secrets, which come from the environment). */
  mailboxConfig?: Record<string, unknown>;
  /** The one-click unsubscribe link of this enrollment (RFC 8058), for providers that set List-Unsubscribe themselves. */
  unsubscribeUrl?: string | null;
};

export type SendResult = { messageId: string; conversationId: string };

/** What the provider knows of a touch we may or may not have handed over. */
export type TouchStatusAtProvider =
  | { state: 'sent'; result: SendResult }
  | { state: 'not_found' }
  | {
      state: 'unknown';
      /** Why the provider could not say (the lookup's error), for the caller's log. */
      reason?: string;
    };

/**
 * What the provider knows of a prospect, looked at just before a send: it saw a
 * reply, a bounce or an unsubscribe (the touch must not go out), nothing against
 * sending (`ok`), or it cannot say (`unknown`: the send goes on, our own fence holds).
 */
export type ProspectStatus = 'replied' | 'bounced' | 'unsubscribed' | 'ok' | 'unknown';

/**
 * `retryable`: 5xx, timeouts (retry with the same key); `rate_limited`: 429 (wait
 * `retryAfterMs`, not a failure); `permanent`: the provider refused this touch;
 * `our_setup`: the refusal blames our mailbox or domain, not the prospect.
 */
export type ProviderErrorKind = 'retryable' | 'rate_limited' | 'permanent' | 'our_setup';

/** A classified provider failure. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  /**
   * True when the provider certainly did not accept the touch (it answered 429, or
   * refused before taking the message): the claim can be released and the next
   * attempt sends afresh. False when it may have (a timeout after the request was
   * written): the next attempt resolves the touch as "in doubt".
   */
  readonly notSent: boolean;
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    opts: { notSent?: boolean } = {},
  ) {
    super(message);
    this.notSent = opts.notSent ?? (kind === 'rate_limited' || kind === 'our_setup' || kind === 'permanent');
  }
}

/** The interface every provider adapter implements. */
export interface ProviderAdapter {
  readonly name: string;
  /**
   * Whether a second `send` with the same idempotency key is guaranteed not to
   * deliver twice. When false, a touch in doubt is never resent.
   */
  readonly idempotent: boolean;
  send(request: SendRequest): Promise<SendResult>;
  /**
   * Optional lookup by idempotency key, to resolve a touch whose outcome is unknown.
   * `request` is the touch as it would be sent now, for providers that can only
   * look a message up by recipient or conversation.
   */
  status?(idempotencyKey: string, request?: SendRequest): Promise<TouchStatusAtProvider>;
  /**
   * Optional pre-send look at the provider's view of the prospect (`request.to`,
   * from `request.from`): a reply, bounce or unsubscribe it saw, and whose webhook
   * has not reached us (yet), wins over the touch. Never throws: a failure or a
   * timeout (`timeoutMs`) answers `unknown`.
   */
  prospectStatus?(request: SendRequest, opts: { timeoutMs: number }): Promise<ProspectStatus>;
}
