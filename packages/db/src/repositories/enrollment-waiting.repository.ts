import type { SendingWindow, SequenceStep, TemplateProspect, WaitingMailbox } from '@touchbase/core';
import type pg from 'pg';
import type { EnrollmentRow } from './enrollment.repository.js';
import { LIVE_STATUSES_SQL } from './enrollment-stop.sql.js';

/** A live enrollment with everything its sending depends on, for core's `waitingReason`. */
export type WaitingStateRow = EnrollmentRow & {
  touchInProgress: boolean;
  prospect: TemplateProspect & { timezone: string | null };
  mailbox: Omit<WaitingMailbox, 'recentSends'>;
  domain: { id: string; status: string; holdTouches: boolean; reason: string | null };
  sequenceWindow: SendingWindow | null;
  mailboxPoolId: string | null;
  /** The contact policy the sender last held the touch for, and the time it moved it to. */
  policyHold: { reason: string; until: Date } | null;
  /** The due time before it was moved into the window (core's `fitDue`), when kept. */
  nextTouchUnfittedAt: Date | null;
};

/**
 * Narrows the live enrollments in SQL to those that can have a reason, before core
 * decides; a reason not listed here is decided for every live enrollment.
 */
const PREFILTER: Record<string, string> = {
  out_of_office: `e.status = 'paused' AND e.stop_reason = 'out_of_office'`,
  missing_variable: `e.status IN ('paused', 'active')`,
  paused: `e.status = 'paused'`,
  domain_paused: `(e.status = 'queued' OR (e.status = 'active' AND d.status = 'paused'))`,
  mailbox_paused: `e.status = 'active' AND m.status = 'paused'`,
  pool_no_usable_mailbox: `e.status = 'active' AND s.mailbox_pool_id IS NOT NULL AND e.current_step = 1 AND e.conversation_id IS NULL`,
  touch_in_progress: `e.status = 'active'`,
  waiting_for_due_time: `e.status = 'active' AND e.next_touch_at > $5`,
  cooldown: `e.status = 'active' AND e.policy_hold = 'cooldown' AND e.next_touch_at > $5`,
  new_people_cap: `e.status = 'active' AND e.policy_hold = 'new_people_cap' AND e.next_touch_at > $5`,
  recipient_domain_cap: `e.status = 'active' AND e.policy_hold = 'recipient_domain_cap' AND e.next_touch_at > $5`,
  window_closed: `e.status = 'active' AND (e.next_touch_at IS NULL OR e.next_touch_at <= $5)`,
  do_not_contact_hours: `e.status = 'active' AND (e.next_touch_at IS NULL OR e.next_touch_at <= $5 OR e.next_touch_unfitted_at <= $5)`,
  mailbox_cap_reached: `e.status = 'active' AND (e.next_touch_at IS NULL OR e.next_touch_at <= $5)`,
  due: `e.status = 'active' AND (e.next_touch_at IS NULL OR e.next_touch_at <= $5)`,
};

const MAILBOX = (
  m: string,
) => `json_build_object('id', ${m}.id, 'status', ${m}.status, 'statusReason', ${m}.status_reason,
  'timezone', ${m}.timezone, 'windowDays', ${m}.window_days, 'windowStart', ${m}.window_start, 'windowEnd', ${m}.window_end,
  'holidays', ${m}.holidays, 'perMinute', ${m}.per_minute, 'perHour', ${m}.per_hour, 'perDay', ${m}.per_day)`;

/**
 * Reads for "why isn't it sending?": live enrollments with their mailbox, domain,
 * sequence and prospect, the mailboxes' sends of the last day (the caps), and the
 * usable members of pools. Reads only; the decision is core's.
 */
