/** What an ops alert is about; one alert per change of state, never one per tick. */
export type OpsAlertKind =
  | 'domain.paused'
  | 'domain.resumed'
  | 'domain.threshold_approached'
  | 'account.paused'
  | 'account.resumed'
  | 'account.threshold_approached'
  /** A provider blamed our own setup (authentication, DMARC, a disconnected mailbox): the sender paused the mailbox. */
  | 'mailbox.paused'
  /** A sending domain's sequences complete less often than the floor (the reason says by how much). */
  | 'domain.completion_low'
  /** A prospect replied with a class whose sequence asks to be told (interested, meeting request by default). */
  | 'reply.received';

/**
 * An ops alert as the channels deliver it: what happened, to which sending domain
 * (none for the account-wide guard), the figures and thresholds behind it, and the
 * link to the domain's page in the API.
 */
export type OpsAlert = {
  /** Stable across retries: the generic webhook sends it as `webhook-id`, so receivers can deduplicate. */
  id: string;
  kind: OpsAlertKind;
  /** One line: `Sending domain example.com paused`. */
  title: string;
  /** The reason in plain words, with the figures (`paused because 17 of 402 sends bounced, ...`). */
  message: string;
  domain: { id: string; name: string } | null;
  /** The mailbox a `mailbox.*` alert is about. */
  mailbox?: { id: string; provider: string } | null;
  /** A reply's first lines (addresses and numbers masked), for `reply.received`; never written to the log. */
  excerpt?: string | null;
  figures: Record<string, number>;
  thresholds: Record<string, number>;
  link: string | null;
  createdAt: Date;
};

/** One way of telling ops: Slack, a signed webhook, the log. */
export interface AlertChannel {
  /** Stable name, recorded per delivery: `slack`, `webhook`, `log`. */
  readonly name: string;
  /** Delivers the alert; throws {@link AlertDeliveryError} when the channel refused or was unreachable. */
  send(alert: OpsAlert): Promise<void>;
}

/**
 * A channel did not take an alert. `permanent` when retrying cannot help (a 4xx
 * other than 408/429: a revoked or mistyped webhook); otherwise it is retried with backoff.
 */
export class AlertDeliveryError extends Error {
  override readonly name = 'AlertDeliveryError';

  constructor(
    readonly channel: string,
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}
