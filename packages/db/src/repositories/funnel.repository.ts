import type { FunnelCounts } from '@touchbase/core';
import type pg from 'pg';

/** Which enrollments a funnel counts: one sequence (or all), started in [from, to). */
export type FunnelFilter = {
  sequenceId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

export type FunnelView = 'sequence' | 'step' | 'variant' | 'mailbox' | 'domain';

/** One row of a view: its keys (those of the view) and its counts. */
export type FunnelCountsRow = FunnelCounts & {
  sequenceId?: string;
  step?: number;
  variant?: number;
  mailboxId?: string;
  address?: string;
  domainId?: string;
  domain?: string;
};

// Touches are read through touch_fact: live ones and those the retention archived
// (docs/scaling.md#the-touch-table), so a funnel reads the same after a run.
// The facts every view aggregates, one row per (enrollment, step) that reached the
// prospect, with what came of it. Parameters: $1 sequence, $2 from, $3 to.
//  - sent: the step's first sent attempt (a resend after a soft bounce reached the same person);
//  - delivered, opened, clicked, replied, positive: events of that type tied to the step,
//    by our message id, else to the enrollment's (or, for an event known only by its
//    address, the prospect's enrollments') last step sent before the event happened;
//  - bounced, unsubscribed, exhausted: the enrollment's end as the domain decided it
//    (hard bounce or the third soft one; unsubscribe or complaint), on its last step sent.
const FACTS = `
scope AS (
  SELECT e.id, e.sequence_id, e.mailbox_id, m.domain_id, e.status, e.prospect_id
  FROM enrollment e JOIN mailbox m ON m.id = e.mailbox_id
  WHERE ($1::uuid IS NULL OR e.sequence_id = $1)
    AND ($2::timestamptz IS NULL OR e.created_at >= $2) AND ($3::timestamptz IS NULL OR e.created_at < $3)),
sent AS (
  SELECT DISTINCT ON (t.enrollment_id, t.step) t.enrollment_id, t.step, COALESCE(t.variant, 0) AS variant, t.sent_at
  FROM touch_fact t JOIN scope s ON s.id = t.enrollment_id
  WHERE t.status = 'sent'
  ORDER BY t.enrollment_id, t.step, t.attempt),
raw_event AS (
  SELECT ev.type, ev.enrollment_id, ev.prospect_id, ev.payload->>'messageId' AS message_id,
         COALESCE((ev.payload->>'occurredAt')::timestamptz, ev.received_at) AS at,
         (ev.type = 'reply' AND (ev.payload->>'sentiment' = 'positive' OR ev.classification = 'interested')) AS positive
  FROM event ev
  WHERE ev.type IN ('delivered', 'opened', 'clicked', 'reply') AND ev.prospect_id IN (SELECT prospect_id FROM scope)
  UNION ALL
  -- Engagement the retention job retired: the same facts, kept in their archive
  -- (docs/scaling.md#event-retention). A fact in both (a run stopped between its two
  -- commits) changes no count: every count below is of distinct enrollments.
  SELECT a.type, a.enrollment_id, a.prospect_id, a.message_id, a.at, false
  FROM event_funnel_archive a WHERE a.prospect_id IN (SELECT prospect_id FROM scope)),
tied AS (
  SELECT r.type, r.positive, COALESCE(m.enrollment_id, f.enrollment_id) AS enrollment_id, COALESCE(m.step, f.step) AS step
  FROM raw_event r
  LEFT JOIN LATERAL (
    SELECT t.enrollment_id, t.step FROM touch_fact t
    WHERE r.message_id IS NOT NULL AND t.provider_message_id = r.message_id AND t.status = 'sent' LIMIT 1) m ON true
  LEFT JOIN LATERAL (
    SELECT DISTINCT ON (s.enrollment_id) s.enrollment_id, s.step
    FROM sent s JOIN scope e ON e.id = s.enrollment_id
    WHERE m.enrollment_id IS NULL
      AND (CASE WHEN r.enrollment_id IS NOT NULL THEN e.id = r.enrollment_id ELSE e.prospect_id = r.prospect_id END)
    -- the last step sent before the event; failing that (clocks apart), the first one
    ORDER BY s.enrollment_id, (s.sent_at <= r.at) DESC, CASE WHEN s.sent_at <= r.at THEN -s.step ELSE s.step END) f ON true),
engaged AS (
  SELECT enrollment_id, step, bool_or(type = 'delivered') AS delivered, bool_or(type = 'opened') AS opened,
         bool_or(type = 'clicked') AS clicked, bool_or(type = 'reply') AS replied, bool_or(positive) AS positive
  FROM tied WHERE enrollment_id IN (SELECT id FROM scope) GROUP BY enrollment_id, step),
last_sent AS (SELECT enrollment_id, max(step) AS step FROM sent GROUP BY enrollment_id),
facts AS (
  SELECT s.enrollment_id, s.step, s.variant,
         COALESCE(g.delivered, false) AS delivered, COALESCE(g.opened, false) AS opened,
         COALESCE(g.clicked, false) AS clicked, COALESCE(g.replied, false) AS replied,
         COALESCE(g.positive, false) AS positive,
         (l.step = s.step AND e.status = 'bounced') AS bounced,
         (l.step = s.step AND e.status = 'unsubscribed') AS unsubscribed,
         (l.step = s.step AND e.status = 'exhausted') AS exhausted
  FROM sent s JOIN scope e ON e.id = s.enrollment_id JOIN last_sent l ON l.enrollment_id = s.enrollment_id
  LEFT JOIN engaged g ON g.enrollment_id = s.enrollment_id AND g.step = s.step)`;

// Distinct enrollments per count: a row over several steps counts a person once.
const COUNTS = `
  count(DISTINCT f.enrollment_id)::int AS sent,
  count(DISTINCT f.enrollment_id) FILTER (WHERE f.delivered)::int AS delivered,
  count(DISTINCT f.enrollment_id) FILTER (WHERE f.opened)::int AS opened,
  count(DISTINCT f.enrollment_id) FILTER (WHERE f.clicked)::int AS clicked,
  count(DISTINCT f.enrollment_id) FILTER (WHERE f.replied)::int AS replied,
  count(DISTINCT f.enrollment_id) FILTER (WHERE f.positive)::int AS "positiveReplies",
  count(DISTINCT f.enrollment_id) FILTER (WHERE f.bounced)::int AS bounced,
  count(DISTINCT f.enrollment_id) FILTER (WHERE f.unsubscribed)::int AS unsubscribed`;

const VIEWS: Record<FunnelView, string> = {
  sequence: `SELECT e.sequence_id AS "sequenceId", count(DISTINCT e.id)::int AS enrolled, ${COUNTS},
      count(DISTINCT e.id) FILTER (WHERE e.status = 'exhausted')::int AS exhausted
    FROM scope e LEFT JOIN facts f ON f.enrollment_id = e.id GROUP BY e.sequence_id ORDER BY e.sequence_id`,
  step: `SELECT e.sequence_id AS "sequenceId", f.step, ${COUNTS},
      count(DISTINCT f.enrollment_id) FILTER (WHERE f.exhausted)::int AS exhausted
    FROM facts f JOIN scope e ON e.id = f.enrollment_id GROUP BY e.sequence_id, f.step ORDER BY e.sequence_id, f.step`,
  variant: `SELECT e.sequence_id AS "sequenceId", f.step, f.variant, ${COUNTS},
      count(DISTINCT f.enrollment_id) FILTER (WHERE f.exhausted)::int AS exhausted
    FROM facts f JOIN scope e ON e.id = f.enrollment_id
    GROUP BY e.sequence_id, f.step, f.variant ORDER BY e.sequence_id, f.step, f.variant`,
  mailbox: `SELECT e.mailbox_id AS "mailboxId", m.address, count(DISTINCT e.id)::int AS enrolled, ${COUNTS},
      count(DISTINCT e.id) FILTER (WHERE e.status = 'exhausted')::int AS exhausted
    FROM scope e JOIN mailbox m ON m.id = e.mailbox_id LEFT JOIN facts f ON f.enrollment_id = e.id
    GROUP BY e.mailbox_id, m.address ORDER BY m.address`,
  domain: `SELECT e.domain_id AS "domainId", d.domain, count(DISTINCT e.id)::int AS enrolled, ${COUNTS},
      count(DISTINCT e.id) FILTER (WHERE e.status = 'exhausted')::int AS exhausted
    FROM scope e JOIN sending_domain d ON d.id = e.domain_id LEFT JOIN facts f ON f.enrollment_id = e.id
    GROUP BY e.domain_id, d.domain ORDER BY d.domain`,
};

/**
 * The funnel read by SQL: one statement per view (per sequence, step, A/B variant,
 * mailbox or sending domain) over the same facts. Reads only; the rates are core's
 * `funnelRow`. A sequence can be read from a replica: nothing here writes.
 */
export class FunnelRepository {
  constructor(private readonly pool: pg.Pool) {}

  async view(view: FunnelView, filter: FunnelFilter): Promise<FunnelCountsRow[]> {
    const { rows } = await this.pool.query<FunnelCountsRow>(`WITH ${FACTS}\n${VIEWS[view]}`, [
      filter.sequenceId ?? null,
      filter.from ?? null,
      filter.to ?? null,
    ]);
    return rows;
  }
}
