import type pg from 'pg';
import { inTransaction } from '../database.js';
import { touchOf } from './touch-claim.repository.js';

/** One accepted touch to record (see `TouchProgressRepository.recordSent`). */
export type SentInput = {
  enrollmentId: string;
  step: number;
  messageId: string;
  conversationId: string;
  nextTouchAt: Date;
  /** The raw due time `nextTouchAt` was fitted from (core's `fitDue`): kept for a re-fit after a window change. */
  nextTouchUnfittedAt?: Date;
  status?: 'sent' | 'unknown';
  /** The attempt of the step that was sent (1 unless it is a resend after a soft bounce). */
  attempt?: number;
  /** The node the enrollment moves to: its graph's first timeout after this one (a chain's: step + 1). */
  nextStep?: number;
  /**
   * Whether the touch's ids start the enrollment's e-mail thread (conversation and first
   * message, when none yet); false for a LinkedIn action or a manual task, whose ids are no e-mail thread.
   */
  thread?: boolean;
};

/**
 * What becomes of a claimed touch and its enrollment: recorded as sent (the
 * enrollment moves to its next step), settled, cancelled, taken back, failed; and the
 * sender's moves of the enrollment itself (ran out of steps, paused, moved to another
 * mailbox of its pool). Writes `touch` and the enrollment columns that go with it.
 */
