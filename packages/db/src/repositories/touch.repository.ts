import { randomUUID } from 'node:crypto';
import { type EnrollmentStatus, type SendingWindow, suppressionKeysOf } from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { suppressionMatchSql } from './enrollment-stop.sql.js';

/** Everything the sender needs to decide on and send one touch, in one read. */
export type SendContext = {
  enrollmentId: string;
  status: EnrollmentStatus;
  currentStep: number;
  /** Attempt of the current step's touch (above 1 after a soft bounce sent it back). */
  currentAttempt: number;
  sequenceId: string;
  sequenceVersionId: string;
  /** The sequence's mailbox pool; its first touch goes out from the member with the most room today. */
  mailboxPoolId: string | null;
  /** The sequence's own sending window, which overrides the mailbox's; null: the mailbox's. */
  sequenceWindow: SendingWindow | null;
  conversationId: string | null;
  firstMessageId: string | null;
  prospect: {
    id: string;
    email: string;
    emailStatus: string;
    firstName: string | null;
    lastName: string | null;
    company: string | null;
    timezone: string | null;
    attributes: Record<string, string>;
  };
  mailbox: SendMailbox;
  /** `holdTouches`: whether a pause of the domain holds the touches of running sequences too. */
  domain: { id: string; domain: string; status: string; holdTouches: boolean };
  nextTouchAt: Date | null;
};

/** The sending mailbox of a touch, with its caps and its provider settings (ids, never secrets). */
export type SendMailbox = {
  id: string;
  address: string;
  provider: string;
  status: string;
  timezone: string;
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  /** Local dates (YYYY-MM-DD) on which the mailbox does not send. */
  holidays: string[];
  perMinute: number;
  perHour: number;
  perDay: number;
  minSpacingMs: number;
  providerConfig: Record<string, unknown>;
};

const MAILBOX_COLUMNS = `m.id AS m_id, m.address, m.provider, m.status AS m_status, m.timezone AS m_tz, m.window_days, m.window_start,
  m.window_end, m.holidays, m.per_minute, m.per_hour, m.per_day, m.min_spacing_ms, m.provider_config`;

