import type pg from 'pg';
import {
  MAILBOX_COLUMNS,
  type MailboxRow,
  mailboxOf,
  type SendContext,
  type SendContextRow,
  type SendMailbox,
  sendContextOf,
} from './send-context.rows.js';

export type { SendContext, SendMailbox } from './send-context.rows.js';

/**
 * What the sender reads before a touch: the enrollment with its prospect, sequence,
 * mailbox and domain in one read, and the mailboxes a pool's first touch may go out
 * from. Reads only; it owns no table.
 */
export class SendContextRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** One enrollment's send context, or null when the enrollment is gone. */
  async loadForSend(enrollmentId: string): Promise<SendContext | null> {
    return (await this.loadManyForSend([enrollmentId])).get(enrollmentId) ?? null;
  }

  /** `loadForSend` for many enrollments in one statement (the sender batches touches taken together). */
  async loadManyForSend(enrollmentIds: string[]): Promise<Map<string, SendContext>> {
    const { rows } = await this.pool.query<SendContextRow>({
      // Named: prepared once per connection, so the five-way join is not parsed and planned per batch.
      name: 'touch-load-many-for-send',
      text: `SELECT e.id, e.status, e.current_step, e.current_attempt, e.sequence_id, e.sequence_version_id, e.conversation_id, e.first_message_id,
              e.next_touch_at,
              p.id AS p_id, p.email, p.email_status, p.first_name, p.last_name, p.company, p.timezone AS p_tz, p.company_domain, p.attributes,
              ${MAILBOX_COLUMNS}, s.mailbox_pool_id, s.sending_window, (s.policies -> 'contact')::text AS contact_policy,
              d.id AS d_id, d.domain, d.status AS d_status, d.hold_touches AS d_hold
       FROM enrollment e JOIN prospect p ON p.id = e.prospect_id JOIN sequence s ON s.id = e.sequence_id
       JOIN mailbox m ON m.id = e.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
       WHERE e.id = ANY($1::uuid[])`,
      values: [enrollmentIds],
    });
    return new Map(rows.map((r) => [r.id, sendContextOf(r)]));
  }

  /**
   * The mailboxes a pool's first touch may go out from: active, on an active
   * domain. When the prospect was already touched from one of them (in any
   * sequence), only that one: the prospect stays on the mailbox it knows.
   */
  async poolCandidates(poolId: string, prospectId: string): Promise<SendMailbox[]> {
    const { rows } = await this.pool.query<MailboxRow>(
      `WITH members AS (
         SELECT m.* FROM mailbox_pool_member pm JOIN mailbox m ON m.id = pm.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
         WHERE pm.pool_id = $1 AND m.status = 'active' AND d.status = 'active'),
       known AS (
         SELECT e.mailbox_id FROM enrollment e JOIN touch_fact t ON t.enrollment_id = e.id
         WHERE e.prospect_id = $2 AND t.status IN ('sent', 'unknown') AND e.mailbox_id IN (SELECT id FROM members)
         ORDER BY t.sent_at LIMIT 1)
       SELECT ${MAILBOX_COLUMNS} FROM members m
       WHERE NOT EXISTS (SELECT 1 FROM known) OR m.id = (SELECT mailbox_id FROM known)
       ORDER BY m.id`,
      [poolId, prospectId],
    );
    return rows.map(mailboxOf);
  }
}
