import { Pool } from 'undici';

/** What became of one CRM update. */
export type CrmUpdateResult =
  | { kind: 'done' }
  /** The CRM has no such contact: nothing to update, do not retry. */
  | { kind: 'not_found' }
  /** 429, 5xx, a timeout: try again later (`retryAfterMs` when the CRM said). */
  | { kind: 'retry'; error: string; retryAfterMs?: number }
  /** 400, 401, 403: retrying will not help. */
  | { kind: 'permanent'; error: string };

/** The CRM side of a hard bounce: mark the contact's address dead. */
export interface CrmAdapter {
  readonly name: string;
  markEmailInvalid(email: string, reason: string): Promise<CrmUpdateResult>;
  close(): Promise<void>;
}

export type HubspotCrmOptions = {
  /** https://api.hubapi.com, or a local server in tests. */
  baseUrl: string;
  /** A private app's access token (scope crm.objects.contacts.write). */
  accessToken: string;
  /** The contact property set on a hard bounce, and its value. */
  property: string;
  value?: string;
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
  private readonly pool: Pool;

  constructor(private readonly opts: HubspotCrmOptions) {
    this.pool = new Pool(opts.baseUrl, { connections: 4 });
  }

  async markEmailInvalid(email: string, reason: string): Promise<CrmUpdateResult> {
    const timeout = this.opts.timeoutMs ?? 10_000;
    let res: Awaited<ReturnType<Pool['request']>>;
    try {
      res = await this.pool.request({
        method: 'PATCH',
        path: `/crm/v3/objects/contacts/${encodeURIComponent(email)}?idProperty=email`,
        headers: { authorization: `Bearer ${this.opts.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ properties: { [this.opts.property]: this.opts.value ?? 'hard_bounced' } }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (err) {
      return { kind: 'retry', error: `hubspot unreachable: ${(err as Error).message}` };
    }
    const text = await res.body.text().catch(() => '');
    const status = res.statusCode;
    if (status >= 200 && status < 300) return { kind: 'done' };
    if (status === 404) return { kind: 'not_found' };
    // The answer may echo the contact's address: it is stored and logged, so it goes.
    const answer = text.slice(0, 200).replace(/[^\s"'<>]+@[^\s"'<>]+/g, '<address>');
    const detail = `hubspot answered ${status} (${reason}): ${answer}`;
    if (status === 429) {
      const after = Number(res.headers['retry-after']);
      return {
        kind: 'retry',
        error: detail,
        ...(Number.isFinite(after) ? { retryAfterMs: after * 1000 } : {}),
      };
    }
    if (status >= 500) return { kind: 'retry', error: detail };
    return { kind: 'permanent', error: detail };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