// biome-ignore lint/suspicious/noExplicitAny: a pg row, typed by the query's column list
function mailboxOf(r: Record<string, any>): SendMailbox {
  return {
    id: r.m_id,
    address: r.address,
    provider: r.provider,
    status: r.m_status,
    timezone: r.m_tz,
    windowDays: r.window_days,
    windowStart: r.window_start,
    windowEnd: r.window_end,
    holidays: r.holidays ?? [],
    perMinute: r.per_minute,
    perHour: r.per_hour,
    perDay: r.per_day,
    minSpacingMs: r.min_spacing_ms,
    providerConfig: r.provider_config ?? {},
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a pg row, typed by the query's column list
function sendContextOf(r: Record<string, any>): SendContext {
  return {
    enrollmentId: r.id,
    status: r.status,
    currentStep: r.current_step,
    currentAttempt: r.current_attempt,
    sequenceId: r.sequence_id,
    sequenceVersionId: r.sequence_version_id,
    mailboxPoolId: r.mailbox_pool_id,
    sequenceWindow: r.sending_window ?? null,
    conversationId: r.conversation_id,
    firstMessageId: r.first_message_id,
    nextTouchAt: r.next_touch_at,
    prospect: {
      id: r.p_id,
      email: r.email,
      emailStatus: r.email_status,
      firstName: r.first_name,
      lastName: r.last_name,
      company: r.company,
      timezone: r.p_tz,
      attributes: r.attributes ?? {},
    },
    mailbox: mailboxOf(r),
    domain: { id: r.d_id, domain: r.domain, status: r.d_status, holdTouches: r.d_hold },
  };
}

/** The outcome of a claim: the touch is ours to send, ours to resolve, already settled, or fenced off. */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_doubt' }
  | { kind: 'settled'; status: string }
  | { kind: 'fenced' }
  | { kind: 'suppressed' };

/** One touch as a map key: its enrollment, step and attempt. */
function touchOf(t: { enrollmentId: string; step: number; attempt?: number }): string {
  return `${t.enrollmentId}/${t.step}/${t.attempt ?? 1}`;
}

/** One touch to claim (see `TouchRepository.claim`). */
export type ClaimInput = {
  enrollmentId: string;
  step: number;
  attempt: number;
  idempotencyKey: string;
  email: string;
  variant: number;
};

/** One accepted touch to record (see `TouchRepository.recordSent`). */
export type SentInput = {
  enrollmentId: string;
  step: number;
  messageId: string;
  conversationId: string;
  nextTouchAt: Date;
  status?: 'sent' | 'unknown';
  /** The attempt of the step that was sent (1 unless it is a resend after a soft bounce). */
  attempt?: number;
};

/** Touch rows and the enrollment updates that go with them; the sender's hot path. */
export class TouchRepository {
  constructor(private readonly pool: pg.Pool) {}

  async loadForSend(enrollmentId: string): Promise<SendContext | null> {
    return (await this.loadManyForSend([enrollmentId])).get(enrollmentId) ?? null;
  }

  /** `loadForSend` for many enrollments in one statement (the sender batches touches taken together). */
  async loadManyForSend(enrollmentIds: string[]): Promise<Map<string, SendContext>> {
    const { rows } = await this.pool.query({
      // Named: prepared once per connection, so the five-way join is not parsed and planned per batch.
      name: 'touch-load-many-for-send',
      text: `SELECT e.id, e.status, e.current_step, e.current_attempt, e.sequence_id, e.sequence_version_id, e.conversation_id, e.first_message_id,
              e.next_touch_at,
              p.id AS p_id, p.email, p.email_status, p.first_name, p.last_name, p.company, p.timezone AS p_tz, p.attributes,
              ${MAILBOX_COLUMNS}, s.mailbox_pool_id, s.sending_window,
              d.id AS d_id, d.domain, d.status AS d_status, d.hold_touches AS d_hold
       FROM enrollment e JOIN prospect p ON p.id = e.prospect_id JOIN sequence s ON s.id = e.sequence_id
       JOIN mailbox m ON m.id = e.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
       WHERE e.id = ANY($1::uuid[])`,
      values: [enrollmentIds],
    });
    return new Map(rows.map((r) => [r.id as string, sendContextOf(r)]));
  }

  /**
   * Claims attempt `attempt` of touch `step` of an enrollment: the reply fence. The
   * conditional SELECT ... FOR UPDATE locks the enrollment row until the claim
   * commits, so it serialises with ingest's status change: once ingest has committed
   * a reply (or a soft bounce that moved the enrollment to another attempt), this
   * sees it and refuses (a change in flight makes it wait, then re-check). It only
   * locks: no new row version is written for the fence. The suppression list is read and the
   * touch row (unique per enrollment, step and attempt) written in the same
   * statement, before the provider is called, so a crash leaves a trace: "in doubt".
   */
  async claim(
    enrollmentId: string,
    step: number,
    idempotencyKey: string,
    email: string,
    variant = 0,
    attempt = 1,
  ): Promise<Claim> {
    const [claim] = await this.claimMany([{ enrollmentId, step, attempt, idempotencyKey, email, variant }]);
    return claim!;
  }

  /**
   * `claim` for many touches in one statement, so one commit: the sender claims the
   * touches it took together. Each touch is fenced, suppressed or inserted on its
   * own, exactly as alone. Enrollment rows are locked in id order, as a reply that
   * ends several enrollments of one prospect locks them, so the two never deadlock.
   */
  async claimMany(inputs: ClaimInput[]): Promise<Claim[]> {
    if (inputs.length === 0) return [];
    // The same touch twice in one batch: the later ones are claimed after, so they
    // see the first one's claim, as they would one after the other.
    const first = new Map<string, ClaimInput>();
    const again: number[] = [];
    inputs.forEach((c, i) => {
      if (first.has(touchOf(c))) again.push(i);
      else first.set(touchOf(c), c);
    });
    const batch = [...first.values()];
    // Every part is keyed by the touch (enrollment, step, attempt), not the enrollment:
    // a stale job of an earlier step can be in the same batch as the current one.
    const { rows } = await this.pool.query<{
      eid: string;
      step: number;
      attempt: number;
      locked: boolean;
      existing: string | null;
      suppressed: boolean;
      inserted: boolean;
    }>({
      name: 'touch-claim-many',
      text: `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::uuid[], $9::int[])
           AS i(eid, step, attempt, key, email, domain, hash, touch_id, variant)),
       locked AS (
         SELECT i.eid, i.step, i.attempt FROM enrollment e JOIN input i ON e.id = i.eid
         WHERE e.status = 'active' AND e.current_step = i.step AND e.current_attempt = i.attempt
         ORDER BY e.id FOR UPDATE OF e),
       existing AS (
         SELECT i.eid, i.step, i.attempt, t.status::text AS status FROM input i
         JOIN touch t ON t.enrollment_id = i.eid AND t.step = i.step AND t.attempt = i.attempt),
       sup AS (
         SELECT i.eid, i.step, i.attempt FROM input i WHERE EXISTS (
           SELECT 1 FROM suppression s
           WHERE ${suppressionMatchSql('s', { email: 'i.email', domain: 'i.domain', hash: 'i.hash' })})),
       ins AS (
         INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, variant)
         SELECT i.touch_id, i.eid, i.step, i.attempt, 'sending'::"TouchStatus", i.key, i.variant FROM input i
         WHERE (i.eid, i.step, i.attempt) IN (SELECT eid, step, attempt FROM locked)
           AND (i.eid, i.step, i.attempt) NOT IN (SELECT eid, step, attempt FROM existing)
           AND (i.eid, i.step, i.attempt) NOT IN (SELECT eid, step, attempt FROM sup)
         ON CONFLICT DO NOTHING RETURNING enrollment_id, step, attempt)
       SELECT i.eid, i.step, i.attempt,
              (i.eid, i.step, i.attempt) IN (SELECT eid, step, attempt FROM locked) AS locked,
              (SELECT status FROM existing x WHERE (x.eid, x.step, x.attempt) = (i.eid, i.step, i.attempt)) AS existing,
              (i.eid, i.step, i.attempt) IN (SELECT eid, step, attempt FROM sup) AS suppressed,
              (i.eid, i.step, i.attempt) IN (SELECT enrollment_id, step, attempt FROM ins) AS inserted
       FROM input i`,
      values: [
        batch.map((c) => c.enrollmentId),
        batch.map((c) => c.step),
        batch.map((c) => c.attempt),
        batch.map((c) => c.idempotencyKey),
        batch.map((c) => c.email),
        batch.map((c) => suppressionKeysOf(c.email).domain),
        batch.map((c) => suppressionKeysOf(c.email).hash),
        batch.map(() => randomUUID()),
        batch.map((c) => c.variant),
      ],
    });
    const byTouch = new Map(
      rows.map((r) => [touchOf({ enrollmentId: r.eid, step: r.step, attempt: r.attempt }), r]),
    );
    const claims = new Map<string, Claim>();
    const suppressed: string[] = [];
    for (const [touch, c] of first) {
      const r = byTouch.get(touch);
      if (!r?.locked) claims.set(touch, { kind: 'fenced' });
      else if (r.existing)
        claims.set(
          touch,
          r.existing === 'sending' ? { kind: 'in_doubt' } : { kind: 'settled', status: r.existing },
        );
      else if (r.suppressed) {
        suppressed.push(c.enrollmentId);
        claims.set(touch, { kind: 'suppressed' });
      } else if (r.inserted) claims.set(touch, { kind: 'claimed' });
      // Another claim of the same touch committed after this statement's snapshot.
      else claims.set(touch, await this.claimedMeanwhile(c));
    }
    if (suppressed.length > 0) {
      await this.pool.query(
        `UPDATE enrollment SET status = 'cancelled', stop_reason = 'suppressed', next_touch_at = NULL, updated_at = now()
         WHERE id = ANY($1::uuid[]) AND status = 'active'`,
        [suppressed],
      );
    }
    const later = again.length > 0 ? await this.claimMany(again.map((i) => inputs[i]!)) : [];
    const repeated = new Set(again);
    let next = 0;
    return inputs.map((c, i) => (repeated.has(i) ? later[next++]! : claims.get(touchOf(c))!));
  }

  private async claimedMeanwhile(c: ClaimInput): Promise<Claim> {
    const status = await this.statusOf(c.enrollmentId, c.step, c.attempt);
    return status === 'sending' || status === null ? { kind: 'in_doubt' } : { kind: 'settled', status };
  }

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
    if (inputs.length === 0) return [];
    // A data-modifying CTE runs to completion even though the outer UPDATE may match nothing.
    const { rows } = await this.pool.query<{ id: string; step: number; attempt: number }>({
      name: 'touch-record-sent-many',
      text: `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::text[], $6::text[], $7::text[])
           AS i(eid, step, attempt, next_at, conversation_id, message_id, status)),
       t AS (
         UPDATE touch t SET status = i.status::"TouchStatus", provider_message_id = i.message_id, sent_at = now()
         FROM input i WHERE t.enrollment_id = i.eid AND t.step = i.step AND t.attempt = i.attempt RETURNING 1)
       UPDATE enrollment e SET current_step = i.step + 1, current_attempt = 1, next_touch_at = i.next_at, updated_at = now(),
         conversation_id = COALESCE(e.conversation_id, i.conversation_id), first_message_id = COALESCE(e.first_message_id, i.message_id)
       FROM (SELECT * FROM input ORDER BY eid) i
       WHERE e.id = i.eid AND e.current_step = i.step AND e.current_attempt = i.attempt AND e.status = 'active'
       RETURNING e.id, i.step, i.attempt`,
      values: [
        inputs.map((x) => x.enrollmentId),
        inputs.map((x) => x.step),
        inputs.map((x) => x.attempt ?? 1),
        inputs.map((x) => x.nextTouchAt),
        inputs.map((x) => x.conversationId || null),
        inputs.map((x) => x.messageId || null),
        inputs.map((x) => x.status ?? 'sent'),
      ],
    });
    const advanced = new Set(
      rows.map((r) => touchOf({ enrollmentId: r.id, step: r.step, attempt: r.attempt })),
    );
    return inputs.map((x) => advanced.has(touchOf(x)));
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

  /** The status of one attempt of one touch, or null when it was never claimed. */
  async statusOf(enrollmentId: string, step: number, attempt = 1): Promise<string | null> {
    const { rows } = await this.pool.query<{ status: string }>(
      'SELECT status::text AS status FROM touch WHERE enrollment_id = $1 AND step = $2 AND attempt = $3',
      [enrollmentId, step, attempt],
    );
    return rows[0]?.status ?? null;
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

  /** The step after the last: the sequence ran out without an answer. */
  async exhaust(enrollmentId: string, step: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE enrollment SET status = 'exhausted', stop_reason = 'exhausted', next_touch_at = NULL, updated_at = now()
       WHERE id = $1 AND status = 'active' AND current_step = $2`,
      [enrollmentId, step],
    );
    return (r.rowCount ?? 0) > 0;
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

  /**
   * The mailboxes a pool's first touch may go out from: active, on an active
   * domain. When the prospect was already touched from one of them (in any
   * sequence), only that one: the prospect stays on the mailbox it knows.
   */
  async poolCandidates(poolId: string, prospectId: string): Promise<SendMailbox[]> {
    const { rows } = await this.pool.query(
      `WITH members AS (
         SELECT m.* FROM mailbox_pool_member pm JOIN mailbox m ON m.id = pm.mailbox_id JOIN sending_domain d ON d.id = m.domain_id
         WHERE pm.pool_id = $1 AND m.status = 'active' AND d.status = 'active'),
       known AS (
         SELECT e.mailbox_id FROM enrollment e JOIN touch t ON t.enrollment_id = e.id
         WHERE e.prospect_id = $2 AND t.status IN ('sent', 'unknown') AND e.mailbox_id IN (SELECT id FROM members)
         ORDER BY t.sent_at LIMIT 1)
       SELECT ${MAILBOX_COLUMNS} FROM members m
       WHERE NOT EXISTS (SELECT 1 FROM known) OR m.id = (SELECT mailbox_id FROM known)
       ORDER BY m.id`,
      [poolId, prospectId],
    );
    return rows.map(mailboxOf);
  }

  /**
   * Moves an enrollment whose first touch has not gone out yet to another mailbox
   * (of its sequence's pool). Refused once a touch exists: the thread stays with
   * the mailbox that started it.
   */
  async assignMailbox(enrollmentId: string, mailboxId: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE enrollment SET mailbox_id = $2, updated_at = now()
       WHERE id = $1 AND status = 'active' AND current_step = 1 AND mailbox_id <> $2
         AND NOT EXISTS (SELECT 1 FROM touch t WHERE t.enrollment_id = $1)`,
      [enrollmentId, mailboxId],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /**
   * Touches sent per step and A/B variant (0 = the step's own copy), for one sequence
   * or all. A step resent after a soft bounce counts once: this is how many
   * prospects the copy reached, not how many attempts it took.
   */
  async sentByStepAndVariant(
    sequenceId?: string,
  ): Promise<{ step: number; variant: number; sent: number }[]> {
    const { rows } = await this.pool.query<{ step: number; variant: number; sent: number }>(
      `SELECT t.step, COALESCE(t.variant, 0) AS variant, count(DISTINCT t.enrollment_id)::int AS sent
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE t.status = 'sent' AND ($1::uuid IS NULL OR e.sequence_id = $1)
       GROUP BY t.step, COALESCE(t.variant, 0) ORDER BY t.step, variant`,
      [sequenceId ?? null],
    );
    return rows;
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

  /** Touches per enrollment, for the timeline. */
  async forEnrollment(enrollmentId: string) {
    const { rows } = await this.pool.query(
      `SELECT step, attempt, status, idempotency_key AS "idempotencyKey", provider_message_id AS "providerMessageId",
              variant, error, created_at AS "createdAt", sent_at AS "sentAt"
       FROM touch WHERE enrollment_id = $1 ORDER BY step, attempt`,
      [enrollmentId],
    );
    return rows;
  }
}
