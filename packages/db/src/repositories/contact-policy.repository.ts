import type { ContactCounts, ContactHold } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';

/** The touches that reached (or may have reached) the recipient: claimed, sent, or in doubt. */
export const TOUCHED = `t.status IN ('sending', 'sent', 'unknown')`;

/**
 * SQL: the touches the new-people cap counts for a sequence (`sequence`, uuid) on the
 * day from `dayStart`: the day's slots and the first touches since its start, each
 * once by its key, the touch `except` never. `ContactPolicyRepository` counts by it,
 * before a touch goes and for a dry run's start.
 */
function firstTouchesTodaySql(sequence: string, dayStart: string, except: string): string {
  return `(SELECT count(*) FROM (
    SELECT touch_key FROM contact_slot WHERE scope = 'sequence:' || ${sequence}::text AND day_start = ${dayStart} AND touch_key <> ${except}
    UNION
    SELECT t.idempotency_key FROM enrollment e JOIN touch t ON t.enrollment_id = e.id
    WHERE e.sequence_id = ${sequence}::uuid AND t.step = 1 AND t.attempt = 1 AND ${TOUCHED}
      AND COALESCE(t.sent_at, t.created_at) >= ${dayStart} AND t.idempotency_key <> ${except}) AS x)`;
}

/** SQL: the touches the recipient-domain cap counts for a company (`domain`, text) on the day from `dayStart`, as {@link firstTouchesTodaySql}. */
function domainTouchesTodaySql(domain: string, dayStart: string, except: string): string {
  return `(SELECT count(*) FROM (
    SELECT touch_key FROM contact_slot WHERE scope = 'domain:' || ${domain}::text AND day_start = ${dayStart} AND touch_key <> ${except}
    UNION
    SELECT t.idempotency_key FROM prospect p JOIN enrollment e ON e.prospect_id = p.id JOIN touch t ON t.enrollment_id = e.id
    WHERE p.company_domain = ${domain}::text AND ${TOUCHED}
      AND COALESCE(t.sent_at, t.created_at) >= ${dayStart} AND t.idempotency_key <> ${except}) AS x)`;
}

/** What the day caps have counted on one day before a dry run starts (`ContactPolicyRepository.countedSince`). */
export type CountedToday = {
  dayStart: Date;
  /** The sequence's first touches (the new-people cap). */
  firstTouches: number;
  /** Touches per company domain asked for (the recipient-domain cap). */
  domainTouches: Record<string, number>;
};

/** One touch about to go, and which of its counts its sequence's policies use. */
export type ContactCheck = {
  enrollmentId: string;
  step: number;
  attempt: number;
  /** The touch's idempotency key: its slot in the day caps. */
  touchKey: string;
  prospectId: string;
  sequenceId: string;
  companyDomain: string | null;
  /** The start of today in the mailbox's zone: the day the caps count. */
  dayStart: Date;
  needs: { lastContact: boolean; firstTouchesToday: boolean; domainTouchesToday: boolean };
};

/**
 * The counts core's contact policies (`contactHold`) decide from, and what follows
 * the decision, in one transaction: a touch that may go takes its slots in the day
 * caps (`contact_slot`), a touch held has its enrollment moved to the end of the
 * hold with the policy recorded (the waiting reason). The caps' scopes are locked
 * (advisory, in a fixed order) for the transaction, so touches checked at the same
 * moment count each other and never pass a cap. The decision is core's (`decide`).
 */
