import type pg from 'pg';

/** One node of a version's graph in the funnel per node. */
export type NodeFunnelRow = {
  version: number;
  step: number;
  node: string | null;
  action: string | null;
  reached: number;
  sent: number;
  failed: number;
  repliedAfter: number;
};

/** Funnel counts for one sequence (or all). */
export async function enrollmentFunnel(
  pool: pg.Pool,
  sequenceId?: string,
): Promise<{ enrolled: number; byStatus: Record<string, number>; sentByStep: Record<string, number> }> {
  const s = await pool.query<{ status: string; n: number }>(
    `SELECT status::text, count(*)::int AS n FROM enrollment WHERE ($1::uuid IS NULL OR sequence_id = $1) GROUP BY status`,
    [sequenceId ?? null],
  );
  const t = await pool.query<{ step: number; n: number }>(
    // A step resent after a soft bounce reached its prospect once.
    `SELECT t.step, count(DISTINCT t.enrollment_id)::int AS n FROM touch_fact t JOIN enrollment e ON e.id = t.enrollment_id
     WHERE t.status = 'sent' AND ($1::uuid IS NULL OR e.sequence_id = $1) GROUP BY t.step ORDER BY t.step`,
    [sequenceId ?? null],
  );
  const byStatus = Object.fromEntries(s.rows.map((r) => [r.status, r.n]));
  return {
    enrolled: s.rows.reduce((a, r) => a + r.n, 0),
    byStatus,
    sentByStep: Object.fromEntries(t.rows.map((r) => [String(r.step), r.n])),
  };
}

/**
 * The funnel per node of a sequence's graph (per version: node numbers mean
 * different nodes in different versions; a touch counts in the version it ran
 * in, an enrollment migrated since included): how many enrollments reached each node
 * (a touch claimed), had its action done (`sent`), had it fail for good (a
 * LinkedIn profile not found: the walk went on elsewhere), and replied while
 * waiting after it.
 */
export async function nodeFunnel(pool: pg.Pool, sequenceId: string): Promise<NodeFunnelRow[]> {
  const { rows } = await pool.query(
    `SELECT v.version, t.step,
            v.graph->'nodes'->(t.step - 1)->>'id' AS node, v.graph->'nodes'->(t.step - 1)->>'action' AS action,
            count(DISTINCT t.enrollment_id)::int AS reached,
            count(DISTINCT t.enrollment_id) FILTER (WHERE t.status = 'sent')::int AS sent,
            count(DISTINCT t.enrollment_id) FILTER (WHERE t.status = 'failed')::int AS failed,
            count(DISTINCT t.enrollment_id) FILTER (
              WHERE e.status = 'replied' AND e.sequence_version_id = t.sequence_version_id
                AND coalesce(e.waiting_node, e.current_step - 1) = t.step)::int AS "repliedAfter"
     FROM touch_fact t JOIN enrollment e ON e.id = t.enrollment_id JOIN sequence_version v ON v.id = t.sequence_version_id
     WHERE e.sequence_id = $1
     GROUP BY v.version, t.step, node, action ORDER BY v.version, t.step`,
    [sequenceId],
  );
  return rows;
}
