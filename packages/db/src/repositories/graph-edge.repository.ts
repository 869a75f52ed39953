import type { FittedDue, SendingWindow } from '@touchbase/core';
import type { WaitingEnrollmentRow } from '@touchbase/use-cases';
import type pg from 'pg';

/** What an event that may move an enrollment along an edge reads of it (position, graph, timing, its sequence's policies). */
const LOCKED_ENROLLMENT_SELECT = `SELECT e.id, e.status, e.stop_reason AS "stopReason", e.current_step AS "currentStep", e.current_attempt AS "currentAttempt",
              e.waiting_node AS "waitingNode", v.graph,
              p.timezone AS "prospectTimeZone", p.attributes AS "prospectAttributes", m.timezone AS "mailboxTimeZone",
              m.window_days AS "windowDays", m.window_start AS "windowStart", m.window_end AS "windowEnd",
              m.holidays, s.sending_window AS "sendingWindow", s.policies AS "sequencePolicies"
       FROM enrollment e JOIN sequence_version v ON v.id = e.sequence_version_id
       JOIN prospect p ON p.id = e.prospect_id JOIN mailbox m ON m.id = e.mailbox_id
       JOIN sequence s ON s.id = e.sequence_id`;

/**
 * The enrollments of a graph sequence waiting after a node, for an event that may
 * take one of that node's edges: locked, checked and moved in the event's
 * transaction. Persists only; core's `edgeTakenBy` decides.
 */
export class GraphEdgeRepository {
  /**
   * Locks every enrollment of the prospect in id order, the order a stop locks them
   * in (`stopProspectsSql`): a reply that moves some of them along an edge and stops
   * the others then takes its locks in one order, as a concurrent stop does.
   */
  async lockEnrollmentsOf(client: pg.PoolClient, prospectId: string): Promise<void> {
    // Named (prepared once per connection): every reply on the general path locks its person first.
    await client.query({
      name: 'graph-edge-lock-enrollments-of',
      text: 'SELECT id FROM enrollment WHERE prospect_id = $1 ORDER BY id FOR UPDATE',
      values: [prospectId],
    });
  }

  /**
   * Locks the prospect's active enrollments that wait after a node (only the one
   * the event names, when it names one), in id order as every stop locks them, and
   * reads their position, graph and timing. With `withPaused` (a reply) the paused
   * ones too: core decides which pauses a reply lifts. The lock serialises with the sender's
   * claim, which locks the same row.
   */
  async lockWaiting(
    client: pg.PoolClient,
    prospectId: string,
    enrollmentId: string | null,
    withPaused = false,
  ): Promise<WaitingEnrollmentRow[]> {
    // Named (prepared once per connection): every open or click of an enrollment waiting after a node.
    const { rows } = await client.query<WaitingEnrollmentRow & { sendingWindow: SendingWindow | null }>({
      name: 'graph-edge-lock-waiting',
      text: `${LOCKED_ENROLLMENT_SELECT}
       WHERE e.prospect_id = $1 AND e.waiting_node IS NOT NULL
         AND (e.status = 'active' OR ($3::boolean AND e.status = 'paused'))
         AND ($2::uuid IS NULL OR e.id = $2)
       ORDER BY e.id FOR UPDATE OF e`,
      values: [prospectId, enrollmentId, withPaused],
    });
    return rows;
  }

  /**
   * Locks the prospect's active enrollments whose current touch is being handed to
   * the provider (claimed, `sending`, not yet recorded), in id order, with what an
   * edge out of that node needs: a reply during the send may take its `replied` edge.
   */
  async lockInFlight(
    client: pg.PoolClient,
    prospectId: string,
  ): Promise<(Omit<WaitingEnrollmentRow, 'waitingNode'> & { waitingNode: number | null })[]> {
    // Named (prepared once per connection): every reply on the general path asks it, and
    // its five-table join took 0.8 ms to plan each time, more than it takes to run.
    const { rows } = await client.query<
      Omit<WaitingEnrollmentRow, 'waitingNode'> & { waitingNode: number | null }
    >({
      name: 'graph-edge-lock-in-flight',
      text: `${LOCKED_ENROLLMENT_SELECT}
       WHERE e.prospect_id = $1 AND e.status = 'active'
         AND EXISTS (SELECT 1 FROM touch t WHERE t.enrollment_id = e.id AND t.step = e.current_step
                       AND t.attempt = e.current_attempt AND t.status = 'sending')
       ORDER BY e.id FOR UPDATE OF e`,
      values: [prospectId],
    });
    return rows;
  }