export class ContactPolicyRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * An erased person's day-cap slots (their keys, `{enrollmentId}-{step}...`, name
   * the person's enrollments), in
   * the erasure's transaction, before the enrollments go with the prospect.
   */
  async forget(client: pg.PoolClient, prospectId: string): Promise<void> {
    await client.query(
      `DELETE FROM contact_slot s USING enrollment e
       WHERE e.prospect_id = $1 AND s.touch_key LIKE e.id::text || '-%'`,
      [prospectId],
    );
  }

  /** @returns the hold, or null when the touch may go (its slots are then taken). */
  async check(
    input: ContactCheck,
    decide: (counts: ContactCounts) => ContactHold | null,
  ): Promise<ContactHold | null> {
    const scopes: string[] = [];
    if (input.needs.firstTouchesToday) scopes.push(`sequence:${input.sequenceId}`);
    if (input.needs.domainTouchesToday && input.companyDomain) scopes.push(`domain:${input.companyDomain}`);
    scopes.sort();
    return inTransaction(this.pool, async (client) => {
      for (const scope of scopes) {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `contact_slot:${scope}:${input.dayStart.toISOString()}`,
        ]);
      }
      const counts = await this.counts(client, input);
      const hold = decide(counts);
      if (hold) {
        await client.query(
          `UPDATE enrollment SET next_touch_at = $5, policy_hold = $4, policy_hold_until = $5, updated_at = now()
           WHERE id = $1 AND status = 'active' AND current_step = $2 AND current_attempt = $3`,
          [input.enrollmentId, input.step, input.attempt, hold.reason, hold.until],
        );
      } else if (scopes.length > 0) {
        await client.query(
          `INSERT INTO contact_slot (scope, day_start, touch_key) SELECT unnest($1::text[]), $2, $3
           ON CONFLICT DO NOTHING`,
          [scopes, input.dayStart, input.touchKey],
        );
      }
      return hold;
    });
  }

  /**
   * What the day caps of a sequence have counted on each of `dayStarts` (the start of a
   * dry run's day in each of its mailboxes' zones), for the sequence's first touches and
   * each of `domains`: by the query `check` counts with, reads only, no lock. The dry
   * run's caps start from these, as the sender's do.
   */
  async countedSince(
    sequenceId: string,
    domains: readonly string[],
    dayStarts: readonly Date[],
  ): Promise<CountedToday[]> {
    const out: CountedToday[] = [];
    for (const dayStart of dayStarts) {
      // No touch has the empty key: every touch counts.
      const { rows } = await this.pool.query<{ domain: string | null; n: string }>(
        `SELECT NULL::text AS domain, ${firstTouchesTodaySql('$1', '$2', "''")} AS n
         UNION ALL
         SELECT d.domain, ${domainTouchesTodaySql('d.domain', '$2', "''")} FROM unnest($3::text[]) AS d(domain)`,
        [sequenceId, dayStart, [...new Set(domains)]],
      );
      const counted: CountedToday = { dayStart, firstTouches: 0, domainTouches: {} };
      for (const r of rows) {
        if (r.domain === null) counted.firstTouches = Number(r.n);
        else if (Number(r.n) > 0) counted.domainTouches[r.domain] = Number(r.n);
      }
      out.push(counted);
    }
    return out;
  }

  /**
   * The counts asked for (the others come back as 0 or null). A day cap counts the
   * slots taken today and the touches of today (by their idempotency key, so a touch
   * is counted once): touches of sequences without the cap, or sent before it was
   * turned on, count too. This touch itself is never counted.
   */
  private async counts(client: pg.PoolClient, input: ContactCheck): Promise<ContactCounts> {
    const { rows } = await client.query<{ last: Date | null; first: string | null; domain: string | null }>(
      `SELECT
         CASE WHEN $4 THEN (
           SELECT max(COALESCE(t.sent_at, t.created_at)) FROM enrollment e JOIN touch_fact t ON t.enrollment_id = e.id
           WHERE e.prospect_id = $2 AND e.id <> $1 AND ${TOUCHED}) END AS last,
         CASE WHEN $5 THEN ${firstTouchesTodaySql('$3', '$8', '$9')} END AS first,
         CASE WHEN $6 AND $7::text IS NOT NULL THEN ${domainTouchesTodaySql('$7', '$8', '$9')} END AS domain`,
      [
        input.enrollmentId,
        input.prospectId,
        input.sequenceId,
        input.needs.lastContact,
        input.needs.firstTouchesToday,
        input.needs.domainTouchesToday,
        input.companyDomain,
        input.dayStart,
        input.touchKey,
      ],
    );
    const r = rows[0];
    return {
      lastContactAt: r?.last ?? null,
      firstTouchesToday: Number(r?.first ?? 0),
      domainTouchesToday: r?.domain === null || r?.domain === undefined ? null : Number(r.domain),
    };
  }
}
