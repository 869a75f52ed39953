/** Who acts and on whom: the provider's id of our LinkedIn account, and the prospect's profile URL. */
export type LinkedInTarget = {
  /** The account's id at the provider (Unipile's account id, a HeyReach sender id). */
  accountId: string;
  /** The prospect's profile URL, normalised (`normaliseLinkedInProfileUrl` of core). */
  profileUrl: string;
  /**
   * The touch's key, `{enrollmentId}-{node}-{attempt}`: the same for every retry of
   * one action. Providers that honour it (`idempotent`) never act twice for it.
   */
  idempotencyKey: string;
};

export type LinkedInInvitationRequest = LinkedInTarget & {
  /** The invitation's note; LinkedIn allows 300 characters (200 on free accounts). */
  note?: string | null;
};

export type LinkedInMessageRequest = LinkedInTarget & { text: string };

/** What a provider answers an action with: its id of what it did (invitation, message, visit). */
export type LinkedInActionResult = { providerMessageId: string };

/**
 * Why a LinkedIn action failed, as every adapter names it:
 *
 * - `profile_not_found`: no member at that URL (deleted, renamed, a typo);
 * - `not_connectable`: the member cannot be invited (invitations restricted to
 *   people who know their address, out of network, blocked);
 * - `already_invited`: an invitation is pending (LinkedIn refuses another for weeks);
 * - `already_connected`: the member is a 1st-degree connection already (a message fits, not an invitation);
 * - `not_connected`: a message to someone who is not (yet) a connection;
 * - `account_restricted`: LinkedIn restricted or disconnected our account, or its
 *   subscription lacks the feature: no prospect is at fault, the account must be looked at;
 * - `credentials_refused`: the provider refused our API key;
 * - `rate_limited`: the provider or LinkedIn asks to wait (`retryAfterMs`);
 * - `provider_unavailable`: 5xx, a timeout, a dropped connection: try again later;
 * - `invalid_request`: the provider refused the request's shape (a note too long).
 */
export const LINKEDIN_FAILURE_REASONS = [
  'profile_not_found',
  'not_connectable',
  'already_invited',
  'already_connected',
  'not_connected',
  'account_restricted',
  'credentials_refused',
  'rate_limited',
  'provider_unavailable',
  'invalid_request',
] as const;

/** {@link LINKEDIN_FAILURE_REASONS}: the reasons, each described above. */
export type LinkedInFailureReason = (typeof LINKEDIN_FAILURE_REASONS)[number];

const REASONS: ReadonlySet<string> = new Set(LINKEDIN_FAILURE_REASONS);

/** Whether a provider's text names one of our failure reasons (the generic contract answers ours). */
export function isLinkedInFailureReason(reason: string): reason is LinkedInFailureReason {
  return REASONS.has(reason);
}

const PERMANENT: ReadonlySet<LinkedInFailureReason> = new Set([
  'profile_not_found',
  'not_connectable',
  'already_invited',
  'already_connected',
  'not_connected',
  'account_restricted',
  'credentials_refused',
  'invalid_request',
]);

/** Failures that blame our account or setup, not the prospect: pause the account, do not fail the prospect's node. */
const OURS: ReadonlySet<LinkedInFailureReason> = new Set(['account_restricted', 'credentials_refused']);

/**
 * A LinkedIn action that did not happen, classified. `permanent`: trying again
 * cannot help (the enrollment takes the node's failure edge, or the account is
 * paused when `blamesAccount`); otherwise retry, after `retryAfterMs` when given.
 */
export class LinkedInActionError extends Error {
  override readonly name = 'LinkedInActionError';
  readonly permanent: boolean;
  /** The refusal is about our account or credentials, not the prospect. */
  readonly blamesAccount: boolean;
  /**
   * True when the provider certainly did not act (it refused before acting, or
   * answered 429); false when it may have (no answer after the request was sent):
   * the touch is then in doubt and a provider that is not idempotent must not be asked again.
   */
  readonly notSent: boolean;

  constructor(
    readonly reason: LinkedInFailureReason,
    message: string,
    opts: { retryAfterMs?: number; notSent?: boolean } = {},
  ) {
    super(message);
    this.permanent = PERMANENT.has(reason);
    this.blamesAccount = OURS.has(reason);
    this.notSent = opts.notSent ?? reason !== 'provider_unavailable';
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
  }

  /** How long to wait before the next try (rate_limited; a default of the adapter's when the provider named none). */
  readonly retryAfterMs?: number;
}

/**
 * The port the sender's graph walk calls for a LinkedIn node. Each call resolves
 * with the provider's id of what it did, or throws a {@link LinkedInActionError}.
 */
export interface LinkedInSender {
  /** `unipile`, `http`, `sandbox`: names the provider in logs and events. */
  readonly name: string;
  /**
   * Whether a second call with the same idempotency key is guaranteed not to act
   * twice. When false, an action in doubt (`notSent: false`) is never retried.
   */
  readonly idempotent: boolean;
  sendInvitation(req: LinkedInInvitationRequest): Promise<LinkedInActionResult>;
  sendMessage(req: LinkedInMessageRequest): Promise<LinkedInActionResult>;
  /** Opens the profile as the account (the member sees the visit, a soft first touch). */
  visitProfile(req: LinkedInTarget): Promise<LinkedInActionResult>;
  /** Releases the provider's connections. */
  close(): Promise<void>;
}
