import { normalisedEmail } from '@touchbase/core';
import type pg from 'pg';
import { TOUCHED } from './contact-policy.repository.js';
import { type EarlyRefusal, enrolledOnceSql, refusalsBeforeExclusivity } from './enrollment-admission.js';

/** A person of a dry run's list as the live system knows them. */
export type DryRunPerson = {
  /** The prospect's address, or the address listed when it is no prospect. */
  email: string;
  /** The prospect's company domain (null: none, or no prospect). */
  companyDomain: string | null;
  /** When any enrollment of theirs last touched them (the cooldown counts from it); null: never. */
  lastContactAt: Date | null;
  /** Why enrolling would refuse them before exclusivity (the same query and rule), or null. */
  refusal: EarlyRefusal | null;
  /**
   * Whether they were ever enrolled in the dry run's sequence (`enrolledOnceSql`, the
   * rule enrolling refuses `already_enrolled` by); false without a sequence.
   */
  enrolledInSequence: boolean;
};

/**
 * What a dry run needs of the people it lists, read only: the prospects named by id
 * or by address (merged records are nobody), and addresses that are no prospect,
 * each with enrollment's refusals before exclusivity (`refusalsBeforeExclusivity`:
 * suppressed, cooling off), and whether each was ever enrolled in `sequenceId` (null:
 * a draft, no sequence yet). Keys: the prospect's id, and `email:{address}` (normalised)
 * for every address given.
 */
export async function dryRunPeopleOf(
  pool: pg.Pool,
  prospectIds: readonly string[],
  addresses: readonly string[],
  now: Date,
  sequenceId: string | null = null,
): Promise<Map<string, DryRunPerson>> {
  const emails = [...new Set(addresses.map(normalisedEmail))];
  const { rows } = await pool.query<{
    id: string;
    email: string;
    company_domain: string | null;
    contact_after: Date | null;
    last: Date | null;
    enrolled_once: boolean;
  }>(
    `SELECT p.id, p.email, p.company_domain, p.contact_after,
       (SELECT max(COALESCE(t.sent_at, t.created_at)) FROM enrollment e JOIN touch_fact t ON t.enrollment_id = e.id
        WHERE e.prospect_id = p.id AND ${TOUCHED}) AS last,
       ($3::uuid IS NOT NULL AND ${enrolledOnceSql('p.id', '$3::uuid')}) AS enrolled_once
     FROM prospect p
     WHERE (p.id = ANY($1::uuid[]) OR p.email = ANY($2::text[])) AND p.merged_into IS NULL`,
    [prospectIds, emails, sequenceId],
  );
  const known = new Set(rows.map((r) => r.email));
  const people = [
    ...rows.map((r) => ({ id: r.id, email: r.email, contactAfter: r.contact_after })),
    ...emails.filter((e) => !known.has(e)).map((e) => ({ id: `email:${e}`, email: e, contactAfter: null })),
  ];
  const refusals = await refusalsBeforeExclusivity(pool, people, now);
  const out = new Map<string, DryRunPerson>();
  for (const r of rows) {
    const person = {
      email: r.email,
      companyDomain: r.company_domain,
      lastContactAt: r.last,
      refusal: refusals.get(r.id) ?? null,
      enrolledInSequence: r.enrolled_once,
    };
    out.set(r.id, person);
    out.set(`email:${r.email}`, person);
  }
  for (const p of people) {
    if (out.has(p.id)) continue;
    out.set(p.id, {
      email: p.email,
      companyDomain: null,
      lastContactAt: null,
      refusal: refusals.get(p.id) ?? null,
      enrolledInSequence: false,
    });
  }
  return out;
}
