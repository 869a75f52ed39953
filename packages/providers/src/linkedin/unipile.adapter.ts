import { randomUUID } from 'node:crypto';
import { linkedInProfileSlug } from '@touchbase/core';
import { HttpClient } from '../http/http-client.js';
import { linkedInCall } from './linkedin-http.js';
import {
  LinkedInActionError,
  type LinkedInActionResult,
  type LinkedInFailureReason,
  type LinkedInInvitationRequest,
  type LinkedInMessageRequest,
  type LinkedInSender,
  type LinkedInTarget,
} from './linkedin-sender.port.js';

export type UnipileOptions = {
  /** `https://{YOUR_DSN}` (e.g. `https://api8.unipile.com:13851`); `/api/v1` is appended. */
  baseUrl: string;
  /** Sent as `X-API-KEY`. */
  apiKey: string;
  timeoutMs: number;
};

/**
 * Unipile's error `type` (RFC 7807 bodies: `errors/invalid_recipient` in v1,
 * `provider/...` or `api/...` in v2) by its last segment, as a failure reason.
 * From https://developer.unipile.com/reference (error responses) and the
 * invitation and chat routes' own refusals.
 */
const UNIPILE_TYPES: Record<string, LinkedInFailureReason> = {
  invalid_recipient: 'profile_not_found',
  resource_not_found: 'profile_not_found',
  invalid_resource_identifier: 'profile_not_found',
  user_unreachable: 'not_connectable',
  blocked_recipient: 'not_connectable',
  cannot_invite_attendee: 'not_connectable',
  already_invited_recently: 'already_invited',
  cannot_resend_yet: 'already_invited',
  already_connected: 'already_connected',
  no_connection_with_recipient: 'not_connected',
  account_restricted: 'account_restricted',
  disconnected_account: 'account_restricted',
  invalid_account: 'account_restricted',
  insufficient_permissions: 'account_restricted',
  feature_not_subscribed: 'account_restricted',
  insufficient_credits: 'account_restricted',
  session_mismatch: 'account_restricted',
  invalid_authorization: 'account_restricted',
  unknown_authentication_context: 'account_restricted',
  missing_credentials: 'credentials_refused',
  invalid_credentials: 'credentials_refused',
  too_many_requests: 'rate_limited',
  limit_exceeded: 'rate_limited',
  provider_unreachable: 'provider_unavailable',
  service_unavailable: 'provider_unavailable',
  request_timeout: 'provider_unavailable',
};

// biome-ignore lint/suspicious/noExplicitAny: Unipile's JSON is read field by field
function unipileReason(status: number, body: any): LinkedInFailureReason | null {
  const type = typeof body?.type === 'string' ? (body.type.split('/').pop() as string) : '';
  const known = UNIPILE_TYPES[type];
  if (known) return known;
  // Our API key refused (Unipile answers 401 without a provider error type).
  if (status === 401) return 'credentials_refused';
  return null;
}

/**
 * LinkedIn through Unipile (https://developer.unipile.com), the reference adapter:
 *
 * - the prospect's public slug becomes Unipile's provider id with
 *   `GET /api/v1/users/{slug}?account_id=…` (Unipile: "Retrieve a profile"); that
 *   call is also the profile visit (LinkedIn shows it to the member, `notify=true`);
 * - `POST /api/v1/users/invite` `{ provider_id, account_id, message? }` sends the
 *   invitation (note at most 300 characters) and answers its `invitation_id`;
 * - `POST /api/v1/chats` (multipart: `account_id`, `attendees_ids`, `text`) starts
 *   the 1:1 chat with the first message and answers `chat_id` and `message_id`;
 * - every call carries `X-API-KEY`; errors are RFC 7807 bodies whose `type` names
 *   the refusal (see `UNIPILE_TYPES`); 429 (Unipile's own per-method limits, or
 *   LinkedIn's) is rate_limited.
 *
 * Unipile takes no idempotency key: `idempotent` is false, so an action in doubt
 * (no answer after the request went out) is never repeated. A retried invitation
 * that went through the first time is refused as `already_invited`, never sent twice.
 * Accepted invitations and replies come back by webhook (`unipileWebhookProvider`).
 */
export class UnipileLinkedInSender implements LinkedInSender {
  readonly name = 'unipile';
  readonly idempotent = false;
  private readonly http: HttpClient;

  constructor(private readonly opts: UnipileOptions) {
    this.http = new HttpClient(`${opts.baseUrl.replace(/\/$/, '')}/api/v1`, {
      name: 'unipile',
      timeoutMs: opts.timeoutMs,
    });
  }

  async sendInvitation(req: LinkedInInvitationRequest): Promise<LinkedInActionResult> {
    const profile = await this.profile(req, false);
    if (profile.network_distance === 'FIRST_DEGREE' || profile.network_distance === 'DISTANCE_1') {
      throw new LinkedInActionError('already_connected', 'unipile: the member is a connection already');
    }
    const body = await linkedInCall(
      this.http,
      {
        method: 'POST',
        path: '/users/invite',
        headers: this.headers({ 'content-type': 'application/json' }),
        body: JSON.stringify({
          provider_id: profile.provider_id,
          account_id: req.accountId,
          ...(req.note ? { message: req.note.slice(0, 300) } : {}),
        }),
      },
      unipileReason,
    );
    return { providerMessageId: String(body?.invitation_id ?? `invitation-${profile.provider_id}`) };
  }

  async sendMessage(req: LinkedInMessageRequest): Promise<LinkedInActionResult> {
    const profile = await this.profile(req, false);
    const form = multipart({ account_id: req.accountId, attendees_ids: profile.provider_id, text: req.text });
    const body = await linkedInCall(
      this.http,
      {
        method: 'POST',
        path: '/chats',
        headers: this.headers({ 'content-type': form.contentType }),
        body: form.body,
      },
      unipileReason,
    );
    const id = body?.message_id ?? body?.chat_id;
    if (typeof id !== 'string' || id.length === 0) {
      // It answered 2xx, so the message went: in doubt rather than resent.
      throw new LinkedInActionError('provider_unavailable', 'unipile: the chat answer named no message', {
        notSent: false,
      });
    }
    return { providerMessageId: id };
  }

  async visitProfile(req: LinkedInTarget): Promise<LinkedInActionResult> {
    const profile = await this.profile(req, true);
    return { providerMessageId: `visit-${profile.provider_id}` };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The member behind the URL: its provider id and how far it is from our account. */
  private async profile(
    req: LinkedInTarget,
    notify: boolean,
  ): Promise<{ provider_id: string; network_distance?: string }> {
    const slug = linkedInProfileSlug(req.profileUrl);
    if (!slug) throw new LinkedInActionError('profile_not_found', 'not a LinkedIn profile URL');
    const body = await linkedInCall(
      this.http,
      {
        method: 'GET',
        path: `/users/${encodeURIComponent(slug)}`,
        query: { account_id: req.accountId, ...(notify ? { notify: true } : {}) },
        headers: this.headers(),
      },
      unipileReason,
    );
    if (typeof body?.provider_id !== 'string' || body.provider_id.length === 0) {
      throw new LinkedInActionError('profile_not_found', 'unipile: the profile has no provider id');
    }
    return { provider_id: body.provider_id, network_distance: body.network_distance };
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'x-api-key': this.opts.apiKey, accept: 'application/json', ...extra };
  }
}

/** A multipart/form-data body of text fields (Unipile's chat route takes no JSON). */
function multipart(fields: Record<string, string>): { contentType: string; body: string } {
  const boundary = `touchbase-${randomUUID()}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: `${parts.join('')}--${boundary}--\r\n`,
  };
}
