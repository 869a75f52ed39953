import { randomUUID } from 'node:crypto';
import {
  type ConsentState,
  companyDomainOf,
  DomainError,
  type Identity,
  identitiesOf,
  identityKey,
  type LegalBasis,
  normalisedEmail,
  samePersonGroups,
} from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';

export type ProspectInput = {
  email: string;
  /** More addresses of the same person: identities, never sent to while `email` is theirs. */
  otherEmails?: string[] | null;
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
  /** A phone number (normalised to E.164 by core; written without country code, it is dropped). */
  phone?: string | null;
  /** Consent as given on import (core's CONSENT_STATES). */
  consent?: string | null;
  /** GDPR art. 6(1) basis as given on import (core's LEGAL_BASES). */
  legalBasis?: string | null;
  consentAt?: Date | string | null;
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
  /** As the API checked it on the way in (core's CONSENT_STATES). */
  consent: ConsentState | null;
  /** As the API checked it on the way in (core's LEGAL_BASES). */
  legalBasis: LegalBasis | null;
  consentAt: Date | null;
};

/**
 * An import row whose identities name more than one known prospect: it was joined
 * to `prospectId`, and the identities held by the others stayed with them (an
 * import never moves a person's enrollments; `POST /v1/prospects/{id}/merge` does).
 */
export type IdentityConflict = { index: number; prospectId: string; otherProspectIds: string[] };

const COLUMNS = `prospect.id, prospect.email, prospect.email_status AS "emailStatus", prospect.first_name AS "firstName",
  prospect.last_name AS "lastName", prospect.company, prospect.company_domain AS "companyDomain", prospect.timezone,
  prospect.attributes, prospect.consent, prospect.legal_basis AS "legalBasis", prospect.consent_at AS "consentAt"`;

/** The rows given, as a relation `w` (one per person, `ord` its place). */
const GIVEN = `unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::text[],
    $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::int[])
  AS w(id, email, first_name, last_name, company, timezone, attributes, explicit_domain, derived_domain,
    consent, legal_basis, consent_at, ord)`;

/**
 * What a row changes on a prospect it names: a value given replaces, one left out
 * keeps the stored one; attributes are merged. The company domain given on import
 * wins; one derived from the row's address only fills a gap (the row may name the
 * person by another address than theirs).
 */
const UPDATE_SET = `first_name = COALESCE(w.first_name, prospect.first_name),
  last_name = COALESCE(w.last_name, prospect.last_name),
  company = COALESCE(w.company, prospect.company),
  timezone = COALESCE(w.timezone, prospect.timezone),
  attributes = prospect.attributes || w.attributes,
  company_domain = COALESCE(w.explicit_domain, prospect.company_domain, w.derived_domain),
  consent = COALESCE(w.consent, prospect.consent),
  legal_basis = COALESCE(w.legal_basis, prospect.legal_basis),
  consent_at = COALESCE(w.consent_at, prospect.consent_at)`;

/** A prospect as read back: its row, and every name it is known by. */
export type ProspectView = ProspectRow & {
  linkedinUrl: string | null;
  hubspotId: string | null;
  phone: string | null;
  /** Every identity, its own address included, by kind then value. */
  identities: Identity[];
};

const identity = (kind: string) =>
  `(SELECT i.value FROM prospect_identity i WHERE i.prospect_id = prospect.id AND i.kind = '${kind}' ORDER BY i.value LIMIT 1)`;
const VIEW_COLUMNS = `${COLUMNS}, ${identity('linkedin')} AS "linkedinUrl", ${identity('hubspot')} AS "hubspotId",
  ${identity('phone')} AS "phone",
  COALESCE((SELECT json_agg(json_build_object('kind', i.kind, 'value', i.value) ORDER BY i.kind, i.value)
    FROM prospect_identity i WHERE i.prospect_id = prospect.id), '[]'::json) AS identities`;

