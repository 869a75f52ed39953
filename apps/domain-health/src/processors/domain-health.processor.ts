import type pg from 'pg';
import type { Logger, Metrics } from '@touchbase/telemetry';

export type DomainHealthDeps = {
  pool: pg.Pool;
  logger: Logger;
  metrics: Metrics;
  threshold: number;
  minSends: number;
  windowDays: number;
};

/** One domain's figures over the window. */
export type DomainFigures = { domainId: string; domain: string; status: string; sends: number; bounces: number; rate: number };

/**
 * One tick: the hard-bounce rate per sending domain over the rolling window; a
 * domain above the threshold with enough sends is paused (new enrollments are
 * refused, its touches held) and ops alerted, once per change of state.
 */
export async function domainHealthTick(deps: DomainHealthDeps): Promise<DomainFigures[]> {
  const { rows } = await deps.pool.query<DomainFigures>(
    `WITH sends AS (
       SELECT m.domain_id, count(*)::int AS n FROM touch t
       JOIN enrollment e ON e.id = t.enrollment_id JOIN mailbox m ON m.id = e.mailbox_id
       WHERE t.status = 'sent' AND t.sent_at > now() - make_interval(days => $1) GROUP BY m.domain_id),
     bounces AS (
       SELECT m.domain_id, count(*)::int AS n FROM event ev
       JOIN enrollment e ON e.id = ev.enrollment_id JOIN mailbox m ON m.id = e.mailbox_id
       WHERE ev.type = 'bounce' AND ev.outcome = 'applied' AND ev.received_at > now() - make_interval(days => $1)
       GROUP BY m.domain_id)
     SELECT d.id AS "domainId", d.domain, d.status::text AS status, COALESCE(s.n, 0) AS sends, COALESCE(b.n, 0) AS bounces,
            CASE WHEN COALESCE(s.n, 0) = 0 THEN 0 ELSE COALESCE(b.n, 0)::float / s.n END AS rate
     FROM sending_domain d LEFT JOIN sends s ON s.domain_id = d.id LEFT JOIN bounces b ON b.domain_id = d.id`,
    [deps.windowDays],
  );
  for (const d of rows) {
    deps.metrics.domainBounceRate.set({ domain: d.domain }, d.rate);
    deps.metrics.domainPaused.set({ domain: d.domain }, d.status === 'paused' ? 1 : 0);
    if (d.status !== 'active' || d.sends < deps.minSends || d.rate <= deps.threshold) continue;
    const reason = `paused because ${d.bounces} of ${d.sends} sends bounced, ${(d.rate * 100).toFixed(1)}% over ${deps.windowDays} days, above ${(deps.threshold * 100).toFixed(1)}%`;
    const paused = await deps.pool.query(
      `UPDATE sending_domain SET status = 'paused', reason = $2, status_since = now() WHERE id = $1 AND status = 'active'`,
      [d.domainId, reason],
    );
    if (paused.rowCount === 0) continue;
    const data = JSON.stringify({ sends: d.sends, bounces: d.bounces, rate: d.rate, threshold: deps.threshold });
    await deps.pool.query(
      `INSERT INTO alert (id, kind, domain_id, message, data) VALUES (gen_random_uuid(), 'domain.paused', $1, $2, $3)`,
      [d.domainId, reason, data],
    );
    await deps.pool.query(
      `INSERT INTO audit_log (actor, action, entity_type, entity_id, data) VALUES ('domain-health', 'domain.paused', 'sending_domain', $1, $2)`,
      [d.domainId, data],
    );
    deps.metrics.domainPaused.set({ domain: d.domain }, 1);
    deps.logger.warn({ domainId: d.domainId, sends: d.sends, bounces: d.bounces, rate: d.rate }, 'Sending domain paused');
  }
  return rows;
}
