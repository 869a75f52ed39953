import { type CanonicalEvent, normalisedEmail } from '@touchbase/core';
import type { EventTarget } from '@touchbase/use-cases';
import type pg from 'pg';

type EnrollmentTargetRow = { id: string; prospect_id: string; email: string };
type ProspectTargetRow = { id: string; email: string };

/**
 * Finds the prospect an event is about: our enrollment id, our message id, a CRM or
 * LinkedIn identity, the address, in that order. Reads only; nothing is locked.
 */
export class EventTargetRepository {
  async resolve(client: pg.Pool | pg.PoolClient, event: CanonicalEvent): Promise<EventTarget | null> {
    if (event.enrollmentId) {
      const r = await client.query<EnrollmentTargetRow>({
        name: 'event-resolve-enrollment',
        text: 'SELECT e.id, p.id AS prospect_id, p.email FROM enrollment e JOIN prospect p ON p.id = e.prospect_id WHERE e.id = $1',
        values: [event.enrollmentId],
      });
      // The enrollment id alone is not proof: the address, when given, must match.
      const row = r.rows[0];
      if (row && (!event.email || row.email === normalisedEmail(event.email))) {
        return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
      }
    }
    if (event.messageId) {
      const r = await client.query<EnrollmentTargetRow>(
        `SELECT e.id, p.id AS prospect_id, p.email FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
         JOIN prospect p ON p.id = e.prospect_id WHERE t.provider_message_id = $1 LIMIT 1`,
        [event.messageId],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
    }
    if (event.crmId) {
      const r = await client.query<ProspectTargetRow>(
        `SELECT p.id, p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id
         WHERE i.kind = $1 AND i.value = $2 LIMIT 1`,
        [event.source, event.crmId],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    if (event.linkedinUrl) {
      // Profile URLs come with and without scheme, www, trailing slash or query.
      const r = await client.query<ProspectTargetRow>(
        `SELECT p.id, p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id
         WHERE i.kind = 'linkedin' AND ${normalisedUrl('i.value')} = ${normalisedUrl('$1')} LIMIT 1`,
        [event.linkedinUrl],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    if (event.email) {
      const r = await client.query<ProspectTargetRow>('SELECT id, email FROM prospect WHERE email = $1', [
        normalisedEmail(event.email),
      ]);
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    return null;
  }
}

function normalisedUrl(expr: string): string {
  return `regexp_replace(regexp_replace(regexp_replace(lower(trim(${expr})), '^(https?://)?(www\\.)?', ''), '[?#].*$', ''), '/+$', '')`;
}
