import type { MailboxWindowColumns, SendingWindow } from '@touchbase/core';
import { SendingWindowSchema } from '@touchbase/core';
import type pg from 'pg';

/** Whose pending touches: a mailbox's (its window, holidays, caps) or a sequence's (its window). */
export type PendingScope = { mailboxId: string } | { sequenceId: string };

/** A pending touch with what its due time was fitted from and what it is fitted into now. */
export type PendingTouchRow = {
  enrollmentId: string;
  step: number;
  attempt: number;
  nextTouchAt: Date;
  unfittedAt: Date | null;
  fittedAt: Date | null;
  prospectTimezone: string | null;
  /** The prospect's attributes: its `country` picks the do-not-contact rule. */
  prospectAttributes: Record<string, unknown> | null;
  mailboxTimezone: string;
  mailbox: MailboxWindowColumns;
  sequenceWindow: SendingWindow | null;
};

/** One re-fit to apply: the touch's due time `from` (as read) becomes `to`. */
export type DueMove = { enrollmentId: string; step: number; attempt: number; from: Date; to: Date };

type Row = {
  id: string;
  step: number;
  attempt: number;
  next_touch_at: Date;
  next_touch_unfitted_at: Date | null;
  next_touch_fitted_at: Date | null;
  prospect_tz: string | null;
  prospect_attributes: Record<string, unknown> | null;
  mailbox_tz: string;
  window_days: number[];
  window_start: string;
  window_end: string;
  holidays: string[];
  sending_window: unknown;
};

// Not in flight: no touch row for the current step and attempt (the sender's claim
// writes it, in 'sending', before the provider is called, under the enrollment's lock).
const NOT_IN_FLIGHT = `NOT EXISTS (SELECT 1 FROM touch t
  WHERE t.enrollment_id = e.id AND t.step = e.current_step AND t.attempt = e.current_attempt)`;

/**
 * The pending touches of a mailbox or a sequence, for re-timing them after a change
 * of window, holidays or caps (use case `retimePendingTouches`). Reads the enrollment
 * columns a due time is fitted from and moves `next_touch_at` with a compare-and-set.
 */
export class PendingTouchRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * A page (by enrollment id) of the active enrollments of the scope whose touch is
   * pending, not in flight, with their timing: the prospect's and mailbox's zones, the
   * mailbox's window columns and the sequence's own window.
   */
  async page(scope: PendingScope, after: string | null, limit: number): Promise<PendingTouchRow[]> {
    const byMailbox = 'mailboxId' in scope;
    const { rows } = await this.pool.query<Row>(
      `SELECT e.id, e.current_step AS step, e.current_attempt AS attempt, e.next_touch_at,
         e.next_touch_unfitted_at, e.next_touch_fitted_at, p.timezone AS prospect_tz, p.attributes AS prospect_attributes,
         m.timezone AS mailbox_tz,
         m.window_days, m.window_start, m.window_end, m.holidays, s.sending_window
       FROM enrollment e
       JOIN prospect p ON p.id = e.prospect_id
       JOIN mailbox m ON m.id = e.mailbox_id
       JOIN sequence s ON s.id = e.sequence_id
       WHERE ${byMailbox ? 'e.mailbox_id' : 'e.sequence_id'} = $1 AND e.status = 'active'
         AND e.next_touch_at IS NOT NULL AND ($2::uuid IS NULL OR e.id > $2::uuid) AND ${NOT_IN_FLIGHT}
       ORDER BY e.id
       LIMIT $3`,
      [byMailbox ? scope.mailboxId : scope.sequenceId, after, limit],
    );
    return rows.map((r) => ({
      enrollmentId: r.id,
      step: r.step,
      attempt: r.attempt,
      nextTouchAt: r.next_touch_at,
      unfittedAt: r.next_touch_unfitted_at,
      fittedAt: r.next_touch_fitted_at,
      prospectTimezone: r.prospect_tz,
      prospectAttributes: r.prospect_attributes,
      mailboxTimezone: r.mailbox_tz,
      mailbox: {
        windowDays: r.window_days,
        windowStart: r.window_start,
        windowEnd: r.window_end,
        holidays: r.holidays,
      },
      sequenceWindow: r.sending_window ? SendingWindowSchema.parse(r.sending_window) : null,
    }));
  }

  /**
   * Moves due times, each only while the touch is as it was read: still active at
   * the same step and attempt, `next_touch_at` unchanged and not claimed meanwhile
   * (a compare-and-set, so a touch the sender took or advanced is left alone).
   * `next_touch_fitted_at` follows, so the raw time stays valid for the next re-fit.
   * @returns the moves applied.
   */
  async move(moves: DueMove[]): Promise<DueMove[]> {
    if (moves.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE enrollment e SET next_touch_at = m.to_at, next_touch_fitted_at = m.to_at, updated_at = now()
       FROM (SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::timestamptz[])
               AS m(id, step, attempt, from_at, to_at) ORDER BY id) m
       WHERE e.id = m.id AND e.status = 'active' AND e.current_step = m.step AND e.current_attempt = m.attempt
         AND e.next_touch_at = m.from_at AND e.next_touch_fitted_at = m.from_at AND ${NOT_IN_FLIGHT}
       RETURNING e.id`,
      [
        moves.map((m) => m.enrollmentId),
        moves.map((m) => m.step),
        moves.map((m) => m.attempt),
        moves.map((m) => m.from),
        moves.map((m) => m.to),
      ],
    );
    const moved = new Set(rows.map((r) => r.id));
    return moves.filter((m) => moved.has(m.enrollmentId));
  }
}
