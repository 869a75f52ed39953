import { randomUUID } from 'node:crypto';
import {
  ContactPolicySchema,
  DomainError,
  exclusivityConflict,
  type FittedDue,
  inCooldown,
  isSuppressed,
  type LiveEnrollmentOf,
  suppressionKeysOf,
} from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { type EnrollRefusal, type EnrollResult, HELD_FOR_DOMAIN_PAUSE } from './enrollment.rows.js';
import { LIVE_STATUSES_SQL, suppressionMatchSql } from './enrollment-stop.sql.js';

/** What `EnrollmentRepository.enroll` takes. */
export type EnrollInput = {
  sequenceId: string;
  sequenceVersionId: string;
  mailboxId: string;
  prospectIds: string[];
  /**
   * The first touch's due time of the `index`-th prospect enrolled (with its own zone,
   * when it has one); with the raw time it was fitted from (core's `fitDue`), kept
   * for re-fitting after a window change.
   */
  firstTouchAt: (
    index: number,
    prospect: { id: string; timezone: string | null; attributes: Record<string, unknown> | null },
  ) => Date | FittedDue;
  whenDomainPaused?: 'refuse' | 'hold';
};

/**
 * Enrolls prospects on the latest version of a sequence, in one transaction.
 * Suppressed addresses (by address, by domain, or by the hash of an erased
 * person) and prospects already in this sequence are refused, not failed.
 * On a paused sending domain, `whenDomainPaused: 'hold'` creates them `queued`
 * (started when the domain is resumed) instead of refusing.
 * @throws DomainError `domain_paused` / `mailbox_paused` when the mailbox may not take new enrollments.
 */
