import type {
  SendingWindow,
  SequenceAction,
  SequenceGraph,
  SequenceStep,
  TemplateProspect,
  WaitingLinkedInAccount,
  WaitingMailbox,
} from '@touchbase/core';
import type pg from 'pg';
import type { EnrollmentRow } from './enrollment.repository.js';
import { LIVE_STATUSES_SQL } from './enrollment-stop.sql.js';
import { countedTouches, EMAIL_NODE } from './touch-window.repository.js';

/** A LinkedIn account's columns the waiting rule reads (its recent actions come apart). */
export type WaitingLinkedInAccountRow = Omit<WaitingLinkedInAccount, 'recentActions'>;

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
  /** The action of the node the enrollment is at (a chain's: `email`). */
  nodeAction: SequenceAction;
  /** The LinkedIn account the enrollment keeps (chosen at its first LinkedIn node), or null. */
  linkedinAccount: WaitingLinkedInAccountRow | null;
};

/** The enrollment's current node is a LinkedIn action. */
const LINKEDIN_NODE = `v.graph->'nodes'->(e.current_step - 1)->>'action' IN ('linkedin_connect', 'linkedin_message', 'linkedin_visit')`;

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
  no_linkedin_account: `e.status = 'active' AND e.linkedin_account_id IS NULL AND ${LINKEDIN_NODE}`,
  linkedin_account_paused: `e.status = 'active' AND la.status = 'paused' AND ${LINKEDIN_NODE}`,
  linkedin_window_closed: `e.status = 'active' AND (e.next_touch_at IS NULL OR e.next_touch_at <= $5) AND ${LINKEDIN_NODE}`,
  linkedin_cap_reached: `e.status = 'active' AND (e.next_touch_at IS NULL OR e.next_touch_at <= $5) AND ${LINKEDIN_NODE}`,
  task_due: `e.status = 'active' AND (e.next_touch_at IS NULL OR e.next_touch_at <= $5) AND v.graph->'nodes'->(e.current_step - 1)->>'action' = 'manual_task'`,
};

const MAILBOX = (
  m: string,
) => `json_build_object('id', ${m}.id, 'status', ${m}.status, 'statusReason', ${m}.status_reason,
  'timezone', ${m}.timezone, 'windowDays', ${m}.window_days, 'windowStart', ${m}.window_start, 'windowEnd', ${m}.window_end,
  'holidays', ${m}.holidays, 'perMinute', ${m}.per_minute, 'perHour', ${m}.per_hour, 'perDay', ${m}.per_day)`;

const LINKEDIN_ACCOUNT = (
  a: string,
) => `json_build_object('id', ${a}.id, 'name', ${a}.name, 'status', ${a}.status, 'statusReason', ${a}.status_reason,
  'timezone', ${a}.timezone, 'windowDays', ${a}.window_days, 'windowStart', ${a}.window_start, 'windowEnd', ${a}.window_end,
  'holidays', ${a}.holidays, 'invitationsPerDay', ${a}.invitations_per_day, 'invitationsPerWeek', ${a}.invitations_per_week,
  'messagesPerDay', ${a}.messages_per_day, 'profileVisitsPerDay', ${a}.profile_visits_per_day, 'perHour', ${a}.per_hour,
  'minSpacingMs', ${a}.min_spacing_ms)`;

