import { randomUUID } from 'node:crypto';
import {
  ContactPolicySchema,
  DomainError,
  MERGED_REASON,
  type MergeDecision,
  type MergeEnrollment,
  type MergeSurvivor,
} from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { AuditRepository } from './audit.repository.js';
import { LIVE_STATUSES_SQL, stopProspectsSql } from './enrollment-stop.sql.js';

/** An enrollment whose pending job must go: cancelled by the merge or by a suppression that followed the person. */
export type MergeStopped = { id: string; currentStep: number; currentAttempt: number };

export type MergeResult = {
  prospectId: string;
  mergedFrom: string;
  /** Enrollments of the merged-away prospect now the person's. */
  moved: string[];
  /** Enrollments left behind (both in one sequence), each with the one kept and whether it was live and cancelled. */
  leftBehind: { enrollmentId: string; keptEnrollmentId: string; sequenceId: string; cancelled: boolean }[];
  /** The record that holds the left-behind enrollments (`merged_into` the person), when there are any. */
  leftBehindOn: string | null;
  /** Live enrollments in other sequences ended because an exclusive sequence holds the person (contact policy). */
  endedForExclusivity: { enrollmentId: string; keptEnrollmentId: string }[];
  /** Person-level suppressions of one address extended to the address touches go to. */
  suppressionsFollowed: number;
  /** Jobs to remove after the commit. */
  stopped: MergeStopped[];
};

type LockedEnrollment = MergeEnrollment & { prospectId: string; currentStep: number; currentAttempt: number };

/**
 * Joins two prospects of one person in one transaction: `from`'s identities,
 * enrollments, events and CRM notifications follow to `into`, which keeps its own
 * address; the rules (which enrollment of a shared sequence goes on, which
 * suppression follows the person) are core's, passed in.
 */
export class ProspectMergeRepository {
  private readonly audit: AuditRepository;

  constructor(private readonly pool: pg.Pool) {
    this.audit = new AuditRepository(pool);
  }