export class TouchProgressRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Records an accepted touch and moves the enrollment to the next step (its first
   * attempt), in one statement (so one transaction). The enrollment only advances
   * if it is still active at this step and attempt: a reply that arrived while the
   * provider was being called keeps its status, and a soft bounce that already sent
   * it back to resend this step keeps the resend.
   * @returns whether the enrollment advanced (and so needs its next job).
   */
  async recordSent(input: SentInput): Promise<boolean> {
    const [advanced] = await this.recordSentMany([input]);
    return advanced!;
  }

  /** `recordSent` for many touches in one statement (one commit); whether each enrollment advanced. */
  async recordSentMany(inputs: SentInput[]): Promise<boolean[]> {
    return (await this.recordSentAttempts(inputs)).map((a) => a !== null);
  }

  /**
   * `recordSentMany` answering, for each enrollment that advanced, the attempt of
   * the touch now pending at its next node: 1, unless a loop of its graph brings it
   * back to a node already run (then the next attempt there, so the touch key is new).
   * Null where the enrollment did not advance.
   */
  async recordSentAttempts(inputs: SentInput[]): Promise<(number | null)[]> {
    if (inputs.length === 0) return [];
    // A data-modifying CTE runs to completion even though the outer UPDATE may match nothing.
    const { rows } = await this.pool.query<{
      id: string;
      step: number;
      attempt: number;
      next_attempt: number;
    }>({
      name: 'touch-record-sent-many',
      text: `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::int[], $9::bool[], $10::timestamptz[])
           AS i(eid, step, attempt, next_at, conversation_id, message_id, status, next_step, thread, unfitted_at)),
       t AS (
         UPDATE touch t SET status = i.status::"TouchStatus", provider_message_id = i.message_id, sent_at = now()
         FROM input i WHERE t.enrollment_id = i.eid AND t.step = i.step AND t.attempt = i.attempt RETURNING 1)
       UPDATE enrollment e SET current_step = i.next_step, waiting_node = i.step, next_touch_at = i.next_at, updated_at = now(),
         current_attempt = COALESCE((SELECT max(x.attempt) FROM touch x WHERE x.enrollment_id = e.id AND x.step = i.next_step), 0) + 1,
         next_touch_unfitted_at = i.unfitted_at, next_touch_fitted_at = CASE WHEN i.unfitted_at IS NULL THEN NULL ELSE i.next_at END,
         conversation_id = CASE WHEN i.thread THEN COALESCE(e.conversation_id, i.conversation_id) ELSE e.conversation_id END,
         first_message_id = CASE WHEN i.thread THEN COALESCE(e.first_message_id, i.message_id) ELSE e.first_message_id END
       FROM (SELECT * FROM input ORDER BY eid) i
       WHERE e.id = i.eid AND e.current_step = i.step AND e.current_attempt = i.attempt AND e.status = 'active'
       RETURNING e.id, i.step, i.attempt, e.current_attempt AS next_attempt`,
      values: [
        inputs.map((x) => x.enrollmentId),
        inputs.map((x) => x.step),
        inputs.map((x) => x.attempt ?? 1),
        inputs.map((x) => x.nextTouchAt),
        inputs.map((x) => x.conversationId || null),
        inputs.map((x) => x.messageId || null),
        inputs.map((x) => x.status ?? 'sent'),
        inputs.map((x) => x.nextStep ?? x.step + 1),
        inputs.map((x) => x.thread ?? true),
        inputs.map((x) => x.nextTouchUnfittedAt ?? null),
      ],
    });
    const advanced = new Map(
      rows.map((r) => [touchOf({ enrollmentId: r.id, step: r.step, attempt: r.attempt }), r.next_attempt]),
    );
    return inputs.map((x) => advanced.get(touchOf(x)) ?? null);
  }

  /**
   * Of these touches just scheduled, the ones that are no longer their enrollment's
   * current touch (it ended, paused or moved on meanwhile): their jobs are strays.
   */
  async noLongerCurrent(
    touches: { enrollmentId: string; step: number; attempt?: number }[],
  ): Promise<{ enrollmentId: string; step: number; attempt: number }[]> {
    if (touches.length === 0) return [];
    const { rows } = await this.pool.query<{ eid: string; step: number; attempt: number }>({
      name: 'touch-no-longer-current',
      text: `SELECT i.eid, i.step, i.attempt FROM unnest($1::uuid[], $2::int[], $3::int[]) AS i(eid, step, attempt)
       LEFT JOIN enrollment e ON e.id = i.eid
       WHERE e.id IS NULL OR e.status <> 'active' OR e.current_step <> i.step OR e.current_attempt <> i.attempt`,
      values: [
        touches.map((t) => t.enrollmentId),
        touches.map((t) => t.step),
        touches.map((t) => t.attempt ?? 1),
      ],
    });
    return rows.map((r) => ({ enrollmentId: r.eid, step: r.step, attempt: r.attempt }));
  }

  /**
   * Settles a touch left in doubt (`sending`) whose enrollment has ended meanwhile,
   * without moving the enrollment: `sent` with the provider's message id when the
   * provider has it, `unknown` when nobody can say. Never a reason to send again.
   */
  async settleInDoubt(
    enrollmentId: string,
    step: number,
    attempt: number,
    outcome: { status: 'sent'; messageId: string } | { status: 'unknown' },
  ): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE touch SET status = $4::"TouchStatus", provider_message_id = COALESCE($5, provider_message_id),
         sent_at = CASE WHEN $4 = 'sent' THEN now() ELSE sent_at END
       WHERE enrollment_id = $1 AND step = $2 AND attempt = $3 AND status = 'sending'`,
      [
        enrollmentId,
        step,
        attempt,
        outcome.status,
        outcome.status === 'sent' ? outcome.messageId || null : null,
      ],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** A fenced touch that was claimed but never handed over. */
  async cancel(enrollmentId: string, step: number, reason: string, attempt = 1): Promise<void> {
    await this.pool.query(
      `UPDATE touch SET status = 'cancelled', error = $3
       WHERE enrollment_id = $1 AND step = $2 AND attempt = $4 AND status = 'sending'`,
      [enrollmentId, step, reason, attempt],
    );
  }

  /**
   * Takes back a claim whose touch the provider certainly did not send (429, a
   * refusal before anything was accepted, our own setup refused), so the next
   * attempt claims afresh instead of finding the touch "in doubt".
   */
  async release(enrollmentId: string, step: number, attempt = 1): Promise<void> {
    await this.pool.query(
      `DELETE FROM touch WHERE enrollment_id = $1 AND step = $2 AND attempt = $3 AND status = 'sending'`,
      [enrollmentId, step, attempt],
    );
  }

  /** A permanent refusal: the touch and its enrollment fail with the provider's reason. */
  async fail(enrollmentId: string, step: number, reason: string, attempt = 1): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `UPDATE touch SET status = 'failed', error = $3 WHERE enrollment_id = $1 AND step = $2 AND attempt = $4`,
        [enrollmentId, step, reason, attempt],
      );
      await client.query(
        `UPDATE enrollment SET status = 'failed', stop_reason = $3, next_touch_at = NULL, updated_at = now()
         WHERE id = $1 AND current_step = $2 AND status IN ('active', 'paused')`,
        [enrollmentId, step, reason.slice(0, 500)],
      );
    });
  }

  /**
   * A node whose action failed for good (a LinkedIn profile not found, not
   * connectable): the touch is `failed` with the reason, and the enrollment takes
   * the node's failure edge (or skips to another channel: core's `afterFailure`),
   * due at `nextTouchAt`, only if still active at this node and attempt.
   * @returns the attempt now pending at the next node, or null when the enrollment did not move.
   */
  async failNode(input: {
    enrollmentId: string;
    step: number;
    attempt: number;
    reason: string;
    nextStep: number;
    nextTouchAt: Date;
  }): Promise<number | null> {
    return inTransaction(this.pool, async (client) => {
      await client.query(
        `UPDATE touch SET status = 'failed', error = $4
         WHERE enrollment_id = $1 AND step = $2 AND attempt = $3`,
        [input.enrollmentId, input.step, input.attempt, input.reason.slice(0, 500)],
      );
      const r = await client.query(
        `UPDATE enrollment e SET current_step = $4, waiting_node = $2, next_touch_at = $5, updated_at = now(),
           current_attempt = COALESCE((SELECT max(x.attempt) FROM touch x WHERE x.enrollment_id = e.id AND x.step = $4), 0) + 1
         WHERE e.id = $1 AND e.status = 'active' AND e.current_step = $2 AND e.current_attempt = $3
         RETURNING e.current_attempt AS attempt`,
        [input.enrollmentId, input.step, input.attempt, input.nextStep, input.nextTouchAt],
      );
      return (r.rows[0] as { attempt: number } | undefined)?.attempt ?? null;
    });
  }

  /** The step after the last: the sequence ran out without an answer. */
  async exhaust(enrollmentId: string, step: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE enrollment SET status = 'exhausted', stop_reason = 'exhausted', next_touch_at = NULL, updated_at = now()
       WHERE id = $1 AND status = 'active' AND current_step = $2`,
      [enrollmentId, step],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** Pauses an active enrollment at its current step, with the reason (a missing variable, say). */
  async pause(enrollmentId: string, step: number, reason: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE enrollment SET status = 'paused', stop_reason = $3, next_touch_at = NULL, updated_at = now()
       WHERE id = $1 AND status = 'active' AND current_step = $2`,
      [enrollmentId, step, reason],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /**
   * Moves an enrollment whose first touch has not gone out yet to another mailbox
   * (of its sequence's pool). Refused once a touch exists: the thread stays with
   * the mailbox that started it.
   */
  async assignMailbox(
    enrollmentId: string,
    mailboxId: string,
    /** The touch being sent: the first e-mail node of a graph, 1 for a chain. */
    step = 1,
    /** A graph's e-mail nodes: no e-mail may have gone out (its LinkedIn actions do not count); null: no touch at all. */
    emailNodes: number[] | null = null,
  ): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE enrollment SET mailbox_id = $2, updated_at = now()
       WHERE id = $1 AND status = 'active' AND current_step = $3 AND mailbox_id <> $2
         AND NOT EXISTS (SELECT 1 FROM touch t WHERE t.enrollment_id = $1 AND ($4::int[] IS NULL OR t.step = ANY($4::int[])))`,
      [enrollmentId, mailboxId, step, emailNodes],
    );
    return (r.rowCount ?? 0) > 0;
  }
}