/** A LinkedIn account's touches at the graph nodes of one action (`k.action`), as its caps count them. */
const LINKEDIN_ACTION_TOUCHES = countedTouches(
  'e.linkedin_account_id = k.account_id',
  `v.graph->'nodes'->(t.step - 1)->>'action' = k.action`,
);

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
         e.next_touch_unfitted_at AS "nextTouchUnfittedAt",
         coalesce(v.graph->'nodes'->(e.current_step - 1)->>'action', 'email') AS "nodeAction",
         CASE WHEN la.id IS NOT NULL THEN ${LINKEDIN_ACCOUNT('la')} END AS "linkedinAccount"
       FROM enrollment e JOIN prospect p ON p.id = e.prospect_id JOIN sequence s ON s.id = e.sequence_id
       JOIN sequence_version v ON v.id = e.sequence_version_id
       JOIN mailbox m ON m.id = e.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
       LEFT JOIN linkedin_account la ON la.id = e.linkedin_account_id
       WHERE e.status IN ${LIVE_STATUSES_SQL} AND ($1::uuid IS NULL OR e.id = $1) AND ($2::uuid IS NULL OR e.sequence_id = $2)
         AND ($3::uuid IS NULL OR e.id > $3) AND $5::timestamptz IS NOT NULL AND (${narrow ?? 'true'})
       ORDER BY e.id LIMIT $4`,
      [filter.id ?? null, filter.sequenceId ?? null, filter.after ?? null, limit, now],
    );
    return rows;
  }

  /**
   * When each mailbox's e-mails of the day before `now` went out (claimed ones
   * too: they hold a token), at most its day cap of them, most recent first. A
   * graph's LinkedIn actions and tasks are not its sends (nor its bucket's).
   */
  async recentSends(mailboxIds: string[], now: Date): Promise<Map<string, Date[]>> {
    const out = new Map<string, Date[]>(mailboxIds.map((id) => [id, []]));
    if (mailboxIds.length === 0) return out;
    const { rows } = await this.pool.query<{ mailboxId: string; sends: Date[] }>(
      `SELECT m.id AS "mailboxId",
         ARRAY(SELECT x.at FROM (${countedTouches('e.mailbox_id = m.id', EMAIL_NODE)}) x
               WHERE x.at > $2::timestamptz - interval '1 day' AND x.at <= $2
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

  /** The active LinkedIn accounts of each pool, in the order the sender lists them (`activeInPool`). */
  async linkedInPoolAccounts(poolIds: string[]): Promise<Map<string, WaitingLinkedInAccountRow[]>> {
    const out = new Map<string, WaitingLinkedInAccountRow[]>(poolIds.map((id) => [id, []]));
    if (poolIds.length === 0) return out;
    const { rows } = await this.pool.query<{ poolId: string; account: WaitingLinkedInAccountRow }>(
      `SELECT pm.pool_id AS "poolId", ${LINKEDIN_ACCOUNT('a')} AS account
       FROM linkedin_account_pool_member pm JOIN linkedin_account a ON a.id = pm.account_id
       WHERE pm.pool_id = ANY($1::uuid[]) AND a.status = 'active' ORDER BY a.created_at, a.id`,
      [poolIds],
    );
    for (const r of rows) out.get(r.poolId)?.push(r.account);
    return out;
  }

  /**
   * When each (account, node action) pair's actions went out before `now` (claimed
   * ones too), over its longest cap window: a week for invitations
   * (`linkedin_connect`), a day otherwise; keyed `{accountId} {action}`.
   */
  async recentLinkedInActions(
    pairs: { accountId: string; action: string }[],
    now: Date,
  ): Promise<Map<string, Date[]>> {
    const out = new Map<string, Date[]>();
    if (pairs.length === 0) return out;
    const { rows } = await this.pool.query<{ accountId: string; action: string; sends: Date[] }>(
      `SELECT k.account_id AS "accountId", k.action,
         ARRAY(SELECT x.at FROM (${LINKEDIN_ACTION_TOUCHES}) x
               WHERE x.at > $3::timestamptz - CASE WHEN k.action = 'linkedin_connect' THEN interval '7 days' ELSE interval '1 day' END
                 AND x.at <= $3
               ORDER BY 1 DESC) AS sends
       FROM unnest($1::uuid[], $2::text[]) AS k(account_id, action)`,
      [pairs.map((p) => p.accountId), pairs.map((p) => p.action), now],
    );
    for (const r of rows) out.set(`${r.accountId} ${r.action}`, r.sends);
    return out;
  }

  /** The steps and graphs of these sequence versions (to find the variables a copy lacks). */
  async versions(
    versionIds: string[],
  ): Promise<Map<string, { steps: SequenceStep[]; graph: SequenceGraph }>> {
    if (versionIds.length === 0) return new Map();
    const { rows } = await this.pool.query<{ id: string; steps: SequenceStep[]; graph: SequenceGraph }>(
      'SELECT id, steps, graph FROM sequence_version WHERE id = ANY($1::uuid[])',
      [versionIds],
    );
    return new Map(rows.map((r) => [r.id, { steps: r.steps, graph: r.graph }]));
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
