/**
 * The CRM could not answer a question a webhook depends on (who is on a deal), for
 * now: it is down, timing out or rate limiting. Nothing is recorded; the webhook
 * is refused with 503 and Retry-After (the problem+json handler maps it), so the
 * CRM sends it again.
 */
export class CrmLookupUnavailableError extends Error {
  override readonly name = 'CrmLookupUnavailableError';
  readonly code = 'crm_unavailable';
  constructor(
    message: string,
    /** The wait the CRM asked for, when it said. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}