export class EnrollmentWaitingRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Live enrollments in id order after `after`: one (`id`), one sequence's, or all;
   * `reason` narrows them to those that can have it.
   */
  async states(
    filter: { id?: string; sequenceId?: string; reason?: string; after?: string },
    limit: number,
    now: Date,
  ): Promise<WaitingStateRow[]> {
    const narrow = filter.reason ? PREFILTER[filter.reason] : undefined;
    const { rows } = await this.pool.query<WaitingStateRow>(
      `SELECT e.id, e.prospect_id AS "prospectId", e.sequence_id AS "sequenceId", e.sequence_version_id AS "sequenceVersionId",
         e.mailbox_id AS "mailboxId", e.status, e.current_step AS "currentStep", e.current_attempt AS "currentAttempt",
         e.next_touch_at AS "nextTouchAt", e.conversation_id AS "conversationId", e.first_message_id AS "firstMessageId",
         e.stop_reason AS "stopReason", e.created_at AS "createdAt", e.updated_at AS "updatedAt",
         EXISTS (SELECT 1 FROM touch t WHERE t.enrollment_id = e.id AND t.step = e.current_step
                   AND t.attempt = e.current_attempt AND t.status = 'sending') AS "touchInProgress",
         json_build_object('id', p.id, 'email', p.email, 'firstName', p.first_name, 'lastName', p.last_name,
           'company', p.company, 'timezone', p.timezone, 'attributes', p.attributes) AS prospect,
         ${MAILBOX('m')} AS mailbox,
         json_build_object('id', d.id, 'status', d.status, 'holdTouches', d.hold_touches, 'reason', d.reason) AS domain,
         s.sending_window AS "sequenceWindow", s.mailbox_pool_id AS "mailboxPoolId",
         CASE WHEN e.policy_hold IS NOT NULL THEN json_build_object('reason', e.policy_hold, 'until', e.policy_hold_until) END AS "policyHold",
         e.next_touch_unfitted_at AS "nextTouchUnfittedAt"
       FROM enrollment e JOIN prospect p ON p.id = e.prospect_id JOIN sequence s ON s.id = e.sequence_id
       JOIN mailbox m ON m.id = e.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
       WHERE e.status IN ${LIVE_STATUSES_SQL} AND ($1::uuid IS NULL OR e.id = $1) AND ($2::uuid IS NULL OR e.sequence_id = $2)
         AND ($3::uuid IS NULL OR e.id > $3) AND $5::timestamptz IS NOT NULL AND (${narrow ?? 'true'})
       ORDER BY e.id LIMIT $4`,
      [filter.id ?? null, filter.sequenceId ?? null, filter.after ?? null, limit, now],
    );
    return rows;
  }

  /**
   * When each mailbox's touches of the day before `now` went out (claimed ones
   * too: they hold a token), at most its day cap of them, most recent first.
   */
  async recentSends(mailboxIds: string[], now: Date): Promise<Map<string, Date[]>> {
    const out = new Map<string, Date[]>(mailboxIds.map((id) => [id, []]));
    if (mailboxIds.length === 0) return out;
    const { rows } = await this.pool.query<{ mailboxId: string; sends: Date[] }>(
      `SELECT m.id AS "mailboxId",
         ARRAY(SELECT COALESCE(t.sent_at, t.created_at) FROM enrollment e JOIN touch t ON t.enrollment_id = e.id
               WHERE e.mailbox_id = m.id AND t.status IN ('sending', 'sent', 'unknown')
                 AND COALESCE(t.sent_at, t.created_at) > $2::timestamptz - interval '1 day'
                 AND COALESCE(t.sent_at, t.created_at) <= $2
               ORDER BY 1 DESC LIMIT m.per_day) AS sends
       FROM mailbox m WHERE m.id = ANY($1::uuid[])`,
      [mailboxIds, now],
    );
    for (const r of rows) out.set(r.mailboxId, r.sends);
    return out;
  }

  /** The members of each pool a first touch may go out from: active, on an active domain. */
  async usablePoolMembers(poolIds: string[]): Promise<Map<string, Omit<WaitingMailbox, 'recentSends'>[]>> {
    const out = new Map<string, Omit<WaitingMailbox, 'recentSends'>[]>(poolIds.map((id) => [id, []]));
    if (poolIds.length === 0) return out;
    const { rows } = await this.pool.query<{ poolId: string; mailbox: Omit<WaitingMailbox, 'recentSends'> }>(
      `SELECT pm.pool_id AS "poolId", ${MAILBOX('m')} AS mailbox
       FROM mailbox_pool_member pm JOIN mailbox m ON m.id = pm.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
       WHERE pm.pool_id = ANY($1::uuid[]) AND m.status = 'active' AND d.status = 'active' ORDER BY m.id`,
      [poolIds],
    );
    for (const r of rows) out.get(r.poolId)?.push(r.mailbox);
    return out;
  }

  /** The steps of these sequence versions (to find the variables a copy lacks). */
  async steps(versionIds: string[]): Promise<Map<string, SequenceStep[]>> {
    if (versionIds.length === 0) return new Map();
    const { rows } = await this.pool.query<{ id: string; steps: SequenceStep[] }>(
      'SELECT id, steps FROM sequence_version WHERE id = ANY($1::uuid[])',
      [versionIds],
    );
    return new Map(rows.map((r) => [r.id, r.steps]));
  }

  /**
   * The last node of an enrollment whose action failed for good (a LinkedIn profile
   * not found, ...) and was passed over: its node number, reason and time, or null.
   */
  async lastFailure(enrollmentId: string): Promise<{ step: number; reason: string; at: Date } | null> {
    const { rows } = await this.pool.query<{ step: number; reason: string; at: Date }>(
      `SELECT step, error AS reason, created_at AS at FROM touch
       WHERE enrollment_id = $1 AND status = 'failed' AND error IS NOT NULL ORDER BY created_at DESC LIMIT 1`,
      [enrollmentId],
    );
    return rows[0] ?? null;
  }
}
