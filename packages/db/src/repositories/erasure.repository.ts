import type { EventTarget } from '@touchbase/use-cases';
import type pg from 'pg';
import { CrmOutboxRepository } from './crm-outbox.repository.js';
import { EventLogRepository } from './event-log.repository.js';

/**
 * An erased person's rows: the prospect (its identities, enrollments and touches go
 * with it by cascade, its reactivations too), its triage items (the referrals its
 * replies named included), its reply notifications, its CRM notifications and the
 * classifier's quotes of its words. Each table's own repository deletes its part.
 */
export class ErasureRepository {
  private readonly outbox: CrmOutboxRepository;
  private readonly log: EventLogRepository;

  constructor(pool: pg.Pool) {
    this.outbox = new CrmOutboxRepository(pool);
    this.log = new EventLogRepository(pool);
  }

  async eraseProspect(client: pg.PoolClient, target: EventTarget): Promise<void> {
    // Its own triage items, and the referrals its replies named (they came from its words).
    await client.query(
      'DELETE FROM triage_item WHERE email = $1 OR event_id IN (SELECT id FROM event WHERE prospect_id = $2)',
      [target.email, target.prospectId],
    );
    // The notifications of its replies hold their first lines.
    await client.query(`DELETE FROM alert WHERE kind = 'reply.received' AND data->>'prospectId' = $1::text`, [
      target.prospectId,
    ]);
    await this.outbox.forget(client, target.prospectId, target.email);
    await this.log.forgetQuotes(client, target.prospectId);
    await client.query('DELETE FROM prospect WHERE id = $1', [target.prospectId]);
  }
}