/** A group of import rows that are one person, folded into one input. */
type Person = { input: ProspectInput; identities: Identity[]; rows: number[] };

/** Prospects and their identities. Addresses are stored lower-cased. */
export class ProspectRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Inserts or updates prospects, one per person: rows naming a known identity (an
   * address, the LinkedIn URL, the HubSpot id, the phone) update that prospect and
   * add their other identities to it; rows of one call sharing an identity are one
   * prospect. @returns the rows in input order (two rows of one person: the same row).
   */
  async upsertMany(inputs: ProspectInput[]): Promise<ProspectRow[]> {
    return (await this.importMany(inputs)).prospects;
  }

  /** {@link upsertMany}, with the rows whose identities named more than one known prospect. */
  async importMany(
    inputs: ProspectInput[],
  ): Promise<{ prospects: ProspectRow[]; conflicts: IdentityConflict[] }> {
    if (inputs.length === 0) return { prospects: [], conflicts: [] };
    return inTransaction(this.pool, (client) => this.importManyIn(client, inputs));
  }

  private async importManyIn(
    client: pg.PoolClient,
    inputs: ProspectInput[],
  ): Promise<{ prospects: ProspectRow[]; conflicts: IdentityConflict[] }> {
    const people = peopleOf(inputs);
    const keys = [...new Set(people.flatMap((p) => p.identities.map(identityKey)))].sort();
    // Two imports naming one person at once must not make two prospects: each
    // identity's lock, taken in one order, serialises them (held to the commit).
    await client.query(
      'SELECT pg_advisory_xact_lock(hashtextextended(k, 7310)) FROM unnest($1::text[]) AS k ORDER BY k',
      [keys],
    );
    const owners = await this.ownersIn(
      client,
      people.flatMap((p) => p.identities),
    );
    const conflicts: IdentityConflict[] = [];
    const existing: { person: Person; prospectId: string }[] = [];
    const fresh: Person[] = [];
    for (const person of people) {
      // The owner of the row's own address first, then of the others in the row's order.
      const found = [
        ...new Set(
          person.identities
            .map((i) => owners.get(identityKey(i)))
            .filter((x): x is string => x !== undefined),
        ),
      ];
      const [prospectId, ...others] = found;
      if (!prospectId) fresh.push(person);
      else {
        existing.push({ person, prospectId });
        if (others.length > 0)
          conflicts.push({ index: person.rows[0]!, prospectId, otherProspectIds: others });
      }
    }
    const byPerson = new Map<Person, ProspectRow>();
    for (const r of await this.insertIn(client, fresh)) byPerson.set(fresh[r.i]!, r.row);
    for (const r of await this.updateIn(client, existing)) byPerson.set(existing[r.i]!.person, r.row);
    const identities = people.flatMap((p) =>
      p.identities.map((i) => ({ ...i, prospectId: byPerson.get(p)!.id })),
    );
    // One already held by another prospect stays there: an import never moves where a
    // deletion request lands (the conflicts say so).
    await client.query(
      `INSERT INTO prospect_identity (id, prospect_id, kind, value)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) ON CONFLICT (kind, value) DO NOTHING`,
      [
        identities.map(() => randomUUID()),
        identities.map((i) => i.prospectId),
        identities.map((i) => i.kind),
        identities.map((i) => i.value),
      ],
    );
    const prospects: ProspectRow[] = new Array(inputs.length);
    for (const person of people) for (const i of person.rows) prospects[i] = byPerson.get(person)!;
    return { prospects, conflicts };
  }

  /** Who holds each identity (identity key to prospect id). */
  private async ownersIn(client: pg.PoolClient, identities: Identity[]): Promise<Map<string, string>> {
    const { rows } = await client.query<{ kind: string; value: string; prospect_id: string }>(
      `SELECT i.kind, i.value, i.prospect_id FROM prospect_identity i
       JOIN unnest($1::text[], $2::text[]) AS w(kind, value) ON w.kind = i.kind AND w.value = i.value`,
      [identities.map((i) => i.kind), identities.map((i) => i.value)],
    );
    return new Map(
      rows.map((r) => [identityKey({ kind: r.kind as Identity['kind'], value: r.value }), r.prospect_id]),
    );
  }

  private async insertIn(
    client: pg.PoolClient,
    people: Person[],
  ): Promise<{ i: number; row: ProspectRow }[]> {
    if (people.length === 0) return [];
    const { rows } = await client.query<ProspectRow>(
      `INSERT INTO prospect AS prospect (id, email, first_name, last_name, company, timezone, attributes, company_domain,
         consent, legal_basis, consent_at)
       SELECT id, email, first_name, last_name, company, timezone, attributes, COALESCE(explicit_domain, derived_domain),
         consent, legal_basis, consent_at FROM ${GIVEN}
       ON CONFLICT (email) DO UPDATE SET ${UPDATE_SET.replaceAll('w.', 'EXCLUDED.').replace('EXCLUDED.explicit_domain, prospect.company_domain, EXCLUDED.derived_domain', 'EXCLUDED.company_domain, prospect.company_domain')}
       RETURNING ${COLUMNS}`,
      givenOf(
        people.map((p) => p.input),
        people.map(() => randomUUID()),
      ),
    );
    const byEmail = new Map(rows.map((r) => [r.email, r]));
    return people.map((p, i) => ({ i, row: byEmail.get(normalisedEmail(p.input.email))! }));
  }

  private async updateIn(
    client: pg.PoolClient,
    people: { person: Person; prospectId: string }[],
  ): Promise<{ i: number; row: ProspectRow }[]> {
    if (people.length === 0) return [];
    // Two people of one call naming one prospect through identities they do not share:
    // one update, the later row's values winning, as two calls would leave it.
    const { rows } = await client.query<ProspectRow>(
      `UPDATE prospect SET ${UPDATE_SET}
       FROM (SELECT DISTINCT ON (id) * FROM ${GIVEN} ORDER BY id, ord DESC) w
       WHERE prospect.id = w.id
       RETURNING ${COLUMNS}`,
      givenOf(
        people.map((p) => p.person.input),
        people.map((p) => p.prospectId),
      ),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return people.map((p, i) => ({ i, row: byId.get(p.prospectId)! }));
  }

  /** A prospect with every name it is known by; a record left behind by a merge is not one. */
  async get(id: string): Promise<ProspectView> {
    const { rows } = await this.pool.query<ProspectView>(
      `SELECT ${VIEW_COLUMNS} FROM prospect WHERE id = $1 AND merged_into IS NULL`,
      [id],
    );
    if (!rows[0]) throw new DomainError('not_found', 'prospect not found', { prospectId: id });
    return rows[0];
  }

  /** The prospect that has this address, as its own or as another of its identities. */
  async findByEmail(email: string): Promise<ProspectView | null> {
    const { rows } = await this.pool.query<ProspectView>(
      `SELECT ${VIEW_COLUMNS} FROM prospect
       WHERE id = (SELECT prospect_id FROM prospect_identity WHERE kind = 'email' AND value = $1)`,
      [normalisedEmail(email)],
    );
    return rows[0] ?? null;
  }

  /**
   * Prospects by id, a page at a time; with `q`, only those whose address, name
   * (first, last, or both in either order), company or any identity (another address,
   * the LinkedIn URL, a phone) contains it, case-insensitive; merged-away rows never.
   * A scan of the table: a console search, not a hot path.
   */
  async list(limit: number, after?: string, q?: string): Promise<ProspectView[]> {
    // LIKE's own wildcards in what the person typed are literal characters.
    const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const { rows } = await this.pool.query<ProspectView>(
      `SELECT ${VIEW_COLUMNS} FROM prospect
         WHERE merged_into IS NULL AND ($1::uuid IS NULL OR id > $1)
           AND ($3::text IS NULL OR email ILIKE $3 OR company ILIKE $3 OR first_name ILIKE $3 OR last_name ILIKE $3
                OR concat_ws(' ', first_name, last_name) ILIKE $3 OR concat_ws(' ', last_name, first_name) ILIKE $3
                OR EXISTS (SELECT 1 FROM prospect_identity i WHERE i.prospect_id = prospect.id AND i.value ILIKE $3))
         ORDER BY id LIMIT $2`,
      [after ?? null, limit, pattern],
    );
    return rows;
  }

  /** Marks the address dead (a hard bounce), in the event's transaction. */
  async invalidateEmail(client: pg.PoolClient, prospectId: string): Promise<void> {
    await client.query(`UPDATE prospect SET email_status = 'invalid' WHERE id = $1`, [prospectId]);
  }

  /** Whether another prospect than `prospectId` has this (normalised) address, as its own or an identity. */
  async emailTaken(client: pg.PoolClient, email: string, prospectId: string): Promise<boolean> {
    const taken = await client.query(
      `SELECT 1 FROM prospect WHERE email = $1 AND id <> $2
       UNION ALL SELECT 1 FROM prospect_identity WHERE kind = 'email' AND value = $1 AND prospect_id <> $2`,
      [email, prospectId],
    );
    return (taken.rowCount ?? 0) > 0;
  }

  /**
   * Moves the prospect to a new (normalised, valid) address, in the event's
   * transaction. The old one stays an identity (mail to it is still the person's);
   * the trigger `prospect_email_identity` records the new one.
   */
  async changeEmail(client: pg.PoolClient, prospectId: string, email: string): Promise<void> {
    await client.query(`UPDATE prospect SET email = $2, email_status = 'valid' WHERE id = $1`, [
      prospectId,
      email,
    ]);
  }
}

