import { JsonHttpClient, ourSetupWhenTextSays } from '../http/json-http-client.js';
import { hasTouchMarker, htmlWithMarker } from '../http/touch-marker.js';
import {
  type ProviderAdapter,
  ProviderError,
  type SendRequest,
  type SendResult,
  type TouchStatusAtProvider,
} from '../provider-adapter.js';

export type SmartleadOptions = {
  apiKey: string;
  /** https://server.smartlead.ai/api/v1 */
  baseUrl: string;
  timeoutMs: number;
};

// Smartlead's words when the sending account itself is at fault (disconnected,
// SMTP/IMAP login failing): pause our mailbox, do not blame the prospect.
const OUR_SETUP =
  /(email|mailbox|sending) account[^.]{0,40}(disconnected|not connected|inactive|suspended)|mailbox disconnected|smtp (authentication|login) failed|reconnect/i;

/**
 * Smartlead over its public API (https://api.smartlead.ai/reference, and the
 * earlier https://help.smartlead.ai/API-Documentation): base
 * `https://server.smartlead.ai/api/v1`, the API key as the `api_key` query
 * parameter on every call, a limit of 10 requests per 2 seconds (429 beyond).
 *
 * Smartlead sends from campaigns, so a mailbox names its campaign in
 * `providerConfig.campaignId`. That campaign has one step whose subject and body
 * are `{{touchbase_subject}}` and `{{touchbase_body}}`: touchbase decides the
 * copy and the timing, Smartlead delivers.
 *
 * - First touch: `POST /campaigns/{campaign_id}/leads` with
 *   `{ lead_list: [{ email, first_name, last_name, company_name, custom_fields }], settings }`
 *   (at most 400 leads per call; we send one). Smartlead refuses a lead already in
 *   the campaign, which is what makes a retry of this step safe.
 * - Follow-ups: `POST /campaigns/{campaign_id}/reply-email-thread` with
 *   `{ email_stats_id, email_body, reply_message_id, reply_email_time, reply_email_body }`,
 *   replying in the thread of the first message; its ids come from
 *   `GET /leads/?email=` and `GET /campaigns/{campaign_id}/leads/{lead_id}/message-history`.
 * - The reply call takes no idempotency key, so this adapter is not idempotent:
 *   each follow-up carries an HTML comment with its key, and `status()` looks for
 *   it in the message history before anything is sent again.
 */
export class SmartleadAdapter implements ProviderAdapter {
  readonly name = 'smartlead';
  readonly idempotent = false;
  private readonly client: JsonHttpClient;

  constructor(private readonly opts: SmartleadOptions) {
    this.client = new JsonHttpClient(opts.baseUrl, {
      name: 'smartlead',
      timeoutMs: opts.timeoutMs,
      classify: ourSetupWhenTextSays('smartlead', OUR_SETUP),
    });
  }

  async send(req: SendRequest): Promise<SendResult> {
    const campaignId = campaignOf(req);
    if (req.metadata.step === 1 || !req.conversationId) return this.addLead(req, campaignId);
    const thread = await this.thread(campaignId, req.to);
    const already = thread.history.find(
      (m) => m.type === 'SENT' && hasTouchMarker(m.email_body, req.idempotencyKey),
    );
    if (already) return { messageId: String(already.message_id ?? ''), conversationId: req.conversationId };
    const first = thread.history.find((m) => m.type === 'SENT');
    if (!first)
      throw new ProviderError(
        'retryable',
        'smartlead has not sent the first touch of this thread yet',
        undefined,
        { notSent: true },
      );
    const res = await this.call('POST', `/campaigns/${campaignId}/reply-email-thread`, {
      email_stats_id: first.stats_id,
      email_body: htmlWithMarker(req.body, req.idempotencyKey),
      reply_message_id: first.message_id,
      reply_email_time: first.time,
      reply_email_body: first.email_body,
      add_signature: true,
    });
    return { messageId: String(res.body?.message_id ?? ''), conversationId: req.conversationId };
  }

