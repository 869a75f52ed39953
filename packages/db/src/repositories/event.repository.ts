import { randomUUID } from 'node:crypto';
import { type CanonicalEvent, effectOf } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { EnrollmentRepository } from './enrollment.repository.js';

/** What recording an event did. */
export type ApplyResult = {
  duplicate: boolean;
  eventId: string | null;
  prospectId: string | null;
  /** `applied`, `unknown_prospect`, `no_effect` or `duplicate`. */
  outcome: string;
  /** Enrollments stopped, with the step whose pending job should now be removed. */
  stopped: { id: string; currentStep: number }[];
};

/**
 * The event log. An event is recorded once by (source, external id) and applied
 * in the same transaction, so a redelivery finds it and changes nothing, and a
 * crash leaves either both or neither.
 */
export class EventRepository {
  private readonly enrollments: EnrollmentRepository;

  constructor(private readonly pool: pg.Pool) {
    this.enrollments = new EnrollmentRepository(pool);
  }

  async recordAndApply(event: CanonicalEvent): Promise<ApplyResult> {
    return inTransaction(this.pool, async (client) => {
      const id = randomUUID();
      const inserted = await client.query(
        `INSERT INTO event (id, source, external_id, type, payload) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (source, external_id) DO NOTHING RETURNING seq`,
        [id, event.source, event.externalId, event.type, JSON.stringify(event)],
      );
      if (inserted.rowCount === 0) return { duplicate: true, eventId: null, prospectId: null, outcome: 'duplicate', stopped: [] };

      const target = await this.resolve(client, event);
      if (!target) {
        await client.query(`UPDATE event SET applied_at = now(), outcome = 'unknown_prospect' WHERE id = $1`, [id]);
        return { duplicate: false, eventId: id, prospectId: null, outcome: 'unknown_prospect', stopped: [] };
      }

      const effect = effectOf(event);
      let stopped: ApplyResult['stopped'] = [];
      if (effect.kind === 'stop') {
        stopped = await this.enrollments.stopForProspect(client, target.prospectId, effect.status, effect.reason);
        if (effect.suppress) {
          await client.query(
            `INSERT INTO suppression (id, kind, value, reason) VALUES ($1, 'email', $2, $3) ON CONFLICT (kind, value) DO NOTHING`,
            [randomUUID(), target.email, effect.reason],
          );
        }
        if (event.type === 'bounce') {
          await client.query(`UPDATE prospect SET email_status = 'invalid' WHERE id = $1`, [target.prospectId]);
        }
      }
      // Pauses (out of office) are recorded but not yet acted on; see issue 4.
      const outcome = effect.kind === 'stop' ? 'applied' : 'no_effect';
      await client.query(
        'UPDATE event SET applied_at = now(), outcome = $2, prospect_id = $3, enrollment_id = $4 WHERE id = $1',
        [id, outcome, target.prospectId, target.enrollmentId],
      );
      return { duplicate: false, eventId: id, prospectId: target.prospectId, outcome, stopped };
    });
  }

  /** Finds the prospect an event is about: by our enrollment id, our message id, then the address. */
  private async resolve(
    client: pg.PoolClient,
    event: CanonicalEvent,
  ): Promise<{ prospectId: string; email: string; enrollmentId: string | null } | null> {
    if (event.enrollmentId) {
      const r = await client.query(
        'SELECT e.id, p.id AS prospect_id, p.email FROM enrollment e JOIN prospect p ON p.id = e.prospect_id WHERE e.id = $1',
        [event.enrollmentId],
      );
      // The enrollment id alone is not proof: the address, when given, must match.
      const row = r.rows[0];
      if (row && (!event.email || row.email === event.email.toLowerCase())) {
        return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
      }
    }
    if (event.messageId) {
      const r = await client.query(
        `SELECT e.id, p.id AS prospect_id, p.email FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
         JOIN prospect p ON p.id = e.prospect_id WHERE t.provider_message_id = $1 LIMIT 1`,
        [event.messageId],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
    }
    if (event.email) {
      const r = await client.query('SELECT id, email FROM prospect WHERE email = $1', [event.email.trim().toLowerCase()]);
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    return null;
  }

  async list(filter: { prospectId?: string; type?: string }, limit: number, afterSeq?: number) {
    const { rows } = await this.pool.query(
      `SELECT seq, id, source, external_id AS "externalId", type, prospect_id AS "prospectId", enrollment_id AS "enrollmentId",
              received_at AS "receivedAt", applied_at AS "appliedAt", outcome
       FROM event WHERE ($1::uuid IS NULL OR prospect_id = $1) AND ($2::text IS NULL OR type = $2) AND ($3::bigint IS NULL OR seq > $3)
       ORDER BY seq LIMIT $4`,
      [filter.prospectId ?? null, filter.type ?? null, afterSeq ?? null, limit],
    );
    return rows;
  }
}
