import { randomUUID } from 'node:crypto';
import {
  inCooldown,
  type PastEnrollment,
  type ReactivationPlan,
  type ReactivationRefusal,
  reactivationRefusalOf,
  suppressionKeysOf,
} from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { AuditRepository } from './audit.repository.js';
import { LIVE_STATUSES_SQL, suppressionMatchSql } from './enrollment-stop.sql.js';

/** A reactivation row, for the reconciler and the timeline. */
export type ReactivationRow = {
  id: string;
  prospectId: string;
  fromEnrollmentId: string;
  sequenceId: string;
  eventId: string;
  trigger: string;
  dueAt: Date;
  status: 'pending' | 'enrolled' | 'skipped';
  outcome: string | null;
  enrollmentId: string | null;
  createdAt: Date;
  settledAt: Date | null;
};

const COLUMNS = `id, prospect_id AS "prospectId", from_enrollment_id AS "fromEnrollmentId", sequence_id AS "sequenceId",
  event_id AS "eventId", trigger, due_at AS "dueAt", status, outcome, enrollment_id AS "enrollmentId",
  created_at AS "createdAt", settled_at AS "settledAt"`;

/** What running a due reactivation did. */
export type ReactivationRun =
  | { kind: 'enrolled'; enrollmentId: string; nextTouchAt: Date }
  | { kind: 'skipped'; reason: ReactivationRefusal | 'no_version' }
  /** Not pending (already run, skipped, or gone with an erased person). */
  | { kind: 'settled' };

/**
 * Reactivations: recorded in the transaction of the CRM event that caused them,
 * run when due (the checks are core's `reactivationRefusalOf`, over the facts read
 * here under the person's lock), listed for the reconciler and the timeline.
 */
export class ReactivationRepository {
  private readonly auditLog: AuditRepository;

  constructor(private readonly pool: pg.Pool) {
    this.auditLog = new AuditRepository(pool);
  }

  /** Every enrollment of the prospect, with its sequence's stored policies. */
  async pastEnrollments(client: pg.PoolClient, prospectId: string): Promise<PastEnrollment[]> {
    const { rows } = await client.query<PastEnrollment>(
      `SELECT e.id, e.sequence_id AS "sequenceId", e.status, s.policies AS "sequencePolicies", e.created_at AS "createdAt"
       FROM enrollment e JOIN sequence s ON s.id = e.sequence_id WHERE e.prospect_id = $1`,
      [prospectId],
    );
    return rows;
  }

