import { z } from 'zod';
import { HttpClient, HttpTransportError } from '../http/http-client.js';

/** What became of one CRM update. */
export type CrmUpdateResult =
  | { kind: 'done' }
  /** The CRM has no such contact: nothing to update, do not retry. */
  | { kind: 'not_found' }
  /** 408, 429, 5xx, a timeout: try again later (`retryAfterMs` when the CRM said, in seconds or as a date). */
  | { kind: 'retry'; error: string; retryAfterMs?: number }
  /** Any other 4xx (400, 401, 403): retrying will not help. */
  | { kind: 'permanent'; error: string };

/** The CRM side of a hard bounce (mark the contact's address dead) and of a positive reply (mark the contact). */
export interface CrmAdapter {
  readonly name: string;
  markEmailInvalid(email: string, reason: string): Promise<CrmUpdateResult>;
  /** Marks the contact with a reply's class (`interested`, `meeting_request`). */
  markReplied(email: string, replyClass: string): Promise<CrmUpdateResult>;
  close(): Promise<void>;
}

export type HubspotCrmOptions = {
  /** https://api.hubapi.com, or a local server in tests. */
  baseUrl: string;
  /** A private app's access token (scopes crm.objects.contacts.write, and crm.objects.deals.read for deals). */
  accessToken: string;
  /** The contact property set on a hard bounce, and its value. */
  property: string;
  value?: string;
  /** The contact property set to a positive reply's class. */
  replyProperty?: string;
  timeoutMs?: number;
};

/**
 * HubSpot over HTTP: `PATCH /crm/v3/objects/contacts/{email}?idProperty=email` with
 * `{ properties: { [property]: value } }` (the v3 update-a-contact endpoint, which
 * identifies a contact by a unique property:
 * https://developers.hubspot.com/docs/api-reference/2026-03/crm/objects/contacts/update-contact).
 */
export class HubspotCrmAdapter implements CrmAdapter {
  readonly name = 'hubspot';
  private readonly http: HttpClient;

  constructor(private readonly opts: HubspotCrmOptions) {
    this.http = new HttpClient(opts.baseUrl, {
      name: 'hubspot',
      timeoutMs: opts.timeoutMs ?? 10_000,
      connections: 4,
    });
  }

  async markEmailInvalid(email: string, reason: string): Promise<CrmUpdateResult> {
    const res = await this.call(
      reason,
      'PATCH',
      `/crm/v3/objects/contacts/${encodeURIComponent(email)}?idProperty=email`,
      JSON.stringify({ properties: { [this.opts.property]: this.opts.value ?? 'hard_bounced' } }),
    );
    return res.kind === 'ok' ? { kind: 'done' } : res;
  }

  /** Sets the reply property (`touchbase_reply` unless configured) to the reply's class, by the same endpoint. */
  async markReplied(email: string, replyClass: string): Promise<CrmUpdateResult> {
    const res = await this.call(
      'reply',
      'PATCH',
      `/crm/v3/objects/contacts/${encodeURIComponent(email)}?idProperty=email`,
      JSON.stringify({ properties: { [this.opts.replyProperty ?? 'touchbase_reply']: replyClass } }),
    );
    return res.kind === 'ok' ? { kind: 'done' } : res;
  }

  /**
   * The contacts associated with a deal (`GET /crm/v4/objects/deals/{id}/associations/contacts`,
   * the v4 list of a record's associations, all pages:
   * https://developers.hubspot.com/docs/api-reference/crm-associations-v4/guide). HubSpot's
   * deal webhooks name the deal only; this is how a deal won or lost reaches the
   * sequences of the people on it. Needs the token's crm.objects.deals.read scope.
   */
  async dealContacts(dealId: string): Promise<DealContactsResult> {
    const contactIds: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_ASSOCIATION_PAGES; page++) {
      const query = `limit=500${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const res = await this.call(
        'deal contacts',
        'GET',
        `/crm/v4/objects/deals/${encodeURIComponent(dealId)}/associations/contacts?${query}`,
      );
      if (res.kind !== 'ok') return res.kind === 'not_found' ? { kind: 'found', contactIds: [] } : res;
      const parsed = AssociationsPageSchema.safeParse(safeJson(res.text));
      if (!parsed.success) {
        return {
          kind: 'permanent',
          error: `hubspot associations answer not understood: ${res.text.slice(0, 200)}`,
        };
      }
      contactIds.push(...parsed.data.results.map((r) => String(r.toObjectId)));
      after = parsed.data.paging?.next?.after;
      if (!after) return { kind: 'found', contactIds };
    }
    return { kind: 'found', contactIds };
  }

  /**
   * One request with the token; the answer classified as the CRM results are. `what`
   * names it in errors, never the path (a contact's path holds its address).
   */
  private async call(
    what: string,
    method: 'GET' | 'PATCH',
    path: string,
    body?: string,
  ): Promise<{ kind: 'ok'; text: string } | Exclude<CrmUpdateResult, { kind: 'done' }>> {
    let res: Awaited<ReturnType<HttpClient['exchange']>>;
    try {
      res = await this.http.exchange({
        method,
        path,
        headers: {
          authorization: `Bearer ${this.opts.accessToken}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body } : {}),
      });
    } catch (err) {
      if (!(err instanceof HttpTransportError)) throw err;
      return { kind: 'retry', error: err.message };
    }
    const { status, text } = res;
    if (res.kind === 'ok') return { kind: 'ok', text };
    if (status === 404) return { kind: 'not_found' };
    // The answer may echo a contact's address: it is stored and logged, so it goes.
    const answer = text.slice(0, 200).replace(/[^\s"'<>]+@[^\s"'<>]+/g, '<address>');
    const detail = `hubspot answered ${status} (${what}): ${answer}`;
    if (res.kind === 'permanent') return { kind: 'permanent', error: detail };
    return {
      kind: 'retry',
      error: detail,
      ...(res.retryAfterMs !== undefined ? { retryAfterMs: res.retryAfterMs } : {}),
    };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** What a deal's contacts lookup gave: their HubSpot record ids, or why not. */
export type DealContactsResult =
  | { kind: 'found'; contactIds: string[] }
  | Extract<CrmUpdateResult, { kind: 'retry' | 'permanent' }>;

/** A deal with more contacts than this many pages of 500 is a mailing list, not a deal. */
const MAX_ASSOCIATION_PAGES = 10;

const AssociationsPageSchema = z.object({
  results: z.array(z.object({ toObjectId: z.union([z.number(), z.string()]) })),
  paging: z.object({ next: z.object({ after: z.string() }).optional() }).optional(),
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (an HTML error page from a proxy): null fails the schema check and the
    // caller reports the answer as not understood, with its first 200 characters.
    return null;
  }
}
