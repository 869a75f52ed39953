import type { EventTarget } from '@touchbase/use-cases';
import type pg from 'pg';
import { ContactPolicyRepository } from './contact-policy.repository.js';
import { CrmOutboxRepository } from './crm-outbox.repository.js';
import { EventLogRepository } from './event-log.repository.js';

/**
 * An erased person's rows: the prospect (its identities, enrollments and touches go
 * with it by cascade), its day-cap slots, its triage items, its CRM notifications and the classifier's
 * quotes of its words. Each table's own repository deletes its part.
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

  async eraseProspect(client: pg.PoolClient, target: EventTarget): Promise<void> {
    await client.query('DELETE FROM triage_item WHERE email = $1', [target.email]);
    await this.outbox.forget(client, target.prospectId, target.email);
    await this.log.forgetQuotes(client, target.prospectId);
    await this.contact.forget(client, target.prospectId);
    await client.query('DELETE FROM prospect WHERE id = $1', [target.prospectId]);
  }
}
