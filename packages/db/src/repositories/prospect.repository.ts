import { randomUUID } from 'node:crypto';
import { companyDomainOf, DomainError, normalisedEmail } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';

export type ProspectInput = {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  /** The company's domain, when the address's is not it (a free-mail address, a subsidiary); else derived. */
  companyDomain?: string | null;
  timezone?: string | null;
  attributes?: Record<string, string>;
  linkedinUrl?: string | null;
  /** The contact's HubSpot record id: how HubSpot's webhooks (deal won, opt-out, GDPR deletion) name the prospect. */
  hubspotId?: string | null;
};

export type ProspectRow = {
  id: string;
  email: string;
  emailStatus: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  /** The company the person belongs to, by domain (core's `companyDomainOf`); null for a free-mail address given no company. */
  companyDomain: string | null;
  timezone: string | null;
  attributes: Record<string, string>;
};

const COLUMNS = `id, email, email_status AS "emailStatus", first_name AS "firstName", last_name AS "lastName",
  company, company_domain AS "companyDomain", timezone, attributes`;

/** A prospect as read back: its row, and the other names webhooks may give it by. */
export type ProspectView = ProspectRow & { linkedinUrl: string | null; hubspotId: string | null };

const identity = (kind: string) =>
  `(SELECT i.value FROM prospect_identity i WHERE i.prospect_id = prospect.id AND i.kind = '${kind}' ORDER BY i.value LIMIT 1)`;
const VIEW_COLUMNS = `${COLUMNS}, ${identity('linkedin')} AS "linkedinUrl", ${identity('hubspot')} AS "hubspotId"`;

/** Prospects and their identities. Addresses are stored lower-cased. */
export class ProspectRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Inserts or updates by address, and links the identities given (LinkedIn, HubSpot),
   * in one transaction; returns the rows in input order.
   */
  async upsertMany(inputs: ProspectInput[]): Promise<ProspectRow[]> {
    if (inputs.length === 0) return [];
    return inTransaction(this.pool, (client) => this.upsertManyIn(client, inputs));
  }

  private async upsertManyIn(client: pg.PoolClient, inputs: ProspectInput[]): Promise<ProspectRow[]> {
    const emails = inputs.map((p) => normalisedEmail(p.email));
    const { rows } = await client.query<ProspectRow>(
      `INSERT INTO prospect (id, email, first_name, last_name, company, timezone, attributes, company_domain)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::text[])
       ON CONFLICT (email) DO UPDATE SET
         first_name = COALESCE(EXCLUDED.first_name, prospect.first_name),
         last_name = COALESCE(EXCLUDED.last_name, prospect.last_name),
         company = COALESCE(EXCLUDED.company, prospect.company),
         timezone = COALESCE(EXCLUDED.timezone, prospect.timezone),
         attributes = prospect.attributes || EXCLUDED.attributes,
         company_domain = COALESCE(EXCLUDED.company_domain, prospect.company_domain)
       RETURNING ${COLUMNS}`,
      [
        inputs.map(() => randomUUID()),
        emails,
        inputs.map((p) => p.firstName ?? null),
        inputs.map((p) => p.lastName ?? null),
        inputs.map((p) => p.company ?? null),
        inputs.map((p) => p.timezone ?? null),
        inputs.map((p) => JSON.stringify(p.attributes ?? {})),
        // Given explicitly (a domain in `companyDomain`, or a `company` written as one), else the address's.
        inputs.map((p, i) => companyDomainOf(emails[i]!, p.companyDomain ?? p.company)),
      ],
    );
    // The other names a webhook may give the prospect by. One already held by another
    // prospect stays there: a re-import never moves where a deletion request lands.
    const identities = inputs.flatMap((p, i) => [
      ...(p.linkedinUrl ? [{ email: emails[i]!, kind: 'linkedin', value: p.linkedinUrl }] : []),
      ...(p.hubspotId ? [{ email: emails[i]!, kind: 'hubspot', value: p.hubspotId }] : []),
    ]);
    const byEmail = new Map(rows.map((r) => [r.email, r]));
    if (identities.length > 0) {
      await client.query(
        `INSERT INTO prospect_identity (id, prospect_id, kind, value)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) ON CONFLICT (kind, value) DO NOTHING`,
        [
          identities.map(() => randomUUID()),
          identities.map((l) => byEmail.get(l.email)!.id),
          identities.map((l) => l.kind),
          identities.map((l) => l.value),
        ],
      );
    }
    return emails.map((e) => byEmail.get(e)!);
  }

  async get(id: string): Promise<ProspectView> {
    const { rows } = await this.pool.query<ProspectView>(
      `SELECT ${VIEW_COLUMNS} FROM prospect WHERE id = $1`,
      [id],
    );
    if (!rows[0]) throw new DomainError('not_found', 'prospect not found', { prospectId: id });
    return rows[0];
  }

  async findByEmail(email: string): Promise<ProspectView | null> {
    const { rows } = await this.pool.query<ProspectView>(
      `SELECT ${VIEW_COLUMNS} FROM prospect WHERE email = $1`,
      [normalisedEmail(email)],
    );
    return rows[0] ?? null;
  }

  /**
   * Prospects by id, a page at a time; with `q`, only those whose address, name
   * (first, last, or both in either order) or company contains it, case-insensitive.
   * A scan of the table: a console search, not a hot path.
   */
  async list(limit: number, after?: string, q?: string): Promise<ProspectView[]> {
    // LIKE's own wildcards in what the person typed are literal characters.
    const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const { rows } = await this.pool.query<ProspectView>(
      `SELECT ${VIEW_COLUMNS} FROM prospect
        WHERE ($1::uuid IS NULL OR id > $1)
          AND ($3::text IS NULL OR email ILIKE $3 OR company ILIKE $3 OR first_name ILIKE $3 OR last_name ILIKE $3
               OR concat_ws(' ', first_name, last_name) ILIKE $3 OR concat_ws(' ', last_name, first_name) ILIKE $3)
        ORDER BY id LIMIT $2`,
      [after ?? null, limit, pattern],
    );
    return rows;
  }

  /** Marks the address dead (a hard bounce), in the event's transaction. */
  async invalidateEmail(client: pg.PoolClient, prospectId: string): Promise<void> {
    await client.query(`UPDATE prospect SET email_status = 'invalid' WHERE id = $1`, [prospectId]);
  }

  /** Whether a prospect has this (normalised) address. */
  async emailTaken(client: pg.PoolClient, email: string): Promise<boolean> {
    const taken = await client.query('SELECT 1 FROM prospect WHERE email = $1', [email]);
    return (taken.rowCount ?? 0) > 0;
  }

  /** Moves the prospect to a new (normalised, valid) address, in the event's transaction. */
  async changeEmail(client: pg.PoolClient, prospectId: string, email: string): Promise<void> {
    await client.query(`UPDATE prospect SET email = $2, email_status = 'valid' WHERE id = $1`, [
      prospectId,
      email,
    ]);
  }
}