  /** Records a reactivation, once per (original enrollment, event). @returns whether it was recorded. */
  async schedule(
    client: pg.PoolClient,
    r: ReactivationPlan & { id: string; prospectId: string; eventId: string },
  ): Promise<boolean> {
    const { rowCount } = await client.query(
      `INSERT INTO reactivation (id, prospect_id, from_enrollment_id, sequence_id, event_id, trigger, due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (from_enrollment_id, event_id) DO NOTHING`,
      [r.id, r.prospectId, r.fromEnrollmentId, r.sequenceId, r.eventId, r.trigger, r.dueAt],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Settles the prospect's pending reactivations as skipped. @returns their ids. */
  async skipPending(client: pg.PoolClient, prospectId: string, outcome: string): Promise<string[]> {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE reactivation SET status = 'skipped', outcome = $2, settled_at = now()
       WHERE prospect_id = $1 AND status = 'pending' RETURNING id`,
      [prospectId, outcome],
    );
    return rows.map((r) => r.id);
  }

  /** Pending reactivations, a page at a time by id (the reconciler gives each its job). */
  async pendingPage(after: string | null, limit: number): Promise<{ id: string; dueAt: Date }[]> {
    const { rows } = await this.pool.query<{ id: string; dueAt: Date }>(
      `SELECT id, due_at AS "dueAt" FROM reactivation
       WHERE status = 'pending' AND ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return rows;
  }

  async get(id: string): Promise<ReactivationRow | null> {
    const { rows } = await this.pool.query<ReactivationRow>(
      `SELECT ${COLUMNS} FROM reactivation WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The reactivations an enrollment started (as the original) or came from (as the new one). */
  async chainOf(enrollmentId: string): Promise<ReactivationRow[]> {
    const { rows } = await this.pool.query<ReactivationRow>(
      `SELECT ${COLUMNS} FROM reactivation WHERE from_enrollment_id = $1 OR enrollment_id = $1 ORDER BY created_at`,
      [enrollmentId],
    );
    return rows;
  }

  /**
   * Runs a due reactivation, in one transaction: the row and the person are locked,
   * the facts read (the person still exists, is not suppressed, won no deal since the
   * reactivation was recorded, is live nowhere, is not cooling off), core decides,
   * and the person is enrolled on the reactivation sequence's latest version from the
   * original enrollment's mailbox, due `now` (the sender fits it to the sending
   * window), or the row is settled as skipped with the reason.
   */
  async run(id: string, now: Date): Promise<ReactivationRun> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<ReactivationRow & { mailboxId: string }>(
        `SELECT r.id, r.prospect_id AS "prospectId", r.from_enrollment_id AS "fromEnrollmentId", r.sequence_id AS "sequenceId",
                r.created_at AS "createdAt", e.mailbox_id AS "mailboxId"
         FROM reactivation r JOIN enrollment e ON e.id = r.from_enrollment_id
         WHERE r.id = $1 AND r.status = 'pending' FOR UPDATE OF r`,
        [id],
      );
      const r = rows[0];
      if (!r) return { kind: 'settled' };
      const person = await client.query<{ email: string; contact_after: Date | null }>(
        'SELECT email, contact_after FROM prospect WHERE id = $1 FOR UPDATE',
        [r.prospectId],
      );
      const p = person.rows[0];
      let refusal: ReactivationRefusal | null = null;
      if (!p)
        refusal = reactivationRefusalOf({
          exists: false,
          suppressed: false,
          wonSince: false,
          liveEnrollments: 0,
          inCooldown: false,
        });
      else {
        const keys = suppressionKeysOf(p.email);
        const facts = await client.query<{ suppressed: boolean; won: boolean; live: number }>(
          `SELECT EXISTS (SELECT 1 FROM suppression s WHERE ${suppressionMatchSql('s', { email: '$1', domain: '$2', hash: '$3' })}) AS suppressed,
                  EXISTS (SELECT 1 FROM event WHERE prospect_id = $4 AND type = 'crm.deal_won' AND received_at >= $5) AS won,
                  (SELECT count(*)::int FROM enrollment WHERE prospect_id = $4 AND status IN ${LIVE_STATUSES_SQL}) AS live`,
          [keys.email, keys.domain, keys.hash, r.prospectId, r.createdAt],
        );
        const f = facts.rows[0]!;
        refusal = reactivationRefusalOf({
          exists: true,
          suppressed: f.suppressed,
          wonSince: f.won,
          liveEnrollments: f.live,
          inCooldown: inCooldown(p.contact_after, now),
        });
      }
      if (refusal) {
        await this.settle(client, id, 'skipped', refusal, null);
        if (p)
          await this.audit(client, r.fromEnrollmentId, 'reactivation.skipped', {
            reactivationId: id,
            reason: refusal,
          });
        return { kind: 'skipped', reason: refusal };
      }
      const version = await client.query<{ id: string }>(
        'SELECT id FROM sequence_version WHERE sequence_id = $1 ORDER BY version DESC LIMIT 1',
        [r.sequenceId],
      );
      if (!version.rows[0]) {
        await this.settle(client, id, 'skipped', 'no_version', null);
        return { kind: 'skipped', reason: 'no_version' };
      }
      const enrollmentId = randomUUID();
      const inserted = await client.query(
        `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step, next_touch_at, reactivated_from_id)
         VALUES ($1, $2, $3, $4, $5, 'active', 1, $6, $7)
         ON CONFLICT (prospect_id, sequence_id) WHERE status IN ${LIVE_STATUSES_SQL} DO NOTHING`,
        [enrollmentId, r.prospectId, r.sequenceId, version.rows[0].id, r.mailboxId, now, r.fromEnrollmentId],
      );
      if ((inserted.rowCount ?? 0) === 0) {
        // Live in that very sequence already (the count above saw it; kept for safety).
        await this.settle(client, id, 'skipped', 'live', null);
        return { kind: 'skipped', reason: 'live' };
      }
      await this.settle(client, id, 'enrolled', null, enrollmentId);
      const chain = { reactivationId: id, fromEnrollmentId: r.fromEnrollmentId, enrollmentId };
      await this.audit(client, r.fromEnrollmentId, 'reactivation.enrolled', chain);
      await this.audit(client, enrollmentId, 'reactivation.enrolled', chain);
      return { kind: 'enrolled', enrollmentId, nextTouchAt: now };
    });
  }

  /** The chain in the audit log, on the enrollments' timelines. */
  private async audit(
    client: pg.PoolClient,
    enrollmentId: string,
    action: string,
    data: object,
  ): Promise<void> {
    await this.auditLog.writeIn(client, {
      actor: 'scheduler:reactivation',
      action,
      entityType: 'enrollment',
      entityId: enrollmentId,
      data,
    });
  }

  private async settle(
    client: pg.PoolClient,
    id: string,
    status: 'enrolled' | 'skipped',
    outcome: string | null,
    enrollmentId: string | null,
  ): Promise<void> {
    await client.query(
      `UPDATE reactivation SET status = $2, outcome = $3, enrollment_id = $4, settled_at = now() WHERE id = $1`,
      [id, status, outcome, enrollmentId],
    );
  }
}