  /** Whether the touch of `idempotencyKey` reached Smartlead, looked up by the prospect it was for. */
  async status(idempotencyKey: string, req?: SendRequest): Promise<TouchStatusAtProvider> {
    if (!req) return { state: 'unknown' };
    try {
      const campaignId = campaignOf(req);
      if (req.metadata.step === 1 || !req.conversationId) {
        const lead = await this.lead(req.to);
        return lead
          ? { state: 'sent', result: { messageId: '', conversationId: String(campaignId) } }
          : { state: 'not_found' };
      }
      const thread = await this.thread(campaignId, req.to);
      const sent = thread.history.find(
        (m) => m.type === 'SENT' && hasTouchMarker(m.email_body, idempotencyKey),
      );
      return sent
        ? {
            state: 'sent',
            result: { messageId: String(sent.message_id ?? ''), conversationId: req.conversationId },
          }
        : { state: 'not_found' };
    } catch (err) {
      // When in doubt, do not resend: the caller logs why the provider could not say.
      return { state: 'unknown', reason: (err as Error).message };
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private async addLead(req: SendRequest, campaignId: string): Promise<SendResult> {
    const res = await this.call('POST', `/campaigns/${campaignId}/leads`, {
      lead_list: [
        {
          email: req.to,
          first_name: req.prospect?.firstName ?? '',
          last_name: req.prospect?.lastName ?? '',
          company_name: req.prospect?.company ?? '',
          custom_fields: {
            touchbase_subject: req.subject,
            touchbase_body: htmlWithMarker(req.body, req.idempotencyKey),
            touchbase_key: req.idempotencyKey,
            ...(req.unsubscribeUrl ? { touchbase_unsubscribe_url: req.unsubscribeUrl } : {}),
          },
        },
      ],
      settings: {
        // Smartlead's own block and unsubscribe lists stay in force beside ours.
        ignore_global_block_list: false,
        ignore_unsubscribe_list: false,
        ignore_duplicate_leads_in_other_campaign: true,
      },
    });
    const b = res.body ?? {};
    const added = Number(b.added_count ?? b.upload_count ?? 0);
    const alreadyThere = Number(b.already_added_to_campaign ?? 0);
    if (added > 0 || alreadyThere > 0) return { messageId: '', conversationId: String(campaignId) };
    // Skipped: on Smartlead's block list, unsubscribed there, or an address it calls invalid.
    throw new ProviderError(
      'permanent',
      `smartlead skipped the lead: ${JSON.stringify(b.skipped_leads ?? b).slice(0, 300)}`,
    );
  }

  private async lead(email: string): Promise<{ id: number | string } | null> {
    try {
      const res = await this.call('GET', '/leads/', undefined, { email });
      return res.body && res.body.id !== undefined ? res.body : null;
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'permanent') return null;
      throw err;
    }
  }

  private async thread(campaignId: string, email: string): Promise<{ history: SmartleadMessage[] }> {
    const lead = await this.lead(email);
    if (!lead) throw new ProviderError('permanent', 'smartlead does not know this lead');
    const res = await this.call(
      'GET',
      `/campaigns/${campaignId}/leads/${encodeURIComponent(String(lead.id))}/message-history`,
    );
    return { history: Array.isArray(res.body?.history) ? res.body.history : [] };
  }

  private call(method: 'GET' | 'POST', path: string, body?: unknown, query: Record<string, string> = {}) {
    return this.client.request({
      method,
      path,
      query: { ...query, api_key: this.opts.apiKey },
      ...(body === undefined ? {} : { body }),
    });
  }
}

type SmartleadMessage = {
  type?: string;
  stats_id?: string;
  message_id?: string;
  time?: string;
  email_body?: string;
  subject?: string;
};

function campaignOf(req: SendRequest): string {
  const id = req.mailboxConfig?.campaignId;
  if (id === undefined || id === null || id === '') {
    throw new ProviderError('our_setup', 'smartlead mailbox has no providerConfig.campaignId');
  }
  return encodeURIComponent(String(id));
}
