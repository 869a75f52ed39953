import { randomUUID } from 'node:crypto';
import {
  addressHash,
  ContactPolicySchema,
  DomainError,
  type EnrollmentStatus,
  exclusivityConflict,
  type FittedDue,
  inCooldown,
  isSuppressed,
  suppressionKeysOf,
} from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { LIVE_STATUSES_SQL, stopProspectsSql, suppressionMatchSql } from './enrollment-stop.sql.js';

export { LIVE_STATUSES_SQL, stopProspectsSql } from './enrollment-stop.sql.js';

export type EnrollmentRow = {
  id: string;
  prospectId: string;
  sequenceId: string;
  sequenceVersionId: string;
  mailboxId: string;
  status: EnrollmentStatus;
  currentStep: number;
  /** Attempt of the current step's touch (2 or 3 while a soft-bounced touch waits to be resent). */
  currentAttempt: number;
  nextTouchAt: Date | null;
  conversationId: string | null;
  firstMessageId: string | null;
  stopReason: string | null;
  /** The enrollment a reactivation started this one from, or null. */
  reactivatedFromId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type EnrollResult = {
  enrolled: { id: string; prospectId: string }[];
  /** Created `queued` because the sending domain is paused; they start when it is resumed. */
  held: { id: string; prospectId: string }[];
  refused: EnrollRefusal[];
};

/** A prospect not enrolled, and why; `in_other_sequence` names the sequence that holds them (exclusivity). */
export type EnrollRefusal =
  | { prospectId: string; reason: 'suppressed' | 'already_enrolled' | 'not_found' | 'cooling_off' }
  | { prospectId: string; reason: 'in_other_sequence'; sequenceId: string };

/** Whether a sequence's `policies` JSON makes it exclusive (core's contact policy, defaults filled in). */
function exclusiveOf(policies: unknown): boolean {
  const contact = (policies as { contact?: unknown } | null)?.contact;
  return ContactPolicySchema.parse(contact ?? {}).exclusive;
}

const COLUMNS = `id, prospect_id AS "prospectId", sequence_id AS "sequenceId", sequence_version_id AS "sequenceVersionId",
  mailbox_id AS "mailboxId", status, current_step AS "currentStep", current_attempt AS "currentAttempt",
  next_touch_at AS "nextTouchAt", conversation_id AS "conversationId", first_message_id AS "firstMessageId", stop_reason AS "stopReason",
  reactivated_from_id AS "reactivatedFromId", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** `stop_reason` of an enrollment held (`queued`) until its sending domain is resumed. */
export const HELD_FOR_DOMAIN_PAUSE = 'held:domain_paused';

/** The sha-256 kept in place of an erased address (core's `addressHash`). */
export const emailHash = addressHash;

/** Enrollments: creation (with the suppression and domain checks), reads, stops. */
export class EnrollmentRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Enrolls prospects on the latest version of a sequence, in one transaction.
   * Suppressed addresses (by address, by domain, or by the hash of an erased
   * person) and prospects already in this sequence are refused, not failed.
   * On a paused sending domain, `whenDomainPaused: 'hold'` creates them `queued`
   * (started when the domain is resumed) instead of refusing.
   * @throws DomainError `domain_paused` / `mailbox_paused` when the mailbox may not take new enrollments.
   */
  async enroll(input: {
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
  }): Promise<EnrollResult> {
    return inTransaction(this.pool, async (client) => {
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
      const now = new Date();
      const cooling = new Set(
        prospects.rows.filter((p) => inCooldown(p.contact_after, now)).map((p) => p.id),
      );
      const found = new Map(prospects.rows.map((p) => [p.id, p.email]));
      const zones = new Map(prospects.rows.map((p) => [p.id, p.timezone]));
      const attributes = new Map(prospects.rows.map((p) => [p.id, p.attributes]));
      const refused: EnrollResult['refused'] = unique
        .filter((id) => !found.has(id))
        .map((prospectId) => ({ prospectId, reason: 'not_found' as const }));

      const keys = [...found.values()].map(suppressionKeysOf);
      const suppressed = await client.query<{ kind: string; value: string }>(
        `SELECT kind, value FROM suppression s
         WHERE ${suppressionMatchSql('s', { email: 'ANY($1)', domain: 'ANY($2)', hash: 'ANY($3)' })}`,
        [keys.map((k) => k.email), keys.map((k) => k.domain), keys.map((k) => k.hash)],
      );
      const unsuppressed: string[] = [];
      for (const [id, email] of found) {
        if (isSuppressed(email, suppressed.rows)) refused.push({ prospectId: id, reason: 'suppressed' });
        else if (cooling.has(id)) refused.push({ prospectId: id, reason: 'cooling_off' });
        else unsuppressed.push(id);
      }
      const candidates = await this.exclusive(client, input.sequenceId, unsuppressed, refused);

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
         -- Enrolled once in a sequence is enough: only a reactivation enrolls a person in it again.
         WHERE NOT EXISTS (SELECT 1 FROM enrollment x WHERE x.prospect_id = e.prospect_id AND x.sequence_id = $3)
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
   * Exclusivity (core's `exclusivityConflict`): the prospects that may join the
   * sequence; the others are refused with the sequence that holds them. The
   * prospects' rows are locked (id order, as every enrollment does, so two never
   * deadlock) for the rest of the transaction: two enrollments of one person in two
   * sequences at once serialise here, and the second sees the first's row (a new
   * snapshot per statement) and is refused. `FOR NO KEY UPDATE` leaves inserts that
   * only reference the prospect (events, touches) unblocked.
   */
  private async exclusive(
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
    const live = await client.query<{ prospect_id: string; sequence_id: string; policies: unknown }>(
      `SELECT e.prospect_id, e.sequence_id, s.policies FROM enrollment e JOIN sequence s ON s.id = e.sequence_id
       WHERE e.prospect_id = ANY($1::uuid[]) AND e.status IN ${LIVE_STATUSES_SQL} AND e.sequence_id <> $2
       ORDER BY e.created_at, e.id`,
      [prospectIds, sequenceId],
    );
    const byProspect = new Map<string, { sequenceId: string; exclusive: boolean }[]>();
    for (const r of live.rows) {
      const list = byProspect.get(r.prospect_id) ?? [];
      list.push({ sequenceId: r.sequence_id, exclusive: exclusiveOf(r.policies) });
      byProspect.set(r.prospect_id, list);
    }
    const allowed: string[] = [];
    for (const id of prospectIds) {
      const holder = exclusivityConflict(sequence, byProspect.get(id) ?? []);
      if (holder) refused.push({ prospectId: id, reason: 'in_other_sequence', sequenceId: holder });
      else allowed.push(id);
    }
    return allowed;
  }

  async get(id: string): Promise<EnrollmentRow> {
    const { rows } = await this.pool.query<EnrollmentRow>(`SELECT ${COLUMNS} FROM enrollment WHERE id = $1`, [
      id,
    ]);
    if (!rows[0]) throw new DomainError('not_found', 'enrollment not found', { enrollmentId: id });
    return rows[0];
  }

  async list(
    filter: { status?: EnrollmentStatus; sequenceId?: string; prospectId?: string },
    limit: number,
    after?: string,
  ) {
    const { rows } = await this.pool.query<EnrollmentRow>(
      `SELECT ${COLUMNS} FROM enrollment
       WHERE ($1::text IS NULL OR status::text = $1) AND ($2::uuid IS NULL OR sequence_id = $2)
         AND ($3::uuid IS NULL OR prospect_id = $3) AND ($4::uuid IS NULL OR id > $4)
       ORDER BY id LIMIT $5`,
      [filter.status ?? null, filter.sequenceId ?? null, filter.prospectId ?? null, after ?? null, limit],
    );
    return rows;
  }

  /** Active enrollments in id order, a page at a time, for the reconciler. */
  async activePage(
    after: string | null,
    limit: number,
  ): Promise<{ id: string; currentStep: number; currentAttempt: number; nextTouchAt: Date | null }[]> {
    const { rows } = await this.pool.query(
      `SELECT id, current_step AS "currentStep", current_attempt AS "currentAttempt", next_touch_at AS "nextTouchAt"
       FROM enrollment
       WHERE status = 'active' AND ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return rows;
  }

  /**
   * Touches left in doubt (`sending`: claimed, never recorded) whose enrollment has
   * moved on: it ended, or it is at another step or attempt. Nothing runs for
   * them unless their job still exists; the reconciler gives them one back, and
   * the sender settles them from the provider's answer. Touches claimed after
   * `claimedBefore` are left alone (a sender may still be handing them over).
   */
  async strandedInDoubt(
    claimedBefore: Date,
    limit: number,
  ): Promise<{ enrollmentId: string; step: number; attempt: number }[]> {
    const { rows } = await this.pool.query(
      `SELECT t.enrollment_id AS "enrollmentId", t.step, t.attempt
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE t.status = 'sending' AND t.created_at < $1
         AND (e.status <> 'active' OR e.current_step <> t.step OR e.current_attempt <> t.attempt)
       ORDER BY t.created_at LIMIT $2`,
      [claimedBefore, limit],
    );
    return rows;
  }

  /**
   * Ends every live enrollment of a prospect (all sequences) with `status`. The
   * rows are locked in id order, as the sender's batched claim locks them, so the
   * two serialise and never deadlock.
   *
   * Providers deliver out of order: a reply that happened before the bounce that
   * ended the sequence arrives after it. With `occurredAt`, the earliest stopping
   * event decides, so the end state is the one in-order delivery gives: an end set
   * by a later event is restated (terminal to terminal: nothing is sent again; a
   * manual cancel has no event time and stays), and so is an enrollment that ran out
   * of steps after the event happened (a late or recovered webhook). One statement
   * does both, over the rows as they are once locked, so a stop committed by another
   * event meanwhile is seen and restated too.
   * @returns the stopped enrollments with the step whose job is pending.
   */
  async stopForProspect(
    client: pg.PoolClient | pg.Pool,
    prospectId: string,
    status: EnrollmentStatus,
    reason: string,
    occurredAt?: Date,
    keep: string[] = [],
  ): Promise<{ id: string; currentStep: number; currentAttempt: number }[]> {
    if (keep.length > 0) {
      // Some sequences go on after this reply (their reply actions): they are left out.
      const { rows } = await client.query<{ id: string; currentStep: number; currentAttempt: number }>(
        `WITH target AS (
           SELECT $1::uuid AS prospect_id, $2::"EnrollmentStatus" AS status, $3::text AS reason, $4::timestamptz AS at, 1 AS ord),
         ${stopProspectsSql('target', '$5::uuid[]')}
         SELECT id, "currentStep", "currentAttempt" FROM stopped WHERE live`,
        [prospectId, status, reason, occurredAt ?? null, keep],
      );
      return rows;
    }
    // Named (prepared once per connection): ingest's hot path for every reply and bounce.
    const { rows } = await client.query<{ id: string; currentStep: number; currentAttempt: number }>({
      name: 'enrollment-stop-for-prospect',
      text: `WITH target AS (
         SELECT $1::uuid AS prospect_id, $2::"EnrollmentStatus" AS status, $3::text AS reason, $4::timestamptz AS at, 1 AS ord),
       ${stopProspectsSql('target')}
       SELECT id, "currentStep", "currentAttempt" FROM stopped WHERE live`,
      values: [prospectId, status, reason, occurredAt ?? null],
    });
    return rows;
  }

  /** Ends one live enrollment (a manual cancel). */
  async stop(
    id: string,
    status: EnrollmentStatus,
    reason: string,
  ): Promise<{ id: string; currentStep: number; currentAttempt: number } | null> {
    const { rows } = await this.pool.query(
      `UPDATE enrollment SET status = $2, stop_reason = $3, next_touch_at = NULL, updated_at = now()
       WHERE id = $1 AND status IN ${LIVE_STATUSES_SQL}
       RETURNING id, current_step AS "currentStep", current_attempt AS "currentAttempt"`,
      [id, status, reason],
    );
    return rows[0] ?? null;
  }

  /** Funnel counts for one sequence (or all). */
  async funnel(
    sequenceId?: string,
  ): Promise<{ enrolled: number; byStatus: Record<string, number>; sentByStep: Record<string, number> }> {
    const s = await this.pool.query<{ status: string; n: number }>(
      `SELECT status::text, count(*)::int AS n FROM enrollment WHERE ($1::uuid IS NULL OR sequence_id = $1) GROUP BY status`,
      [sequenceId ?? null],
    );
    const t = await this.pool.query<{ step: number; n: number }>(
      // A step resent after a soft bounce reached its prospect once.
      `SELECT t.step, count(DISTINCT t.enrollment_id)::int AS n FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE t.status = 'sent' AND ($1::uuid IS NULL OR e.sequence_id = $1) GROUP BY t.step ORDER BY t.step`,
      [sequenceId ?? null],
    );
    const byStatus = Object.fromEntries(s.rows.map((r) => [r.status, r.n]));
    return {
      enrolled: s.rows.reduce((a, r) => a + r.n, 0),
      byStatus,
      sentByStep: Object.fromEntries(t.rows.map((r) => [String(r.step), r.n])),
    };
  }

  /**
   * The funnel per node of a sequence's graph (per version: node numbers mean
   * different nodes in different versions): how many enrollments reached each node
   * (a touch claimed), had its action done (`sent`), had it fail for good (a
   * LinkedIn profile not found: the walk went on elsewhere), and replied while
   * waiting after it.
   */
  async nodeFunnel(sequenceId: string): Promise<
    {
      version: number;
      step: number;
      node: string | null;
      action: string | null;
      reached: number;
      sent: number;
      failed: number;
      repliedAfter: number;
    }[]
  > {
    const { rows } = await this.pool.query(
      `SELECT v.version, t.step,
              v.graph->'nodes'->(t.step - 1)->>'id' AS node, v.graph->'nodes'->(t.step - 1)->>'action' AS action,
              count(DISTINCT t.enrollment_id)::int AS reached,
              count(DISTINCT t.enrollment_id) FILTER (WHERE t.status = 'sent')::int AS sent,
              count(DISTINCT t.enrollment_id) FILTER (WHERE t.status = 'failed')::int AS failed,
              count(DISTINCT t.enrollment_id) FILTER (
                WHERE e.status = 'replied' AND coalesce(e.waiting_node, e.current_step - 1) = t.step)::int AS "repliedAfter"
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id JOIN sequence_version v ON v.id = e.sequence_version_id
       WHERE e.sequence_id = $1
       GROUP BY v.version, t.step, node, action ORDER BY v.version, t.step`,
      [sequenceId],
    );
    return rows;
  }
}
