import type { MigrationCandidate, RanNode } from '@touchbase/core';
import type {
  MigrationBatchDecision,
  MigrationBatchRow,
  MigrationStore,
  NewSequenceMigration,
  SequenceMigrationRow,
} from '@touchbase/use-cases';
import type pg from 'pg';
import { inTransaction } from '../database.js';

/** A touch row of the enrollment's current node that does not make the node run: in flight, or an attempt soft-bounced and waiting for its resend. */
const CURRENT_NODE_PENDING = `t.step = e.current_step AND (t.status = 'sending' OR e.current_attempt > t.attempt)`;

/** A touch row's node: the version it ran in and its number there (core's `RanNode`). */
const RAN_NODE = `jsonb_build_object('version', t.sequence_version_id, 'node', t.step)`;

const MIGRATION_COLUMNS = `m.id, m.sequence_id, m.from_version_id, m.to_version_id, m.mapping, m.filter, m.plan,
  m.fingerprint, m.status, m.reason, m.planned_by, m.applied_by, m.created_at, m.started_at, m.finished_at`;

/**
 * Persists version migrations: the plan with its items, and the batches that
 * apply it (one transaction each, the enrollments locked as the sender's claim
 * locks them). Decisions are the caller's (packages/use-cases).
 */
export class SequenceMigrationRepository implements MigrationStore {
  constructor(private readonly pool: pg.Pool) {}

  /** The live enrollments of a version a plan looks at, with the highest node each has a touch for. */
  async candidates(
    versionId: string,
    statuses: readonly string[],
    nodes: readonly number[] | null,
  ): Promise<MigrationCandidate[]> {
    const { rows } = await this.pool.query<{
      id: string;
      node: number;
      status: string;
      ran: RanNode[];
      mid_thread: boolean;
    }>(
      `SELECT e.id, e.current_step AS node, e.status::text AS status,
              -- A touch of its current node being sent now is in flight, not run: the
              -- enrollment moves once it settles, by the node it is at then. A node
              -- waiting for its resend after a soft bounce has not run either: a move
              -- onto the same node keeps the attempt (and its key).
              -- Each as (the version it ran in, its number there): numbers are per version.
              COALESCE(jsonb_agg(DISTINCT ${RAN_NODE}) FILTER (WHERE t.step IS NOT NULL AND NOT (${CURRENT_NODE_PENDING})), '[]') AS ran,
              COALESCE(bool_or(t.status = 'sent'), false) AS mid_thread
       FROM enrollment e LEFT JOIN touch t ON t.enrollment_id = e.id
       WHERE e.sequence_version_id = $1 AND e.status::text = ANY($2::text[])
         AND ($3::int[] IS NULL OR e.current_step = ANY($3::int[]))
       GROUP BY e.id ORDER BY e.id`,
      [versionId, statuses, nodes],
    );
    return rows.map((r) => ({
      id: r.id,
      node: r.node,
      status: r.status,
      ran: r.ran,
      midThread: r.mid_thread,
    }));
  }