  async merge(input: {
    intoId: string;
    fromId: string;
    actor: string;
    reason: string;
    /** Core's `mergeEnrollmentsPlan`. */
    plan: (into: MergeEnrollment[], from: MergeEnrollment[]) => MergeDecision[];
    /** Core's `suppressionFollowsPerson`. */
    followsPerson: (reason: string) => boolean;
    /** Core's `exclusiveMergeEnds`. */
    exclusiveEnds: (survivors: MergeSurvivor[]) => { enrollmentId: string; keptEnrollmentId: string }[];
  }): Promise<MergeResult> {
    const { intoId, fromId } = input;
    if (intoId === fromId) {
      throw new DomainError('invalid_state', 'a prospect cannot be merged into itself', { field: 'from' });
    }
    return inTransaction(this.pool, async (client) => {
      // Both rows locked in id order, as every other writer of two prospects would.
      const found = await client.query<{ id: string; email: string; merged_into: string | null }>(
        'SELECT id, email, merged_into FROM prospect WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE',
        [[intoId, fromId]],
      );
      const into = found.rows.find((r) => r.id === intoId && r.merged_into === null);
      const from = found.rows.find((r) => r.id === fromId && r.merged_into === null);
      if (!into) throw new DomainError('not_found', 'prospect not found', { prospectId: intoId });
      if (!from) throw new DomainError('not_found', 'prospect to merge not found', { field: 'from' });

      // The enrollments locked in id order, as the sender's claim and the stops lock them.
      const { rows } = await client.query<LockedEnrollment>(
        `SELECT id, prospect_id AS "prospectId", sequence_id AS "sequenceId", status, created_at AS "createdAt",
           current_step AS "currentStep", current_attempt AS "currentAttempt"
         FROM enrollment WHERE prospect_id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
        [[intoId, fromId]],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const decisions = input.plan(
        rows.filter((r) => r.prospectId === intoId),
        rows.filter((r) => r.prospectId === fromId),
      );
      const behind: MergeResult['leftBehind'] = [];
      const moved: string[] = [];
      for (const d of decisions) {
        const e = byId.get(d.enrollmentId)!;
        if (d.action === 'move') moved.push(d.enrollmentId);
        else if (d.action === 'cancel') {
          behind.push({
            enrollmentId: d.enrollmentId,
            keptEnrollmentId: d.keptEnrollmentId,
            sequenceId: e.sequenceId,
            cancelled: false,
          });
        } else {
          moved.push(d.enrollmentId);
          behind.push({
            enrollmentId: d.replacedEnrollmentId,
            keptEnrollmentId: d.enrollmentId,
            sequenceId: e.sequenceId,
            cancelled: false,
          });
        }
      }

      // Left-behind enrollments (one person is in a sequence once) go to a record of
      // their own, with no address of the person, erased with the person by cascade.
      let leftBehindOn: string | null = null;
      const stopped: MergeStopped[] = [];
      if (behind.length > 0) {
        leftBehindOn = randomUUID();
        await client.query(
          `INSERT INTO prospect (id, email, email_status, merged_into) VALUES ($1, $2, 'invalid', $3)`,
          // `.invalid` is reserved (RFC 2606): never an address, never delivered.
          [leftBehindOn, `merged-${leftBehindOn}@merged.invalid`, intoId],
        );
        const ids = behind.map((b) => b.enrollmentId);
        await client.query('UPDATE enrollment SET prospect_id = $2 WHERE id = ANY($1::uuid[])', [
          ids,
          leftBehindOn,
        ]);
        const cancelled = await client.query<MergeStopped>(
          `UPDATE enrollment SET status = 'cancelled', stop_reason = $2, next_touch_at = NULL, updated_at = now()
           WHERE id = ANY($1::uuid[]) AND status IN ${LIVE_STATUSES_SQL}
           RETURNING id, current_step AS "currentStep", current_attempt AS "currentAttempt"`,
          [ids, MERGED_REASON],
        );
        stopped.push(...cancelled.rows);
        const wasLive = new Set(cancelled.rows.map((r) => r.id));
        for (const b of behind) b.cancelled = wasLive.has(b.enrollmentId);
      }
      if (moved.length > 0) {
        await client.query('UPDATE enrollment SET prospect_id = $2 WHERE id = ANY($1::uuid[])', [
          moved,
          intoId,
        ]);
      }

      // Exclusivity: the person's live enrollments in other sequences, now together.
      const live = await client.query<{ id: string; sequenceId: string; createdAt: Date; policies: unknown }>(
        `SELECT e.id, e.sequence_id AS "sequenceId", e.created_at AS "createdAt", s.policies
         FROM enrollment e JOIN sequence s ON s.id = e.sequence_id
         WHERE e.prospect_id = $1 AND e.status IN ${LIVE_STATUSES_SQL}`,
        [intoId],
      );
      const endedForExclusivity = input.exclusiveEnds(
        live.rows.map((r) => ({
          id: r.id,
          sequenceId: r.sequenceId,
          createdAt: r.createdAt,
          exclusive: ContactPolicySchema.parse((r.policies as { contact?: unknown } | null)?.contact ?? {})
            .exclusive,
        })),
      );
      if (endedForExclusivity.length > 0) {
        const ended = await client.query<MergeStopped>(
          `UPDATE enrollment SET status = 'cancelled', stop_reason = $2, next_touch_at = NULL, updated_at = now()
           WHERE id = ANY($1::uuid[]) AND status IN ${LIVE_STATUSES_SQL}
           RETURNING id, current_step AS "currentStep", current_attempt AS "currentAttempt"`,
          [endedForExclusivity.map((x) => x.enrollmentId), MERGED_REASON],
        );
        stopped.push(...ended.rows);
      }

      // What names the person by id follows; records left by earlier merges of `from` too
      // (deleting `from` would otherwise erase them by cascade).
      await client.query('UPDATE prospect SET merged_into = $2 WHERE merged_into = $1', [fromId, intoId]);
      await client.query('UPDATE prospect_identity SET prospect_id = $2 WHERE prospect_id = $1', [
        fromId,
        intoId,
      ]);
      await client.query('UPDATE event SET prospect_id = $2 WHERE prospect_id = $1', [fromId, intoId]);
      await client.query('UPDATE event_funnel_archive SET prospect_id = $2 WHERE prospect_id = $1', [
        fromId,
        intoId,
      ]);
      await client.query('UPDATE crm_notification SET prospect_id = $2 WHERE prospect_id = $1', [
        fromId,
        intoId,
      ]);
      // What `into` lacks, `from` fills; attributes are merged, `into`'s winning.
      await client.query(
        `UPDATE prospect p SET first_name = COALESCE(p.first_name, f.first_name),
           last_name = COALESCE(p.last_name, f.last_name), company = COALESCE(p.company, f.company),
           company_domain = COALESCE(p.company_domain, f.company_domain), timezone = COALESCE(p.timezone, f.timezone),
           attributes = f.attributes || p.attributes, consent = COALESCE(p.consent, f.consent),
           legal_basis = COALESCE(p.legal_basis, f.legal_basis), consent_at = COALESCE(p.consent_at, f.consent_at)
         FROM prospect f WHERE p.id = $1 AND f.id = $2`,
        [intoId, fromId],
      );
      await client.query('DELETE FROM prospect WHERE id = $1', [fromId]);

      // A person who unsubscribed (complained, was suppressed by hand) under one address
      // did so as a person: the address touches go to is suppressed too, and their live
      // enrollments end at once. A bounce stays with its dead address.
      const suppressions = await client.query<{ reason: string }>(
        `SELECT s.reason FROM suppression s JOIN prospect_identity i ON i.kind = 'email'
           AND ((s.kind = 'email' AND s.value = i.value)
             OR (s.kind = 'hash' AND s.value = encode(sha256(convert_to(i.value, 'UTF8')), 'hex')))
         WHERE i.prospect_id = $1 ORDER BY s.created_at`,
        [intoId],
      );
      const follows = suppressions.rows.filter((s) => input.followsPerson(s.reason));
      let suppressionsFollowed = 0;
      if (follows.length > 0) {
        const added = await client.query(
          `INSERT INTO suppression (id, kind, value, reason) VALUES ($1, 'email', $2, $3)
           ON CONFLICT (kind, value) DO NOTHING`,
          [randomUUID(), into.email, follows[0]!.reason],
        );
        suppressionsFollowed = added.rowCount ?? 0;
        const ended = await client.query<MergeStopped>(
          `WITH target AS (
             SELECT $1::uuid AS prospect_id, 'cancelled'::"EnrollmentStatus" AS status, 'suppressed:email'::text AS reason,
                    NULL::timestamptz AS at, 1::bigint AS ord),
           ${stopProspectsSql('target')}
           SELECT id, "currentStep", "currentAttempt" FROM stopped WHERE live`,
          [intoId],
        );
        stopped.push(...ended.rows);
      }

      const result: MergeResult = {
        prospectId: intoId,
        mergedFrom: fromId,
        moved,
        leftBehind: behind,
        leftBehindOn,
        endedForExclusivity,
        suppressionsFollowed,
        stopped,
      };
      // Ids, counts and the operator's reason only: the audit log keeps no address.
      await this.audit.writeIn(client, {
        actor: input.actor,
        action: 'prospect.merged',
        entityType: 'prospect',
        entityId: intoId,
        data: {
          from: fromId,
          reason: input.reason,
          moved,
          leftBehind: behind,
          leftBehindOn,
          endedForExclusivity,
          suppressionsFollowed,
        },
      });
      const cancelledHere = [
        ...behind.filter((x) => x.cancelled),
        ...endedForExclusivity.map((x) => ({ ...x, cancelled: true })),
      ];
      for (const b of cancelledHere) {
        await this.audit.writeIn(client, {
          actor: input.actor,
          action: 'enrollment.cancelled',
          entityType: 'enrollment',
          entityId: b.enrollmentId,
          data: {
            reason: MERGED_REASON,
            keptEnrollmentId: b.keptEnrollmentId,
            mergedInto: intoId,
            from: fromId,
          },
        });
      }
      return result;
    });
  }
}
