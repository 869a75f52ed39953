import { JsonHttpClient, ourSetupWhenTextSays } from '../http/json-http-client.js';
import { hasTouchMarker, htmlWithMarker } from '../http/touch-marker.js';
import {
  type ProviderAdapter,
  ProviderError,
  type SendRequest,
  type SendResult,
  type TouchStatusAtProvider,
} from '../provider-adapter.js';

export type LemlistOptions = {
  apiKey: string;
  /** https://api.lemlist.com/api */
  baseUrl: string;
  timeoutMs: number;
};

const OUR_SETUP =
  /mailbox[^.]{0,40}(disconnected|not connected|needs? (to be )?reconnect)|disconnected mailbox|reconnect your (mailbox|email)|sending (account|mailbox)[^.]{0,40}(paused|disabled|disconnected)/i;

/**
 * lemlist over its public API (https://developer.lemlist.com): base
 * `https://api.lemlist.com/api`, HTTP Basic authentication with an empty user
 * and the API key as the password, 20 requests per 2 seconds per key with
 * `Retry-After` on 429.
 *
 * A mailbox's `providerConfig` names its campaign (`campaignId`, whose first
 * step's copy is the lead variables `{{touchbaseSubject}}` / `{{touchbaseBody}}`)
 * and its lemlist sender (`sendUserId`, `sendUserMailboxId`).
 *
 * - First touch: `POST /campaigns/{campaignId}/leads/{email}?deduplicate=true`
 *   with the lead's fields and variables; answers the lead (`_id`, `contactId`).
 *   A lead already in the campaign is refused, which makes a retry safe; the
 *   refusal is resolved by looking the lead up (`GET /leads/{email}`).
 * - Follow-ups: `POST /inbox/email` with `{ sendUserId, sendUserEmail,
 *   sendUserMailboxId, contactId, leadId, subject, message }`, in the lead's
 *   conversation. It takes no idempotency key, so this adapter is not
 *   idempotent: each follow-up carries an HTML comment with its key, looked for
 *   in `GET /inbox/{contactId}` before anything is sent again.
 */
export class LemlistAdapter implements ProviderAdapter {
  readonly name = 'lemlist';
  readonly idempotent = false;
  private readonly client: JsonHttpClient;
  private readonly auth: string;

  constructor(opts: LemlistOptions) {
    this.auth = `Basic ${Buffer.from(`:${opts.apiKey}`).toString('base64')}`;
    this.client = new JsonHttpClient(opts.baseUrl, {
      name: 'lemlist',
      timeoutMs: opts.timeoutMs,
      classify: ourSetupWhenTextSays('lemlist', OUR_SETUP),
    });
  }

  async send(req: SendRequest): Promise<SendResult> {
    const cfg = configOf(req);
    if (req.metadata.step === 1 || !req.conversationId) return this.addLead(req, cfg.campaignId);
    const { leadId, contactId } = parseConversation(req.conversationId);
    const sent = await this.findSent(contactId, req.idempotencyKey);
    if (sent) return { messageId: sent, conversationId: req.conversationId };
    if (!cfg.sendUserId || !cfg.sendUserMailboxId) {
      throw new ProviderError(
        'our_setup',
        'lemlist mailbox has no providerConfig.sendUserId / sendUserMailboxId',
      );
    }
    await this.call('POST', '/inbox/email', {
      sendUserId: cfg.sendUserId,
      sendUserEmail: req.from,
      sendUserMailboxId: cfg.sendUserMailboxId,
      contactId,
      leadId,
      subject: req.subject,
      message: htmlWithMarker(req.body, req.idempotencyKey),
    });
    // lemlist answers `{ ok: true }` without the message's id.
    return { messageId: '', conversationId: req.conversationId };
  }