  /** Stores a plan and its items (one per move) in one transaction. */
  async createPlan(m: NewSequenceMigration): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO sequence_migration (id, sequence_id, from_version_id, to_version_id, mapping, filter, plan,
           fingerprint, reason, planned_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          m.id,
          m.sequenceId,
          m.fromVersionId,
          m.toVersionId,
          JSON.stringify(m.mapping),
          JSON.stringify(m.filter),
          JSON.stringify(m.plan),
          m.fingerprint,
          m.reason,
          m.plannedBy,
        ],
      );
      // In slices: one statement's parameters stay small for a large population.
      for (let i = 0; i < m.moves.length; i += 10_000) {
        const part = m.moves.slice(i, i + 10_000);
        await client.query(
          `INSERT INTO sequence_migration_item (migration_id, enrollment_id, from_node, to_node)
           SELECT $1, e, f, t FROM unnest($2::uuid[], $3::int[], $4::int[]) AS x(e, f, t)`,
          [m.id, part.map((x) => x.enrollmentId), part.map((x) => x.fromNode), part.map((x) => x.toNode)],
        );
      }
    });
  }

  /** One migration of a sequence with its progress, or null. */
  async get(id: string, sequenceId?: string): Promise<SequenceMigrationRow | null> {
    const { rows } = await this.pool.query(
      `SELECT ${MIGRATION_COLUMNS},
         (SELECT count(*) FROM sequence_migration_item i WHERE i.migration_id = m.id)::int AS total,
         (SELECT count(*) FROM sequence_migration_item i WHERE i.migration_id = m.id AND i.state = 'pending')::int AS pending,
         (SELECT count(*) FROM sequence_migration_item i WHERE i.migration_id = m.id AND i.state = 'moved')::int AS moved,
         (SELECT count(*) FROM sequence_migration_item i WHERE i.migration_id = m.id AND i.state = 'skipped')::int AS skipped,
         (SELECT COALESCE(sum(deferrals), 0) FROM sequence_migration_item i WHERE i.migration_id = m.id)::int AS deferrals,
         (SELECT COALESCE(jsonb_object_agg(reason, n), '{}'::jsonb) FROM (
            SELECT reason, count(*)::int AS n FROM sequence_migration_item i
            WHERE i.migration_id = m.id AND i.state = 'skipped' GROUP BY reason) r) AS skipped_by
       FROM sequence_migration m WHERE m.id = $1 AND ($2::uuid IS NULL OR m.sequence_id = $2)`,
      [id, sequenceId ?? null],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      sequenceId: r.sequence_id,
      fromVersionId: r.from_version_id,
      toVersionId: r.to_version_id,
      mapping: r.mapping,
      filter: r.filter,
      plan: r.plan,
      fingerprint: r.fingerprint,
      status: r.status,
      reason: r.reason,
      plannedBy: r.planned_by,
      appliedBy: r.applied_by,
      createdAt: r.created_at,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      progress: {
        total: r.total,
        pending: r.pending,
        moved: r.moved,
        skipped: r.skipped,
        deferrals: r.deferrals,
        skippedBy: r.skipped_by,
      },
    };
  }

  /** Moves a plan to `applying` (once); false when it was not `planned` any more. */
  async startApplying(id: string, appliedBy: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE sequence_migration SET status = 'applying', applied_by = $2, started_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'planned'`,
      [id, appliedBy],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** The migrations a crash or a restart left half applied. */
  async applying(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM sequence_migration WHERE status = 'applying' ORDER BY started_at`,
    );
    return rows.map((r) => r.id);
  }

  /** Marks a migration completed when no item is pending; true when it is (now or before). */
  async completeIfDone(id: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ status: string }>(
      `UPDATE sequence_migration m SET status = 'completed', finished_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'applying'
         AND NOT EXISTS (SELECT 1 FROM sequence_migration_item i WHERE i.migration_id = m.id AND i.state = 'pending')
       RETURNING status`,
      [id],
    );
    if (rows.length > 0) return true;
    const now = await this.pool.query<{ status: string }>(
      'SELECT status FROM sequence_migration WHERE id = $1',
      [id],
    );
    return now.rows[0]?.status === 'completed';
  }

  /**
   * One batch of a migration in one transaction: takes up to `size` pending items
   * no other applier holds (SKIP LOCKED), locks their enrollments in id order (as
   * the sender's claim and ingest lock them, so none deadlocks), reads what
   * `decide` needs, and writes its decisions: moved enrollments get their new
   * version, node and due time; items are marked moved or skipped, deferred ones
   * stay pending. A crash before COMMIT leaves the batch pending, as if never run.
   * @returns the decisions written (empty when nothing was pending).
   */
  async runBatch(
    migrationId: string,
    size: number,
    decide: (rows: MigrationBatchRow[]) => Promise<MigrationBatchDecision[]>,
    audit: { actor: string; reason: string },
  ): Promise<MigrationBatchDecision[]> {
    return inTransaction(this.pool, async (client) => {
      const items = await client.query<{ enrollment_id: string; from_node: number; to_node: number }>(
        `SELECT enrollment_id, from_node, to_node FROM sequence_migration_item
         WHERE migration_id = $1 AND state = 'pending'
         ORDER BY deferrals, enrollment_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [migrationId, size],
      );
      if (items.rows.length === 0) return [];
      const ids = items.rows.map((r) => r.enrollment_id);
      // The lock first, in a statement of its own: what follows reads after any claim that committed meanwhile.
      await client.query('SELECT id FROM enrollment WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [
        ids,
      ]);
      const { rows } = await client.query(
        `SELECT e.id, e.status::text AS status, e.sequence_version_id, e.current_step, e.current_attempt, e.next_touch_at,
                p.timezone AS p_tz, p.attributes AS p_attributes, m.timezone AS m_tz, m.window_days, m.window_start, m.window_end, m.holidays,
                s.sending_window,
                EXISTS (SELECT 1 FROM touch t WHERE t.enrollment_id = e.id AND t.status = 'sending') AS in_flight,
                (SELECT COALESCE(jsonb_agg(DISTINCT ${RAN_NODE}) FILTER (WHERE NOT (${CURRENT_NODE_PENDING})), '[]') FROM touch t WHERE t.enrollment_id = e.id) AS ran,
                (SELECT COALESCE(jsonb_object_agg(a.step, a.attempt), '{}') FROM
                   (SELECT t.step, max(t.attempt) AS attempt FROM touch t WHERE t.enrollment_id = e.id GROUP BY t.step) a) AS attempts,
                (SELECT max(COALESCE(t.sent_at, t.created_at)) FROM touch t WHERE t.enrollment_id = e.id) AS last_run_at,
                (SELECT ${RAN_NODE} FROM touch t WHERE t.enrollment_id = e.id
                 ORDER BY COALESCE(t.sent_at, t.created_at) DESC, t.step DESC LIMIT 1) AS last_run
         FROM enrollment e JOIN prospect p ON p.id = e.prospect_id JOIN mailbox m ON m.id = e.mailbox_id
         JOIN sequence s ON s.id = e.sequence_id
         WHERE e.id = ANY($1::uuid[])`,
        [ids],
      );
      const byId = new Map(rows.map((r) => [r.id as string, r]));
      const batch: MigrationBatchRow[] = [];
      const gone: MigrationBatchDecision[] = [];
      for (const item of items.rows) {
        const r = byId.get(item.enrollment_id);
        if (!r) {
          gone.push({ enrollmentId: item.enrollment_id, kind: 'skip', reason: 'enrollment_gone' });
          continue;
        }
        batch.push({
          enrollmentId: item.enrollment_id,
          plannedFrom: item.from_node,
          plannedTo: item.to_node,
          status: r.status,
          versionId: r.sequence_version_id,
          node: r.current_step,
          attempt: r.current_attempt,
          nextTouchAt: r.next_touch_at,
          inFlight: r.in_flight,
          ran: r.ran,
          attempts: r.attempts,
          lastRunAt: r.last_run_at,
          lastRun: r.last_run ?? null,
          prospectTimezone: r.p_tz,
          prospectAttributes: r.p_attributes ?? null,
          mailboxTimezone: r.m_tz,
          mailbox: {
            windowDays: r.window_days,
            windowStart: r.window_start,
            windowEnd: r.window_end,
            holidays: r.holidays ?? [],
          },
          sequenceWindow: r.sending_window,
        });
      }
      const decisions = [...gone, ...(await decide(batch))];
      const moves = decisions.filter((d) => d.kind === 'move');
      if (moves.length > 0) {
        // Guarded by the version, status and node read under the lock: nothing else changed them since.
        // A new due time keeps its raw time, so a later window change re-fits it; a kept one keeps its own.
        await client.query(
          `UPDATE enrollment e SET sequence_version_id = x.v, current_step = x.n, current_attempt = x.a,
             waiting_node = NULL, next_touch_at = x.due, policy_hold = NULL, policy_hold_until = NULL, updated_at = now(),
             next_touch_unfitted_at = CASE WHEN x.raw IS NULL THEN e.next_touch_unfitted_at ELSE x.raw END,
             next_touch_fitted_at = CASE WHEN x.raw IS NULL THEN e.next_touch_fitted_at ELSE x.due END
           FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[], $5::int[], $6::timestamptz[]) AS x(id, v, n, due, a, raw)
           WHERE e.id = x.id`,
          [
            moves.map((d) => d.enrollmentId),
            moves.map((d) => d.toVersionId),
            moves.map((d) => d.toNode),
            moves.map((d) => d.nextTouchAt),
            moves.map((d) => d.attempt),
            moves.map((d) => d.nextTouchUnfittedAt),
          ],
        );
        // Each moved enrollment's timeline says who moved it, why, and from where to where.
        const before = new Map(batch.map((b) => [b.enrollmentId, b]));
        await client.query(
          `INSERT INTO audit_log (actor, action, entity_type, entity_id, data)
           SELECT $1, 'enrollment.migrated', 'enrollment', x.id, x.data
           FROM unnest($2::text[], $3::jsonb[]) AS x(id, data)`,
          [
            audit.actor,
            moves.map((d) => d.enrollmentId),
            moves.map((d) =>
              JSON.stringify({
                migrationId,
                reason: audit.reason,
                fromVersionId: before.get(d.enrollmentId)?.versionId,
                fromNode: before.get(d.enrollmentId)?.node,
                toVersionId: d.toVersionId,
                toNode: d.toNode,
              }),
            ),
          ],
        );
      }
      const done = decisions.filter((d) => d.kind !== 'defer');
      if (done.length > 0) {
        await client.query(
          `UPDATE sequence_migration_item i SET state = x.state, reason = x.reason, to_node = COALESCE(x.to_node, i.to_node), done_at = now()
           FROM unnest($2::uuid[], $3::text[], $4::text[], $5::int[]) AS x(id, state, reason, to_node)
           WHERE i.migration_id = $1 AND i.enrollment_id = x.id`,
          [
            migrationId,
            done.map((d) => d.enrollmentId),
            done.map((d) => (d.kind === 'move' ? 'moved' : 'skipped')),
            done.map((d) => (d.kind === 'skip' ? d.reason : null)),
            done.map((d) => (d.kind === 'move' ? d.toNode : null)),
          ],
        );
      }
      const deferred = decisions.filter((d) => d.kind === 'defer').map((d) => d.enrollmentId);
      if (deferred.length > 0) {
        await client.query(
          `UPDATE sequence_migration_item SET deferrals = deferrals + 1
           WHERE migration_id = $1 AND enrollment_id = ANY($2::uuid[])`,
          [migrationId, deferred],
        );
      }
      await client.query('UPDATE sequence_migration SET updated_at = now() WHERE id = $1', [migrationId]);
      return decisions;
    });
  }
}
