import { type CanonicalEvent, normalisedEmail, normaliseLinkedInProfileUrl } from '@touchbase/core';
import type { EventTarget } from '@touchbase/use-cases';
import type pg from 'pg';

export type EnrollmentTargetRow = {
  id: string;
  prospect_id: string;
  email: string;
  merged_into: string | null;
};
type ProspectTargetRow = { id: string; email: string };

/**
 * Finds the person an event is about: our enrollment id, our message id, a CRM or
 * LinkedIn identity, any of their addresses, in that order. An enrollment left behind
 * by a merge names the person it was merged into. Reads only; nothing is locked.
 */
export class EventTargetRepository {
  async resolve(
    client: pg.Pool | pg.PoolClient,
    event: CanonicalEvent,
    /** The named enrollment's row when the caller has read it already (null: there is none). */
    named?: EnrollmentTargetRow | null,
  ): Promise<EventTarget | null> {
    if (event.enrollmentId) {
      const row =
        named !== undefined
          ? (named ?? undefined)
          : (
              await client.query<EnrollmentTargetRow>({
                name: 'event-resolve-enrollment',
                text: 'SELECT e.id, p.id AS prospect_id, p.email, p.merged_into FROM enrollment e JOIN prospect p ON p.id = e.prospect_id WHERE e.id = $1',
                values: [event.enrollmentId],
              })
            ).rows[0];
      // The enrollment id alone is not proof: the address, when given, must match.
      if (row?.merged_into) {
        const merged = await this.mergedPerson(client, row.merged_into);
        if (merged) return merged;
      } else if (row && (!event.email || row.email === normalisedEmail(event.email))) {
        return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
      }
    }
    if (event.messageId) {
      const r = await client.query<EnrollmentTargetRow>(
        `SELECT e.id, p.id AS prospect_id, p.email, p.merged_into FROM touch_fact t JOIN enrollment e ON e.id = t.enrollment_id
         JOIN prospect p ON p.id = e.prospect_id WHERE t.provider_message_id = $1 LIMIT 1`,
        [event.messageId],
      );
      const row = r.rows[0];
      if (row?.merged_into) {
        const merged = await this.mergedPerson(client, row.merged_into);
        if (merged) return merged;
      } else if (row) return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
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
      // Stored in core's one form since identities came: found by the index.
      const normalised = normaliseLinkedInProfileUrl(event.linkedinUrl);
      if (normalised) {
        const exact = await client.query<ProspectTargetRow>(
          `SELECT p.id, p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id
           WHERE i.kind = 'linkedin' AND i.value = $1`,
          [normalised],
        );
        const row = exact.rows[0];
        if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
      }
      // Rows written before, as given: with and without scheme, www, trailing slash or query.
      const r = await client.query<ProspectTargetRow>(
        `SELECT p.id, p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id
         WHERE i.kind = 'linkedin' AND ${normalisedUrl('i.value')} = ${normalisedUrl('$1')} LIMIT 1`,
        [event.linkedinUrl],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    if (event.email) {
      // Any address of the person, not only the one touches go to (core's identities).
      const r = await client.query<ProspectTargetRow>({
        name: 'event-resolve-email-identity',
        text: `SELECT p.id, p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id
               WHERE i.kind = 'email' AND i.value = $1`,
        values: [normalisedEmail(event.email)],
      });
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    return null;
  }

  /** The person a record left behind by a merge was merged into (its enrollment there was cancelled: none named). */
  private async mergedPerson(
    client: pg.Pool | pg.PoolClient,
    prospectId: string,
  ): Promise<EventTarget | null> {
    const r = await client.query<ProspectTargetRow>('SELECT id, email FROM prospect WHERE id = $1', [
      prospectId,
    ]);
    const row = r.rows[0];
    return row ? { prospectId: row.id, email: row.email, enrollmentId: null } : null;
  }
}

function normalisedUrl(expr: string): string {
  return `regexp_replace(regexp_replace(regexp_replace(lower(trim(${expr})), '^(https?://)?(www\\.)?', ''), '[?#].*$', ''), '/+$', '')`;
}