  async status(idempotencyKey: string, req?: SendRequest): Promise<TouchStatusAtProvider> {
    if (!req) return { state: 'unknown' };
    try {
      if (req.metadata.step === 1 || !req.conversationId) {
        const lead = await this.leadInCampaign(req.to, configOf(req).campaignId);
        return lead
          ? { state: 'sent', result: { messageId: '', conversationId: conversationOf(lead) } }
          : { state: 'not_found' };
      }
      const sent = await this.findSent(parseConversation(req.conversationId).contactId, idempotencyKey);
      return sent !== null
        ? { state: 'sent', result: { messageId: sent, conversationId: req.conversationId } }
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
    try {
      const res = await this.call(
        'POST',
        `/campaigns/${encodeURIComponent(campaignId)}/leads/${encodeURIComponent(req.to)}`,
        {
          firstName: req.prospect?.firstName ?? undefined,
          lastName: req.prospect?.lastName ?? undefined,
          companyName: req.prospect?.company ?? undefined,
          touchbaseSubject: req.subject,
          touchbaseBody: htmlWithMarker(req.body, req.idempotencyKey),
          touchbaseKey: req.idempotencyKey,
          ...(req.unsubscribeUrl ? { touchbaseUnsubscribeUrl: req.unsubscribeUrl } : {}),
        },
        { deduplicate: 'true' },
      );
      return { messageId: '', conversationId: conversationOf(res.body ?? {}) };
    } catch (err) {
      // "Lead already in the campaign": our own earlier attempt, or another tool's.
      if (err instanceof ProviderError && err.kind === 'permanent' && /already/i.test(err.message)) {
        const lead = await this.leadInCampaign(req.to, campaignId);
        if (lead) return { messageId: '', conversationId: conversationOf(lead) };
      }
      throw err;
    }
  }

  private async leadInCampaign(email: string, campaignId: string): Promise<Record<string, unknown> | null> {
    try {
      const res = await this.call('GET', `/leads/${encodeURIComponent(email)}`);
      const leads: Record<string, unknown>[] = Array.isArray(res.body)
        ? res.body
        : res.body
          ? [res.body]
          : [];
      return leads.find((l) => l.campaignId === campaignId) ?? null;
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'permanent') return null;
      throw err;
    }
  }

  /** The messageId of the sent message carrying the key's marker, '' when it has none, null when not found. */
  private async findSent(contactId: string, idempotencyKey: string): Promise<string | null> {
    const res = await this.call('GET', `/inbox/${encodeURIComponent(contactId)}`);
    const messages: Record<string, unknown>[] = Array.isArray(res.body?.data)
      ? res.body.data
      : Array.isArray(res.body)
        ? res.body
        : [];
    const found = messages.find((m) => m.type === 'emailsSent' && hasTouchMarker(m.message, idempotencyKey));
    return found ? String(found.messageId ?? '') : null;
  }

  private call(method: 'GET' | 'POST', path: string, body?: unknown, query: Record<string, string> = {}) {
    return this.client.request({
      method,
      path,
      query,
      headers: { authorization: this.auth },
      ...(body === undefined ? {} : { body }),
    });
  }
}

function configOf(req: SendRequest): { campaignId: string; sendUserId?: string; sendUserMailboxId?: string } {
  const c = req.mailboxConfig ?? {};
  if (typeof c.campaignId !== 'string' || c.campaignId === '') {
    throw new ProviderError('our_setup', 'lemlist mailbox has no providerConfig.campaignId');
  }
  return {
    campaignId: c.campaignId,
    ...(typeof c.sendUserId === 'string' ? { sendUserId: c.sendUserId } : {}),
    ...(typeof c.sendUserMailboxId === 'string' ? { sendUserMailboxId: c.sendUserMailboxId } : {}),
  };
}

/** Our conversation id for a lemlist lead: `{leadId}/{contactId}` (a follow-up needs both). */
function conversationOf(lead: Record<string, unknown>): string {
  return `${String(lead._id ?? '')}/${String(lead.contactId ?? '')}`;
}

function parseConversation(conversationId: string): { leadId: string; contactId: string } {
  const [leadId = '', contactId = ''] = conversationId.split('/');
  if (!leadId || !contactId)
    throw new ProviderError(
      'permanent',
      `lemlist conversation id "${conversationId}" lacks the lead or contact id`,
    );
  return { leadId, contactId };
}
