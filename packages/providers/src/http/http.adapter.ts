import type {
  ProspectStatus,
  ProviderAdapter,
  SendRequest,
  SendResult,
  TouchStatusAtProvider,
} from '../provider-adapter.js';
import { ProviderError } from '../provider-adapter.js';
import { JsonHttpClient } from './json-http-client.js';

export type HttpProviderOptions = {
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  timeoutMs: number;
};

/**
 * The generic HTTP provider: any sending service that implements this small
 * contract can sit behind touchbase.
 *
 * - `POST /conversations` starts a thread with the first touch:
 *   `{ from, to, subject, body, metadata, unsubscribe_url }` → `{ conversation_id, message_id }`.
 * - `POST /conversations/{conversation_id}/messages` adds a follow-up to it:
 *   `{ from, to, subject, body, in_reply_to, metadata, unsubscribe_url }` → `{ message_id }`.
 * - Every send carries `Idempotency-Key: {enrollmentId}-{step}` (the IETF
 *   httpapi Idempotency-Key header): a provider that sees a key again answers
 *   with the first result and sends nothing, so a retry never sends twice.
 * - `GET /messages/{idempotency_key}` answers `{ message_id, conversation_id }` or 404.
 * - `GET /prospects/{email}/status` answers `{ status }`, one of `replied`,
 *   `bounced`, `unsubscribed` or `active` (404: a prospect it does not know); the
 *   sender asks just before each send, so a reply it saw first wins.
 * - Its events (reply, bounce, ...) come back to ingest signed with Standard
 *   Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
 * - Errors: 429 with Retry-After, 5xx for "try again", 4xx for "never"; a body
 *   `{ "error": { "code": "sender_unauthenticated" | "mailbox_disconnected" } }`
 *   blames our sending setup rather than the prospect.
 */
export class HttpProviderAdapter implements ProviderAdapter {
  readonly name = 'http';
  readonly idempotent = true;
  private readonly client: JsonHttpClient;

  constructor(private readonly opts: HttpProviderOptions) {
    this.client = new JsonHttpClient(opts.baseUrl, {
      name: 'http provider',
      timeoutMs: opts.timeoutMs,
      classify: (status, body) => {
        const code = body?.error?.code;
        if (status >= 400 && (code === 'sender_unauthenticated' || code === 'mailbox_disconnected')) {
          return new ProviderError(
            'our_setup',
            `http provider: ${code}: ${String(body?.error?.message ?? '')}`.slice(0, 300),
          );
        }
        return null;
      },
    });
  }

  async send(req: SendRequest): Promise<SendResult> {
    const common = {
      from: req.from,
      to: req.to,
      subject: req.subject,
      body: req.body,
      metadata: req.metadata,
      ...(req.unsubscribeUrl ? { unsubscribe_url: req.unsubscribeUrl } : {}),
    };
    const headers = { authorization: `Bearer ${this.opts.token}`, 'idempotency-key': req.idempotencyKey };
    if (!req.conversationId) {
      const res = await this.client.request({
        method: 'POST',
        path: '/conversations',
        headers,
        body: common,
      });
      return {
        messageId: String(res.body?.message_id ?? ''),
        conversationId: String(res.body?.conversation_id ?? ''),
      };
    }
    const res = await this.client.request({
      method: 'POST',
      path: `/conversations/${encodeURIComponent(req.conversationId)}/messages`,
      headers,
      body: { ...common, ...(req.inReplyTo ? { in_reply_to: req.inReplyTo } : {}) },
    });
    return { messageId: String(res.body?.message_id ?? ''), conversationId: req.conversationId };
  }

  async status(idempotencyKey: string): Promise<TouchStatusAtProvider> {
    try {
      const res = await this.client.request({
        method: 'GET',
        path: `/messages/${encodeURIComponent(idempotencyKey)}`,
        headers: { authorization: `Bearer ${this.opts.token}` },
      });
      return {
        state: 'sent',
        result: {
          messageId: String(res.body?.message_id ?? ''),
          conversationId: String(res.body?.conversation_id ?? ''),
        },
      };
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'permanent' && /\(404\)/.test(err.message))
        return { state: 'not_found' };
      // When in doubt, do not resend: the caller logs why the provider could not say.
      return { state: 'unknown', reason: (err as Error).message };
    }
  }

  async prospectStatus(req: SendRequest, opts: { timeoutMs: number }): Promise<ProspectStatus> {
    try {
      const res = await this.client.request({
        method: 'GET',
        path: `/prospects/${encodeURIComponent(req.to)}/status`,
        headers: { authorization: `Bearer ${this.opts.token}` },
        timeoutMs: opts.timeoutMs,
      });
      const status = res.body?.status;
      if (status === 'replied' || status === 'bounced' || status === 'unsubscribed') return status;
      return status === 'active' ? 'ok' : 'unknown';
    } catch (err) {
      // Nothing known of this prospect is nothing against sending; any other failure says nothing.
      if (err instanceof ProviderError && err.kind === 'permanent' && /\(404\)/.test(err.message))
        return 'ok';
      return 'unknown';
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
