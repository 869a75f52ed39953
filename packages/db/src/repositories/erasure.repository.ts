import type { EventTarget } from '@touchbase/use-cases';
import type pg from 'pg';
import { ContactPolicyRepository } from './contact-policy.repository.js';
import { CrmOutboxRepository } from './crm-outbox.repository.js';
import { EventLogRepository } from './event-log.repository.js';

/**
 * An erased person's rows: the prospect (its identities, enrollments and touches go
 * with it by cascade, its reactivations too), its day-cap slots, its triage items (the
 * referrals its replies named included), its reply notifications, its CRM notifications
 * and the classifier's quotes of its words. Each table's own repository deletes its part.
 */
export class ErasureRepository {
  private readonly outbox: CrmOutboxRepository;
  private readonly log: EventLogRepository;
  private readonly contact: ContactPolicyRepository;

  constructor(pool: pg.Pool) {
    this.contact = new ContactPolicyRepository(pool);
    this.outbox = new CrmOutboxRepository(pool);
    this.log = new EventLogRepository(pool);
  }

  /** Every address of the person, its own first. */
  async personAddresses(client: pg.PoolClient, prospectId: string): Promise<string[]> {
    const { rows } = await client.query<{ value: string }>(
      `SELECT value FROM (
         SELECT email AS value, 0 AS o FROM prospect WHERE id = $1
         UNION SELECT value, 1 FROM prospect_identity WHERE prospect_id = $1 AND kind = 'email') a
       ORDER BY o, value`,
      [prospectId],
    );
    return [...new Set(rows.map((r) => r.value))];
  }

  /**
   * Deletes the person: records left behind by merges go with the prospect by cascade
   * (`merged_into`), and what names any of their addresses goes too.
   */
  async eraseProspect(client: pg.PoolClient, target: EventTarget, addresses: string[]): Promise<void> {
    const all = [...new Set([target.email, ...addresses])];
    // Its own triage items, the referrals its replies named (they came from its words), and
    // the referrals other people's replies made to one of its addresses: a referral keeps the
    // case its writer used (the local part is case-sensitive), so it is compared without it.
    await client.query(
      `DELETE FROM triage_item
       WHERE lower(email) = ANY(SELECT lower(a) FROM unnest($1::text[]) AS a)
          OR event_id IN (SELECT id FROM event WHERE prospect_id = $2)`,
      [all, target.prospectId],
    );
    // The notifications of its replies hold their first lines.
    await client.query(`DELETE FROM alert WHERE kind = 'reply.received' AND data->>'prospectId' = $1::text`, [
      target.prospectId,
    ]);
    for (const address of all) await this.outbox.forget(client, target.prospectId, address);
    await this.log.forgetQuotes(client, target.prospectId);
    await this.contact.forget(client, target.prospectId);
    // The enrollments a merge left behind are the person's too (their slots name them).
    const behind = await client.query<{ id: string }>('SELECT id FROM prospect WHERE merged_into = $1', [
      target.prospectId,
    ]);
    for (const r of behind.rows) await this.contact.forget(client, r.id);
    await client.query('DELETE FROM prospect WHERE id = $1', [target.prospectId]);
  }
}