  /**
   * Whether the touch of (step, attempt) has been claimed: its timeout edge was
   * taken. A statement of its own after the lock, so it sees a claim that committed
   * while the lock was awaited (the claim locks the row, it writes no new version).
   */
  async nodeStarted(
    client: pg.PoolClient,
    enrollmentId: string,
    step: number,
    attempt: number,
  ): Promise<boolean> {
    const r = await client.query(
      'SELECT 1 FROM touch WHERE enrollment_id = $1 AND step = $2 AND attempt = $3',
      [enrollmentId, step, attempt],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** The step (node number) of a touch, or null. */
  async touchStep(client: pg.PoolClient, touchId: string): Promise<number | null> {
    const { rows } = await client.query<{ step: number }>('SELECT step FROM touch WHERE id = $1', [touchId]);
    return rows[0]?.step ?? null;
  }

  /**
   * Moves a locked enrollment along an edge to node `to`, due at `due.at`, with the
   * raw time it was fitted from (`next_touch_unfitted_at`, and `next_touch_fitted_at`
   * = `due.at`) so a window change re-fits it as it re-fits the sender's placements, and
   * closes the edges of the node it waited after (until `to` runs): its next attempt there (1 unless a loop brings it back to a node already run).
   * @returns the attempt of the touch now pending.
   */
  async moveAlongEdge(
    client: pg.PoolClient,
    enrollmentId: string,
    to: number,
    due: FittedDue,
  ): Promise<number> {
    const { rows } = await client.query<{ attempt: number }>(
      // The old node's event edges close (waiting_node null): one event edge per node run.
      // A paused enrollment (a pause a reply lifts) goes on along the edge, active again.
      `UPDATE enrollment e SET current_step = $2, next_touch_at = $3, updated_at = now(), waiting_node = NULL,
         next_touch_unfitted_at = $4, next_touch_fitted_at = $3,
         status = 'active', stop_reason = CASE WHEN e.status = 'paused' THEN NULL ELSE e.stop_reason END,
         current_attempt = COALESCE((SELECT max(t.attempt) FROM touch t WHERE t.enrollment_id = e.id AND t.step = $2), 0) + 1
       WHERE e.id = $1 RETURNING e.current_attempt AS attempt`,
      [enrollmentId, to, due.at, due.unfittedAt],
    );
    return rows[0]?.attempt ?? 1;
  }

  /**
   * LinkedIn events of the prospect (an acceptance, a late invitation failure)
   * recorded since the touch (step, attempt) of the enrollment was claimed: they
   * arrived while its action was being sent, before the enrollment waited after it.
   */
  async edgeEventsSince(
    client: pg.PoolClient,
    prospectId: string,
    touch: { enrollmentId: string; step: number; attempt: number },
  ): Promise<{ id: string; source: string; type: string }[]> {
    const { rows } = await client.query<{ id: string; source: string; type: string }>(
      `SELECT ev.id, ev.source, ev.type FROM event ev
       WHERE ev.prospect_id = $1 AND ev.type IN ('linkedin.connection_accepted', 'linkedin.invitation_failed')
         AND ev.received_at >= (SELECT t.created_at FROM touch t WHERE t.enrollment_id = $2 AND t.step = $3 AND t.attempt = $4)
       ORDER BY ev.seq`,
      [prospectId, touch.enrollmentId, touch.step, touch.attempt],
    );
    return rows;
  }
}
