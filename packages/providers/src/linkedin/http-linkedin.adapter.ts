import { HttpClient } from '../http/http-client.js';
import { linkedInCall } from './linkedin-http.js';
import {
  isLinkedInFailureReason,
  LinkedInActionError,
  type LinkedInActionResult,
  type LinkedInInvitationRequest,
  type LinkedInMessageRequest,
  type LinkedInSender,
  type LinkedInTarget,
} from './linkedin-sender.port.js';

export type HttpLinkedInOptions = {
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  timeoutMs: number;
  /** Names the provider in logs and events (`http`, `sandbox`). */
  name?: string;
};

/**
 * The generic HTTP LinkedIn contract: any LinkedIn tool (HeyReach, Expandi, a
 * PhantomBuster flow behind a small bridge) that speaks it sits behind touchbase.
 *
 * - `POST /v1/linkedin/invitations` `{ account_id, profile_url, note? }`,
 *   `POST /v1/linkedin/messages` `{ account_id, profile_url, text }` and
 *   `POST /v1/linkedin/profile-visits` `{ account_id, profile_url }` answer
 *   `{ id }` (2xx), the tool's id of what it did.
 * - Each carries `Idempotency-Key` (the touch's key): the same key again answers
 *   the first result and acts no more, so a retry never invites or writes twice.
 * - `Authorization: Bearer <token>`.
 * - A refusal is 4xx with `{ "reason": <reason>, "detail": "…" }`, `reason` one of
 *   `LinkedInFailureReason` (`profile_not_found`, `not_connectable`,
 *   `already_invited`, `already_connected`, `not_connected`, `account_restricted`,
 *   ...); 429 with Retry-After; 5xx for "try again".
 * - What happens later comes back signed with Standard Webhooks to
 *   `POST /webhooks/http` as the generic HTTP provider's events, with `channel:
 *   "linkedin"` and `linkedin_url`: `linkedin.connection_accepted`, `reply` (with
 *   `text`), `linkedin.invitation_failed` (with `reason`); `message_id` is the `id`
 *   the action answered.
 */
export class HttpLinkedInSender implements LinkedInSender {
  readonly name: string;
  readonly idempotent = true;
  private readonly http: HttpClient;

  constructor(private readonly opts: HttpLinkedInOptions) {
    this.name = opts.name ?? 'http';
    this.http = new HttpClient(opts.baseUrl, { name: `${this.name} linkedin`, timeoutMs: opts.timeoutMs });
  }

  sendInvitation(req: LinkedInInvitationRequest): Promise<LinkedInActionResult> {
    return this.post('/v1/linkedin/invitations', req, req.note ? { note: req.note } : {});
  }

  sendMessage(req: LinkedInMessageRequest): Promise<LinkedInActionResult> {
    return this.post('/v1/linkedin/messages', req, { text: req.text });
  }

  visitProfile(req: LinkedInTarget): Promise<LinkedInActionResult> {
    return this.post('/v1/linkedin/profile-visits', req, {});
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async post(
    path: string,
    req: LinkedInTarget,
    extra: Record<string, string>,
  ): Promise<LinkedInActionResult> {
    const body = await linkedInCall(
      this.http,
      {
        method: 'POST',
        path,
        headers: {
          authorization: `Bearer ${this.opts.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
          'idempotency-key': req.idempotencyKey,
        },
        body: JSON.stringify({ account_id: req.accountId, profile_url: req.profileUrl, ...extra }),
      },
      (_status, b) => (typeof b?.reason === 'string' && isLinkedInFailureReason(b.reason) ? b.reason : null),
    );
    if (typeof body?.id !== 'string' || body.id.length === 0) {
      // It answered 2xx, so it acted: in doubt rather than asked again.
      throw new LinkedInActionError(
        'provider_unavailable',
        `${this.name} linkedin: a 2xx answer without an id`,
        {
          notSent: false,
        },
      );
    }
    return { providerMessageId: body.id };
  }
}