export async function enrollProspects(pool: pg.Pool, input: EnrollInput): Promise<EnrollResult> {
  return inTransaction(pool, async (client) => {
    const mb = await client.query<{
      status: string;
      domain_status: string;
      domain: string;
      reason: string | null;
    }>(
      `SELECT m.status, d.status AS domain_status, d.domain, d.reason
       FROM mailbox m JOIN sending_domain d ON d.id = m.domain_id WHERE m.id = $1 FOR SHARE OF d`,
      [input.mailboxId],
    );
    const mailbox = mb.rows[0];
    if (!mailbox) throw new DomainError('not_found', 'mailbox not found', { field: 'mailboxId' });
    const hold = mailbox.domain_status === 'paused' && input.whenDomainPaused === 'hold';
    if (mailbox.domain_status === 'paused' && !hold) {
      throw new DomainError(
        'domain_paused',
        `sending domain ${mailbox.domain} is paused: ${mailbox.reason ?? 'no reason given'}`,
        {
          domain: mailbox.domain,
        },
      );
    }
    if (mailbox.status === 'paused')
      throw new DomainError('mailbox_paused', 'mailbox is paused', { mailboxId: input.mailboxId });

    const unique = [...new Set(input.prospectIds)];
    const prospects = await client.query<{
      id: string;
      email: string;
      timezone: string | null;
      attributes: Record<string, unknown> | null;
      contact_after: Date | null;
    }>(
      // A record left behind by a merge is nobody: not found.
      'SELECT id, email, timezone, attributes, contact_after FROM prospect WHERE id = ANY($1::uuid[]) AND merged_into IS NULL',
      [unique],
    );
    const found = new Map(prospects.rows.map((p) => [p.id, p.email]));
    const zones = new Map(prospects.rows.map((p) => [p.id, p.timezone]));
    const attributes = new Map(prospects.rows.map((p) => [p.id, p.attributes]));
    const refused: EnrollResult['refused'] = unique
      .filter((id) => !found.has(id))
      .map((prospectId) => ({ prospectId, reason: 'not_found' as const }));

    const early = await refusalsBeforeExclusivity(
      client,
      prospects.rows.map((p) => ({ id: p.id, email: p.email, contactAfter: p.contact_after })),
      new Date(),
    );
    const unsuppressed: string[] = [];
    for (const id of found.keys()) {
      const reason = early.get(id);
      if (reason) refused.push({ prospectId: id, reason });
      else unsuppressed.push(id);
    }
    const candidates = await admitExclusive(client, input.sequenceId, unsuppressed, refused);

    const ids = candidates.map(() => randomUUID());
    const dues = candidates.map((id, i) => {
      const due = input.firstTouchAt(i, {
        id,
        timezone: zones.get(id) ?? null,
        attributes: attributes.get(id) ?? null,
      });
      return due instanceof Date ? { at: due, unfittedAt: null } : due;
    });
    const inserted = await client.query<{ id: string; prospect_id: string }>(
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step,
         next_touch_at, next_touch_unfitted_at, next_touch_fitted_at, stop_reason)
       SELECT e.id, e.prospect_id, $3, $4, $5, $7::"EnrollmentStatus", 1, e.due, e.unfitted,
         CASE WHEN e.unfitted IS NULL THEN NULL ELSE e.due END, $8
       FROM unnest($1::uuid[], $2::uuid[], $6::timestamptz[], $9::timestamptz[]) AS e(id, prospect_id, due, unfitted)
       WHERE NOT ${enrolledOnceSql('e.prospect_id', '$3')}
       ON CONFLICT (prospect_id, sequence_id) WHERE status IN ${LIVE_STATUSES_SQL} DO NOTHING
       RETURNING id, prospect_id`,
      [
        ids,
        candidates,
        input.sequenceId,
        input.sequenceVersionId,
        input.mailboxId,
        dues.map((d) => d.at),
        hold ? 'queued' : 'active',
        hold ? HELD_FOR_DOMAIN_PAUSE : null,
        dues.map((d) => d.unfittedAt),
      ],
    );
    const enrolled = inserted.rows.map((r) => ({ id: r.id, prospectId: r.prospect_id }));
    const done = new Set(enrolled.map((e) => e.prospectId));
    for (const id of candidates)
      if (!done.has(id)) refused.push({ prospectId: id, reason: 'already_enrolled' });
    return hold ? { enrolled: [], held: enrolled, refused } : { enrolled, held: [], refused };
  });
}

/**
 * SQL: whether the person (`prospect`, an SQL expression) was ever enrolled in the
 * sequence (`sequence`), whatever that enrollment's status is now. Enrolled once in a
 * sequence is enough: only a reactivation enrolls a person in it again, so enrolling
 * refuses them (`already_enrolled`) and a dry run does too.
 */
export function enrolledOnceSql(prospect: string, sequence: string): string {
  return `EXISTS (SELECT 1 FROM enrollment x WHERE x.prospect_id = ${prospect} AND x.sequence_id = ${sequence})`;
}

/** Why enrolling refuses a person before exclusivity is looked at. */
export type EarlyRefusal = 'suppressed' | 'cooling_off';

/**
 * The people enrolling refuses before exclusivity, by id: a suppressed address (the
 * suppression entries matching their keys, core's `suppressionKeysOf` and
 * `isSuppressed`), else a person not to contact yet (core's `inCooldown` of
 * `contactAfter`, null for an address that is no prospect). Reads only: enrollment
 * asks it in its transaction, a dry run outside any.
 */
export async function refusalsBeforeExclusivity(
  client: pg.Pool | pg.PoolClient,
  people: readonly { id: string; email: string; contactAfter: Date | null }[],
  now: Date,
): Promise<Map<string, EarlyRefusal>> {
  const refusals = new Map<string, EarlyRefusal>();
  if (people.length === 0) return refusals;
  const keys = people.map((p) => suppressionKeysOf(p.email));
  const suppressed = await client.query<{ kind: string; value: string }>(
    `SELECT kind, value FROM suppression s
     WHERE ${suppressionMatchSql('s', { email: 'ANY($1)', domain: 'ANY($2)', hash: 'ANY($3)' })}`,
    [keys.map((k) => k.email), keys.map((k) => k.domain), keys.map((k) => k.hash)],
  );
  for (const p of people) {
    if (isSuppressed(p.email, suppressed.rows)) refusals.set(p.id, 'suppressed');
    else if (inCooldown(p.contactAfter, now)) refusals.set(p.id, 'cooling_off');
  }
  return refusals;
}

/**
 * Exclusivity (core's `exclusivityConflict`): the prospects that may join the
 * sequence; the others are refused with the sequence that holds them. The
 * prospects' rows are locked (id order, as every enrollment does, so two never
 * deadlock) for the rest of the transaction: two enrollments of one person in two
 * sequences at once serialise here, and the second sees the first's row (a new
 * snapshot per statement) and is refused. `FOR NO KEY UPDATE` leaves inserts that
 * only reference the prospect (events, touches) unblocked.
 */
async function admitExclusive(
  client: pg.PoolClient,
  sequenceId: string,
  prospectIds: string[],
  refused: EnrollRefusal[],
): Promise<string[]> {
  if (prospectIds.length === 0) return [];
  const seq = await client.query<{ policies: unknown }>('SELECT policies FROM sequence WHERE id = $1', [
    sequenceId,
  ]);
  if (!seq.rows[0]) throw new DomainError('not_found', 'sequence not found', { field: 'sequenceId' });
  const sequence = { id: sequenceId, exclusive: exclusiveOf(seq.rows[0].policies) };
  await client.query('SELECT id FROM prospect WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE', [
    prospectIds,
  ]);
  const byProspect = await liveEnrollmentsOf(client, prospectIds, sequenceId);
  const allowed: string[] = [];
  for (const id of prospectIds) {
    const holder = exclusivityConflict(sequence, byProspect.get(id) ?? []);
    if (holder) refused.push({ prospectId: id, reason: 'in_other_sequence', sequenceId: holder });
    else allowed.push(id);
  }
  return allowed;
}

/**
 * The live enrollments of each prospect (in order of enrollment), with whether
 * their sequence is exclusive: what core's `exclusivityConflict` decides from.
 * `otherThan` leaves one sequence's out.
 */
export async function liveEnrollmentsOf(
  client: pg.Pool | pg.PoolClient,
  prospectIds: string[],
  otherThan: string | null = null,
): Promise<Map<string, LiveEnrollmentOf[]>> {
  const live = await client.query<{ prospect_id: string; sequence_id: string; policies: unknown }>(
    `SELECT e.prospect_id, e.sequence_id, s.policies FROM enrollment e JOIN sequence s ON s.id = e.sequence_id
     WHERE e.prospect_id = ANY($1::uuid[]) AND e.status IN ${LIVE_STATUSES_SQL}
       AND ($2::uuid IS NULL OR e.sequence_id <> $2)
     ORDER BY e.created_at, e.id`,
    [prospectIds, otherThan],
  );
  const byProspect = new Map<string, LiveEnrollmentOf[]>();
  for (const r of live.rows) {
    const list = byProspect.get(r.prospect_id) ?? [];
    list.push({ sequenceId: r.sequence_id, exclusive: exclusiveOf(r.policies) });
    byProspect.set(r.prospect_id, list);
  }
  return byProspect;
}

/** Whether a sequence's `policies` JSON makes it exclusive (core's contact policy, defaults filled in). */
function exclusiveOf(policies: unknown): boolean {
  const contact = (policies as { contact?: unknown } | null)?.contact;
  return ContactPolicySchema.parse(contact ?? {}).exclusive;
}