/** The rows of one call as people: rows sharing an identity (core's `samePersonGroups`) folded into one. */
function peopleOf(inputs: ProspectInput[]): Person[] {
  const identities = inputs.map((p) => identitiesOf(p));
  const groups = samePersonGroups(identities);
  const people = new Map<number, Person>();
  inputs.forEach((input, i) => {
    const group = groups[i]!;
    const person = people.get(group);
    if (!person) {
      people.set(group, { input: { ...input }, identities: [...identities[i]!], rows: [i] });
      return;
    }
    // The first row's address stays the one touches go to; a later row's values win.
    const seen = new Set(person.identities.map(identityKey));
    for (const id of identities[i]!) if (!seen.has(identityKey(id))) person.identities.push(id);
    const defined = Object.fromEntries(
      Object.entries(input).filter(([, v]) => v !== undefined && v !== null),
    );
    person.input = {
      ...person.input,
      ...defined,
      email: person.input.email,
      attributes: { ...person.input.attributes, ...input.attributes },
    };
    person.rows.push(i);
  });
  return [...people.values()];
}

/** The parameters of {@link GIVEN} for these inputs and ids. */
function givenOf(inputs: ProspectInput[], ids: string[]): unknown[] {
  const emails = inputs.map((p) => normalisedEmail(p.email));
  return [
    ids,
    emails,
    inputs.map((p) => p.firstName ?? null),
    inputs.map((p) => p.lastName ?? null),
    inputs.map((p) => p.company ?? null),
    inputs.map((p) => p.timezone ?? null),
    inputs.map((p) => JSON.stringify(p.attributes ?? {})),
    // Given explicitly (a domain in `companyDomain`, or a `company` written as one) ...
    inputs.map((p) => {
      const given = p.companyDomain ?? p.company;
      return given ? companyDomainOf('', given) : null;
    }),
    // ... else the address's.
    emails.map((e) => companyDomainOf(e)),
    inputs.map((p) => p.consent ?? null),
    inputs.map((p) => p.legalBasis ?? null),
    inputs.map((p) => (p.consentAt ? new Date(p.consentAt) : null)),
    inputs.map((_, i) => i),
  ];
}
