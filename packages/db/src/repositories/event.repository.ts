import { randomUUID } from 'node:crypto';
import {
  type CanonicalEvent,
  type EventEffect,
  effectOf,
  MAX_TOUCH_ATTEMPTS,
  MicroBatcher,
  normalisedEmail,
  outOfOfficeResumeAt,
  resolveTimeZone,
  type SendingWindow,
  sendingWindowOf,
  softBounceEffect,
  softBounceRetryDue,
} from '@touchbase/core';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { databaseOutageOf } from '../database-outage.js';
import { CrmOutboxRepository } from './crm-outbox.repository.js';
import {
  EnrollmentRepository,
  emailHash,
  LIVE_STATUSES_SQL,
  stopProspectsSql,
} from './enrollment.repository.js';
import { TriageRepository } from './triage.repository.js';

/** An enrollment whose pending job should be removed (stopped or paused) or created (resumed). */
export type EnrollmentStep = { id: string; currentStep: number; currentAttempt: number };

/**
 * A soft-bounced touch sent back to be resent: the enrollment is again at `step`,
 * now at `attempt`, due at `nextTouchAt`. `replaces` is the job of the step it had
 * moved on to (only because the bounced touch was recorded as sent), to remove.
 */
export type SoftBounceRetry = {
  id: string;
  step: number;
  attempt: number;
  nextTouchAt: Date;
  replaces: { step: number; attempt: number } | null;
};

/** What recording an event did. */
export type ApplyResult = {
  duplicate: boolean;
  eventId: string | null;
  prospectId: string | null;
  /**
   * `applied`, `paused`, `soft_bounce`, `email_changed`, `erased`, `unknown_prospect`,
   * `no_effect`, `refused_unsigned`, `conflict`, `new_address_suppressed` or `duplicate`.
   */
  outcome: string;
  /** Whether it went to the triage list (a person's message from someone we do not know). */
  triaged: boolean;
  /** Enrollments stopped or paused, with the step whose pending job should now be removed. */
  stopped: EnrollmentStep[];
  /** Enrollments made active again (an address change), whose next touch needs a job. */
  resumed: (EnrollmentStep & { nextTouchAt: Date })[];
  /** Soft-bounced touches to resend: each needs its job, and the job it replaces removed. */
  retried: SoftBounceRetry[];
  /**
   * Touches of the stopped enrollments that a sender had already claimed when the
   * stop committed: they may still be on their way to the provider.
   */
  inFlight: { enrollmentId: string; step: number }[];
  /** Whether a CRM notification was queued in the outbox. */
  crmQueued: boolean;
};

/**
 * How to apply events: the clock, TIME_SCALE for pauses and resends, whether a CRM
 * is told of hard bounces, and the back-off before the first resend of a
 * soft-bounced touch (real ms before TIME_SCALE; doubled before the second resend).
 */
export type ApplyOptions = {
  now?: Date;
  timeScale?: number;
  notifyCrm?: boolean;
  softBounceRetryMs?: number;
};

type Target = { prospectId: string; email: string; enrollmentId: string | null };

/** A stopping event to record and apply, with its id and effect. */
type StopItem = { id: string; event: CanonicalEvent; effect: Extract<EventEffect, { kind: 'stop' }> };

/** An effect-free event to record, with its id and outcome. */
type InformationalItem = { id: string; event: CanonicalEvent; outcome: string };

/** Event types a person writes: when nobody we know wrote them, a person should look. */
const PERSON_TYPES = new Set(['reply', 'out_of_office', 'unsubscribe']);

/**
 * The event log. An event is recorded once by (source, external id) and applied
 * in the same transaction, so a redelivery finds it and changes nothing, and a
 * crash leaves either both or neither.
 *
 * The recorded payload never holds an address: addresses are replaced by their
 * sha-256 (the log is immutable, and an erasure must leave no address behind).
 */
export class EventRepository {
  private readonly enrollments: EnrollmentRepository;
  private readonly triage = new TriageRepository();
  private readonly outbox: CrmOutboxRepository;

  /**
   * Effect-free events naming our enrollment, recorded together: the events arriving
   * while a batch runs share the next statement and its commit (group commit).
   */
  private readonly informationalByEnrollment = new MicroBatcher(
    (items: InformationalItem[]) => this.insertInformationalByEnrollment(items),
    100,
    2,
    undefined,
    aloneUnlessOutage,
  );

  /**
   * A stopping event (a reply, a hard bounce, a complaint, a CRM deal) that names our
   * enrollment, the usual case of the hot path: resolved, recorded already applied,
   * and its stop, suppression and address invalidation done in one statement (one
   * round trip and one commit, where the general path takes a transaction of eight),
   * shared with the stopping events arriving meanwhile, so a reply storm or a bounce
   * storm shares statements and commits. The result is the one the general path
   * gives; null when the enrollment is not found or the address differs (the general
   * path decides then). An unsubscribe (audited) and a hard bounce that tells a CRM
   * take the general path.
   */
  private readonly stopsByEnrollment = new MicroBatcher(
    (items: StopItem[]) => this.applyStopsByEnrollment(items),
    100,
    2,
    undefined,
    aloneUnlessOutage,
  );

  constructor(private readonly pool: pg.Pool) {
    this.enrollments = new EnrollmentRepository(pool);
    this.outbox = new CrmOutboxRepository(pool);
  }

  async recordAndApply(event: CanonicalEvent, opts: ApplyOptions = {}): Promise<ApplyResult> {
    const now = opts.now ?? new Date();
    const effect0 = effectOf(event);
    if (effect0.kind === 'none') return this.recordInformational(event, effect0.reason);
    if (
      effect0.kind === 'stop' &&
      event.enrollmentId &&
      event.type !== 'unsubscribe' &&
      !(effect0.invalidateEmail && opts.notifyCrm)
    ) {
      const done = await this.stopsByEnrollment.submit({ id: randomUUID(), event, effect: effect0 });
      if (done) return done;
    }
    return inTransaction(this.pool, async (client) => {
      const id = randomUUID();
      const inserted = await client.query({
        name: 'event-insert',
        text: `INSERT INTO event (id, source, external_id, type, payload, classification, why) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (source, external_id) DO NOTHING RETURNING seq`,
        values: eventRowValues(id, event),
      });
      const result = freshResult(id, null, 'no_effect');
      if (inserted.rowCount === 0) return { ...result, duplicate: true, eventId: null, outcome: 'duplicate' };

      const target = await this.resolve(client, event);
      if (!target) {
        result.outcome = await this.unresolved(client, id, event);
        result.triaged = result.outcome === 'triage';
        if (result.triaged) result.outcome = 'unknown_prospect';
        await this.finish(client, id, result.outcome, null, null);
        return result;
      }
      result.prospectId = target.prospectId;

      let effect: EventEffect = effect0;
      if (effect.kind === 'soft_bounce') {
        effect = softBounceEffect(event, (await this.softBouncesInARow(client, target.prospectId)) + 1);
      }
      switch (effect.kind) {
        case 'stop': {
          result.stopped = await this.enrollments.stopForProspect(
            client,
            target.prospectId,
            effect.status,
            effect.reason,
            event.occurredAt,
          );
          if (effect.suppress) {
            await client.query(
              `INSERT INTO suppression (id, kind, value, reason) VALUES ($1, 'email', $2, $3) ON CONFLICT (kind, value) DO NOTHING`,
              [randomUUID(), target.email, effect.reason],
            );
          }
          if (effect.invalidateEmail) {
            await client.query(`UPDATE prospect SET email_status = 'invalid' WHERE id = $1`, [
              target.prospectId,
            ]);
            if (opts.notifyCrm) {
              result.crmQueued = await this.outbox.enqueue(client, {
                eventId: id,
                prospectId: target.prospectId,
                email: target.email,
                kind: 'hard_bounce',
              });
            }
          }
          if (event.type === 'unsubscribe') {
            // Unsubscribes are absolute and audited (docs/architecture.md#suppression-absolute), whichever way they came.
            await client.query(
              `INSERT INTO audit_log (actor, action, entity_type, entity_id, data) VALUES ($1, 'prospect.unsubscribed', 'prospect', $2, $3)`,
              [
                `ingest:${event.source}`,
                target.prospectId,
                JSON.stringify({
                  eventId: id,
                  enrollmentId: target.enrollmentId,
                  enrollmentsEnded: result.stopped.map((s) => s.id),
                  suppressed: effect.suppress,
                }),
              ],
            );
          }
          result.outcome = 'applied';
          break;
        }
        case 'pause': {
          const until = outOfOfficeResumeAt(now, effect.returnDate, { timeScale: opts.timeScale ?? 1 });
          // An enrollment already paused by an earlier out-of-office takes the new date.
          const { rows } = await client.query<EnrollmentStep>(
            `UPDATE enrollment SET status = 'paused', stop_reason = 'out_of_office', next_touch_at = $2, updated_at = now()
             WHERE prospect_id = $1 AND (status = 'active' OR (status = 'paused' AND stop_reason = 'out_of_office'))
             RETURNING id, current_step AS "currentStep", current_attempt AS "currentAttempt"`,
            [target.prospectId, until],
          );
          result.stopped = rows;
          result.outcome = 'paused';
          break;
        }
        case 'soft_bounce': {
          // Fewer than three in a row: the address may recover; the count lives in the log,
          // and the touch that bounced is sent again later, when it is still the current one.
          const retry = await this.resendAfterSoftBounce(client, event, target, now, opts);
          if (retry) result.retried.push(retry);
          result.outcome = 'soft_bounce';
          break;
        }
        case 'email_changed':
          result.outcome = await this.changeEmail(client, target, effect.newEmail, result);
          break;
        case 'erase':
          result.stopped = await this.erase(client, id, event, target);
          result.outcome = 'erased';
          break;
        case 'none':
          result.outcome = effect.reason === 'refused_unsigned' ? 'refused_unsigned' : 'no_effect';
          break;
      }

      if (result.stopped.length > 0 && effect.kind !== 'erase') {
        result.inFlight = await touchesBeingSent(client, result.stopped);
      }
      const erased = effect.kind === 'erase';
      await this.finish(
        client,
        id,
        result.outcome,
        erased ? null : target.prospectId,
        erased ? null : target.enrollmentId,
      );
      return result;
    });
  }

  /**
   * Records and applies stopping events that name our enrollment, in one statement.
   * Each prospect is stopped by one event of the batch; a second event of the same
   * prospect runs after, alone, as it would have arrived after the first. Enrollments
   * are locked in id order across the batch, as everywhere, so batches, senders'
   * claims and single stops never deadlock.
   */
  private async applyStopsByEnrollment(items: StopItem[]): Promise<(ApplyResult | null)[]> {
    const { rows } = await this.pool.query<{
      ord: string;
      prospect_id: string;
      rk: string;
      inserted: boolean;
      stopped: EnrollmentStep[] | null;
    }>({
      name: 'event-stops-by-enrollment',
      text: `WITH input AS (
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::jsonb[],
                                $8::uuid[], $9::text[], $10::"EnrollmentStatus"[], $11::text[], $12::timestamptz[],
                                $13::boolean[], $14::boolean[], $15::uuid[])
             WITH ORDINALITY AS i(id, source, external_id, type, payload, classification, why,
                                  enrollment_id, email, status, reason, at, suppress, invalidate, suppression_id, ord)),
         t AS (
           SELECT i.*, e.prospect_id, p.email AS prospect_email,
                  row_number() OVER (PARTITION BY e.prospect_id ORDER BY i.ord) AS rk
           FROM input i JOIN enrollment e ON e.id = i.enrollment_id JOIN prospect p ON p.id = e.prospect_id
           WHERE i.email IS NULL OR p.email = i.email),
         ins AS (
           INSERT INTO event (id, source, external_id, type, payload, classification, why, applied_at, outcome, prospect_id, enrollment_id)
           SELECT id, source, external_id, type, payload, classification, why, now(), 'applied', prospect_id, enrollment_id
           FROM t WHERE rk = 1 ORDER BY ord
           ON CONFLICT (source, external_id) DO NOTHING RETURNING id),
         won AS MATERIALIZED (SELECT t.* FROM t JOIN ins ON ins.id = t.id),
         ${stopProspectsSql('won')},
         suppressed AS (
           INSERT INTO suppression (id, kind, value, reason)
           SELECT suppression_id, 'email', prospect_email, reason FROM won WHERE suppress
           ON CONFLICT (kind, value) DO NOTHING),
         invalidated AS (
           UPDATE prospect SET email_status = 'invalid' WHERE id IN (SELECT prospect_id FROM won WHERE invalidate))
         SELECT t.ord, t.prospect_id, t.rk, EXISTS (SELECT 1 FROM won w WHERE w.ord = t.ord) AS inserted,
           (SELECT json_agg(json_build_object('id', s.id, 'currentStep', s."currentStep", 'currentAttempt', s."currentAttempt") ORDER BY s.id)
            FROM stopped s WHERE s.ord = t.ord AND s.live) AS stopped
         FROM t`,
      values: [
        ...namedEventColumns(items),
        items.map((i) => i.effect.status),
        items.map((i) => i.effect.reason),
        items.map((i) => i.event.occurredAt),
        items.map((i) => i.effect.suppress),
        items.map((i) => i.effect.invalidateEmail),
        items.map(() => randomUUID()),
      ],
    });
    const results: (ApplyResult | null)[] = items.map(() => null);
    const later: number[] = [];
    for (const r of rows) {
      const n = Number(r.ord) - 1;
      const item = items[n]!;
      if (Number(r.rk) > 1) later.push(n);
      else if (!r.inserted)
        results[n] = { ...freshResult(item.id, null, 'duplicate'), duplicate: true, eventId: null };
      else results[n] = { ...freshResult(item.id, r.prospect_id, 'applied'), stopped: r.stopped ?? [] };
    }
    // Read after the commit: a claim the stop waited for is committed, so it is seen.
    const stopped = results.flatMap((r) => r?.stopped ?? []);
    if (stopped.length > 0) {
      const inFlight = await touchesBeingSent(this.pool, stopped);
      for (const r of results) {
        if (!r || r.stopped.length === 0) continue;
        const mine = new Set(r.stopped.map((e) => e.id));
        r.inFlight = inFlight.filter((t) => mine.has(t.enrollmentId));
      }
    }
    for (const n of later) results[n] = (await this.applyStopsByEnrollment([items[n]!]))[0] ?? null;
    return results;
  }

  /**
   * An event that changes nothing (opened, delivered, clicked, ...: most of a
   * provider's webhooks): the prospect is resolved first and the event inserted
   * already applied, in one statement and so one transaction, instead of five round
   * trips. The row ends as the general path leaves it; nothing is locked by either
   * (READ COMMITTED reads the latest commit at each statement), and the domain
   * rollup trigger watches inserts that are already applied too.
   */
  private async recordInformational(event: CanonicalEvent, reason: string): Promise<ApplyResult> {
    const known = reason === 'refused_unsigned' ? 'refused_unsigned' : 'no_effect';
    const id = randomUUID();
    const recorded = (prospectId: string | null, outcome: string) => freshResult(id, prospectId, outcome);
    const duplicate = { ...recorded(null, 'duplicate'), duplicate: true, eventId: null };
    if (event.enrollmentId) {
      // The usual case, named by our enrollment id: resolved and recorded in one statement,
      // shared with the others arriving meanwhile. Found but not inserted: the event was
      // recorded before. Not found: the general way below.
      const r = await this.informationalByEnrollment.submit({ id, event, outcome: known });
      if (r) return r.inserted ? recorded(r.prospectId, known) : duplicate;
    }
    const target = await this.resolve(this.pool, event);
    // Nobody we know: no effect either (person-written types never take this path, so no triage).
    const outcome = target ? known : 'unknown_prospect';
    const inserted = await this.pool.query({
      name: 'event-insert-applied',
      text: `INSERT INTO event (id, source, external_id, type, payload, classification, why, applied_at, outcome, prospect_id, enrollment_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now(), $8, $9, $10)
       ON CONFLICT (source, external_id) DO NOTHING RETURNING seq`,
      values: [
        ...eventRowValues(id, event),
        outcome,
        target?.prospectId ?? null,
        target?.enrollmentId ?? null,
      ],
    });
    return inserted.rowCount === 0 ? duplicate : recorded(target?.prospectId ?? null, outcome);
  }

  /**
   * Records effect-free events that name our enrollment, already applied, in one
   * statement. Each gets what it would get alone: its prospect and whether it was
   * inserted (false: recorded before, or earlier in this batch), or null when its
   * enrollment is not found or the address it gives differs.
   */
  private async insertInformationalByEnrollment(
    items: InformationalItem[],
  ): Promise<({ prospectId: string; inserted: boolean } | null)[]> {
    const { rows } = await this.pool.query<{ ord: string; prospect_id: string; inserted: boolean }>({
      name: 'event-insert-applied-by-enrollment',
      text: `WITH input AS (
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::jsonb[],
                                $8::uuid[], $9::text[], $10::text[])
             WITH ORDINALITY AS i(id, source, external_id, type, payload, classification, why, enrollment_id, email, outcome, ord)),
         t AS (
           SELECT i.*, e.prospect_id FROM input i
           JOIN enrollment e ON e.id = i.enrollment_id JOIN prospect p ON p.id = e.prospect_id
           WHERE i.email IS NULL OR p.email = i.email),
         ins AS (
           INSERT INTO event (id, source, external_id, type, payload, classification, why, applied_at, outcome, prospect_id, enrollment_id)
           SELECT id, source, external_id, type, payload, classification, why, now(), outcome, prospect_id, enrollment_id
           FROM t ORDER BY ord
           ON CONFLICT (source, external_id) DO NOTHING RETURNING id)
         SELECT t.ord, t.prospect_id, ins.id IS NOT NULL AS inserted FROM t LEFT JOIN ins ON ins.id = t.id`,
      values: [...namedEventColumns(items), items.map((i) => i.outcome)],
    });
    const found: ({ prospectId: string; inserted: boolean } | null)[] = items.map(() => null);
    for (const r of rows) found[Number(r.ord) - 1] = { prospectId: r.prospect_id, inserted: r.inserted };
    return found;
  }

  /** Nobody we know: a person's message goes to triage; anything else changes nothing. */
  private async unresolved(client: pg.PoolClient, eventId: string, event: CanonicalEvent): Promise<string> {
    if (event.type === 'erasure_request' && event.email) {
      // Unknown today, perhaps imported tomorrow: the hash keeps the person out.
      await client.query(
        `INSERT INTO suppression (id, kind, value, reason) VALUES ($1, 'hash', $2, 'erasure_request') ON CONFLICT (kind, value) DO NOTHING`,
        [randomUUID(), emailHash(event.email)],
      );
      await audit(client, eventId, event, null, 0);
      return 'erased';
    }
    if (!PERSON_TYPES.has(event.type) || (!event.email && !event.linkedinUrl)) return 'unknown_prospect';
    await this.triage.record(client, {
      eventId,
      source: event.source,
      kind: event.inReply === false ? 'cold_inbound' : 'unknown_sender',
      email: event.email ? normalisedEmail(event.email) : (event.linkedinUrl ?? '').trim().toLowerCase(),
      classification: event.classification ?? null,
      why: event.why ?? [],
    });
    return 'triage';
  }

  private async finish(
    client: pg.PoolClient,
    id: string,
    outcome: string,
    prospectId: string | null,
    enrollmentId: string | null,
  ): Promise<void> {
    await client.query({
      name: 'event-finish',
      text: 'UPDATE event SET applied_at = now(), outcome = $2, prospect_id = $3, enrollment_id = $4 WHERE id = $1',
      values: [id, outcome, prospectId, enrollmentId],
    });
  }

  /**
   * Sends a soft-bounced touch again, as attempt `n + 1` with its own idempotency
   * key, after a back-off, when it is still the enrollment's current touch:
   *
   * - the touch is named by our message id (or, without one, it is the last touch
   *   handed over in the enrollment the event names; an event that names only an
   *   address resends nothing: when in doubt, do not resend);
   * - it was handed over (`sending`, `sent` or `unknown`) and is not the last
   *   attempt allowed ({@link MAX_TOUCH_ATTEMPTS});
   * - the enrollment is still `active` and either still at that step and attempt
   *   (the bounce beat the sender's record of the send: the record then does not
   *   advance it) or moved on to the next step only because this touch was recorded
   *   as sent: that next touch is not claimed yet, and no later attempt of the step
   *   exists. A paused or ended enrollment, one whose next touch already went out
   *   (or is going out), and a bounce of an older attempt resend nothing.
   *
   * The enrollment row is locked first and the touches read after it, so this
   * serialises with a sender's claim of the next touch (which locks the same row):
   * either that claim committed and is seen here, or it waits and then finds the
   * enrollment moved back, and is fenced. A resend of the first step starts a new
   * thread: the first message never arrived.
   */
  private async resendAfterSoftBounce(
    client: pg.PoolClient,
    event: CanonicalEvent,
    target: Target,
    now: Date,
    opts: ApplyOptions,
  ): Promise<SoftBounceRetry | null> {
    type Bounced = { enrollmentId: string; step: number; attempt: number; status: string };
    let touch: Bounced | undefined;
    if (event.messageId) {
      const r = await client.query<Bounced>(
        `SELECT t.enrollment_id AS "enrollmentId", t.step, t.attempt, t.status::text AS status
         FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
         WHERE t.provider_message_id = $1 AND e.prospect_id = $2 LIMIT 1`,
        [event.messageId, target.prospectId],
      );
      touch = r.rows[0];
    }
    if (!touch && event.enrollmentId && target.enrollmentId === event.enrollmentId) {
      const r = await client.query<Bounced>(
        `SELECT enrollment_id AS "enrollmentId", step, attempt, status::text AS status FROM touch
         WHERE enrollment_id = $1 AND status IN ('sending', 'sent', 'unknown') ORDER BY step DESC, attempt DESC LIMIT 1`,
        [target.enrollmentId],
      );
      touch = r.rows[0];
    }
    if (!touch || touch.attempt >= MAX_TOUCH_ATTEMPTS) return null;
    if (!['sending', 'sent', 'unknown'].includes(touch.status)) return null;
    const { enrollmentId, step, attempt } = touch;

    const { rows } = await client.query<{
      status: string;
      current_step: number;
      current_attempt: number;
      p_tz: string | null;
      m_tz: string;
      window_days: number[];
      window_start: string;
      window_end: string;
      holidays: string[] | null;
      sending_window: SendingWindow | null;
    }>(
      `SELECT e.status::text AS status, e.current_step, e.current_attempt, p.timezone AS p_tz, m.timezone AS m_tz,
              m.window_days, m.window_start, m.window_end, m.holidays, s.sending_window
       FROM enrollment e JOIN prospect p ON p.id = e.prospect_id JOIN mailbox m ON m.id = e.mailbox_id
       JOIN sequence s ON s.id = e.sequence_id
       WHERE e.id = $1 FOR UPDATE OF e`,
      [enrollmentId],
    );
    const e = rows[0];
    if (e?.status !== 'active') return null;
    const atThisTouch = e.current_step === step && e.current_attempt === attempt;
    const movedOnByIt = e.current_step === step + 1 && e.current_attempt === 1;
    if (!atThisTouch && !movedOnByIt) return null;
    // A statement after the lock: it sees a claim of the next touch that committed before it.
    const later = await client.query(
      `SELECT 1 FROM touch WHERE enrollment_id = $1 AND (step > $2 OR (step = $2 AND attempt > $3)) LIMIT 1`,
      [enrollmentId, step, attempt],
    );
    if ((later.rowCount ?? 0) > 0) return null;

    const nextTouchAt = softBounceRetryDue(
      now,
      attempt,
      {
        timeZone: resolveTimeZone(e.p_tz, e.m_tz),
        window: sendingWindowOf(e.sending_window, {
          windowDays: e.window_days ?? [],
          windowStart: e.window_start,
          windowEnd: e.window_end,
          holidays: e.holidays,
        }),
        timeScale: opts.timeScale ?? 1,
      },
      opts.softBounceRetryMs,
    );
    await client.query(
      `UPDATE enrollment SET current_step = $2, current_attempt = $3, next_touch_at = $4, updated_at = now(),
         conversation_id = CASE WHEN $2 = 1 THEN NULL ELSE conversation_id END,
         first_message_id = CASE WHEN $2 = 1 THEN NULL ELSE first_message_id END
       WHERE id = $1`,
      [enrollmentId, step, attempt + 1, nextTouchAt],
    );
    return {
      id: enrollmentId,
      step,
      attempt: attempt + 1,
      nextTouchAt,
      replaces: movedOnByIt ? { step: step + 1, attempt: 1 } : null,
    };
  }

  /**
   * Soft bounces of this prospect since the last sign the address works (a
   * delivery, an open, a click, a reply) or the last hard bounce.
   */
  private async softBouncesInARow(client: pg.PoolClient, prospectId: string): Promise<number> {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event
       WHERE prospect_id = $1 AND type = 'bounce' AND payload->'bounce'->>'hard' = 'false'
         AND seq > COALESCE((SELECT max(seq) FROM event WHERE prospect_id = $1
           AND (type IN ('delivered', 'opened', 'clicked', 'reply')
                OR (type = 'bounce' AND payload->'bounce'->>'hard' = 'true'))), 0)`,
      [prospectId],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * The address moved: the prospect takes the new one and every sequence goes on
   * on it in a new thread. Enrollments that ended because the old address bounced
   * are resumed at their current step; the old address stays suppressed.
   */
  private async changeEmail(
    client: pg.PoolClient,
    target: Target,
    newEmail: string,
    result: ApplyResult,
  ): Promise<string> {
    const next = normalisedEmail(newEmail);
    if (next === target.email) return 'no_effect';
    const taken = await client.query('SELECT 1 FROM prospect WHERE email = $1', [next]);
    if ((taken.rowCount ?? 0) > 0) return 'conflict';
    const suppressed = await client.query(
      `SELECT 1 FROM suppression WHERE (kind = 'email' AND value = $1) OR (kind = 'domain' AND value = $2) OR (kind = 'hash' AND value = $3) LIMIT 1`,
      [next, next.split('@')[1] ?? '', emailHash(next)],
    );
    if ((suppressed.rowCount ?? 0) > 0) return 'new_address_suppressed';
    await client.query(`UPDATE prospect SET email = $2, email_status = 'valid' WHERE id = $1`, [
      target.prospectId,
      next,
    ]);
    await client.query(
      `UPDATE enrollment SET conversation_id = NULL, first_message_id = NULL, updated_at = now()
       WHERE prospect_id = $1 AND status IN ${LIVE_STATUSES_SQL}`,
      [target.prospectId],
    );
    const { rows } = await client.query<EnrollmentStep & { nextTouchAt: Date }>(
      `UPDATE enrollment SET status = 'active', stop_reason = NULL, next_touch_at = now(),
         conversation_id = NULL, first_message_id = NULL, updated_at = now()
       WHERE prospect_id = $1 AND status = 'bounced'
       RETURNING id, current_step AS "currentStep", current_attempt AS "currentAttempt", next_touch_at AS "nextTouchAt"`,
      [target.prospectId],
    );
    result.resumed = rows;
    return 'email_changed';
  }

  /**
   * An erasure request: every sequence ends, the person's rows go (identities,
   * enrollments and touches with them), only the sha-256 of the address stays in
   * the suppression list, and the audit log says it happened. The event log kept
   * no address (see {@link redact}); the classifier's quotes of their words go.
   */
  private async erase(
    client: pg.PoolClient,
    eventId: string,
    event: CanonicalEvent,
    target: Target,
  ): Promise<EnrollmentStep[]> {
    const stopped = await this.enrollments.stopForProspect(
      client,
      target.prospectId,
      'cancelled',
      'erasure_request',
    );
    await client.query(
      `INSERT INTO suppression (id, kind, value, reason) VALUES ($1, 'hash', $2, 'erasure_request') ON CONFLICT (kind, value) DO NOTHING`,
      [randomUUID(), emailHash(target.email)],
    );
    await client.query(`DELETE FROM suppression WHERE kind = 'email' AND value = $1`, [target.email]);
    await client.query('DELETE FROM triage_item WHERE email = $1', [target.email]);
    await this.outbox.forget(client, target.prospectId, target.email);
    await client.query('UPDATE event SET why = NULL WHERE prospect_id = $1', [target.prospectId]);
    await client.query('DELETE FROM prospect WHERE id = $1', [target.prospectId]);
    await audit(client, eventId, event, target.prospectId, stopped.length);
    return stopped;
  }

  /** Finds the prospect an event is about: our enrollment id, our message id, a CRM or LinkedIn identity, the address. */
  private async resolve(client: pg.Pool | pg.PoolClient, event: CanonicalEvent): Promise<Target | null> {
    if (event.enrollmentId) {
      const r = await client.query({
        name: 'event-resolve-enrollment',
        text: 'SELECT e.id, p.id AS prospect_id, p.email FROM enrollment e JOIN prospect p ON p.id = e.prospect_id WHERE e.id = $1',
        values: [event.enrollmentId],
      });
      // The enrollment id alone is not proof: the address, when given, must match.
      const row = r.rows[0];
      if (row && (!event.email || row.email === normalisedEmail(event.email))) {
        return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
      }
    }
    if (event.messageId) {
      const r = await client.query(
        `SELECT e.id, p.id AS prospect_id, p.email FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
         JOIN prospect p ON p.id = e.prospect_id WHERE t.provider_message_id = $1 LIMIT 1`,
        [event.messageId],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.prospect_id, email: row.email, enrollmentId: row.id };
    }
    if (event.crmId) {
      const r = await client.query(
        `SELECT p.id, p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id
         WHERE i.kind = $1 AND i.value = $2 LIMIT 1`,
        [event.source, event.crmId],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    if (event.linkedinUrl) {
      // Profile URLs come with and without scheme, www, trailing slash or query.
      const r = await client.query(
        `SELECT p.id, p.email FROM prospect_identity i JOIN prospect p ON p.id = i.prospect_id
         WHERE i.kind = 'linkedin' AND ${normalisedUrl('i.value')} = ${normalisedUrl('$1')} LIMIT 1`,
        [event.linkedinUrl],
      );
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    if (event.email) {
      const r = await client.query('SELECT id, email FROM prospect WHERE email = $1', [
        normalisedEmail(event.email),
      ]);
      const row = r.rows[0];
      if (row) return { prospectId: row.id, email: row.email, enrollmentId: null };
    }
    return null;
  }

  /**
   * Ends the out-of-office pauses whose time has come: the enrollments are active
   * again at the step where they stopped; the reconciler then gives each its job.
   */
  async resumeExpiredPauses(now: Date, limit = 5_000): Promise<(EnrollmentStep & { nextTouchAt: Date })[]> {
    const { rows } = await this.pool.query(
      `UPDATE enrollment SET status = 'active', stop_reason = NULL, updated_at = now()
       WHERE id IN (SELECT id FROM enrollment WHERE status = 'paused' AND stop_reason = 'out_of_office' AND next_touch_at <= $1
                    ORDER BY next_touch_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         AND status = 'paused'
       RETURNING id, current_step AS "currentStep", current_attempt AS "currentAttempt", next_touch_at AS "nextTouchAt"`,
      [now, limit],
    );
    return rows;
  }

  /** Whether touches are still being handed to the provider (claimed, not yet recorded). */
  async touchesInFlight(keys: { enrollmentId: string; step: number }[]): Promise<number> {
    if (keys.length === 0) return 0;
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM touch t
       JOIN unnest($1::uuid[], $2::int[]) AS k(enrollment_id, step) ON k.enrollment_id = t.enrollment_id AND k.step = t.step
       WHERE t.status = 'sending'`,
      [keys.map((k) => k.enrollmentId), keys.map((k) => k.step)],
    );
    return rows[0]?.n ?? 0;
  }

  /** The last position read from a provider's event stream, or null before the first pull. */
  async cursor(provider: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ cursor: string }>(
      'SELECT cursor FROM provider_cursor WHERE provider = $1',
      [provider],
    );
    return rows[0]?.cursor ?? null;
  }

  /** Moves a provider's cursor forward (never back: two recoveries at once keep the furthest). */
  async advanceCursor(provider: string, cursor: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO provider_cursor (provider, cursor, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (provider) DO UPDATE SET cursor = EXCLUDED.cursor, updated_at = now()
       WHERE CASE WHEN provider_cursor.cursor ~ '^[0-9]+$' AND EXCLUDED.cursor ~ '^[0-9]+$'
                  THEN EXCLUDED.cursor::numeric > provider_cursor.cursor::numeric
                  ELSE EXCLUDED.cursor <> provider_cursor.cursor END`,
      [provider, cursor],
    );
  }

  async list(filter: { prospectId?: string; type?: string }, limit: number, afterSeq?: number) {
    const { rows } = await this.pool.query(
      `SELECT seq, id, source, external_id AS "externalId", type, prospect_id AS "prospectId", enrollment_id AS "enrollmentId",
              received_at AS "receivedAt", applied_at AS "appliedAt", outcome, classification, why
       FROM event WHERE ($1::uuid IS NULL OR prospect_id = $1) AND ($2::text IS NULL OR type = $2) AND ($3::bigint IS NULL OR seq > $3)
       ORDER BY seq LIMIT $4`,
      [filter.prospectId ?? null, filter.type ?? null, afterSeq ?? null, limit],
    );
    return rows;
  }

  /** Recorded events by (source, external id) and outcome, for tests and recovery reports. */
  async countBySource(source: string): Promise<{ externalId: string; n: number; outcome: string | null }[]> {
    const { rows } = await this.pool.query(
      `SELECT external_id AS "externalId", count(*)::int AS n, max(outcome) AS outcome FROM event
       WHERE source = $1 GROUP BY external_id ORDER BY external_id`,
      [source],
    );
    return rows;
  }
}

/** The event as it is logged: addresses and profile URLs become their sha-256. */
function redact(event: CanonicalEvent): CanonicalEvent {
  return {
    ...event,
    ...(event.email ? { email: `sha256:${emailHash(event.email)}` } : {}),
    ...(event.newEmail ? { newEmail: `sha256:${emailHash(event.newEmail)}` } : {}),
    ...(event.linkedinUrl ? { linkedinUrl: `sha256:${emailHash(event.linkedinUrl)}` } : {}),
  };
}

function normalisedUrl(expr: string): string {
  return `regexp_replace(regexp_replace(regexp_replace(lower(trim(${expr})), '^(https?://)?(www\\.)?', ''), '[?#].*$', ''), '/+$', '')`;
}

/** The recorded columns of an event row, in the order both insert paths name them. */
function eventRowValues(id: string, event: CanonicalEvent): unknown[] {
  return [
    id,
    event.source,
    event.externalId,
    event.type,
    JSON.stringify(redact(event)),
    event.classification ?? null,
    event.why ? JSON.stringify(event.why) : null,
  ];
}

/**
 * The parameters every batched statement over events naming our enrollment starts
 * with, one array per column: the event row's seven ($1–$7, each row's values
 * computed once), the enrollment id ($8) and the address the event gives ($9).
 */
function namedEventColumns(items: { id: string; event: CanonicalEvent }[]): unknown[][] {
  const rows = items.map((i) => eventRowValues(i.id, i.event));
  return [
    ...[0, 1, 2, 3, 4, 5, 6].map((n) => rows.map((r) => r[n])),
    items.map((i) => i.event.enrollmentId),
    items.map((i) => (i.event.email ? normalisedEmail(i.event.email) : null)),
  ];
}

/** A batch that fails on one bad event (one PostgreSQL refuses) is run again event by event; an outage fails them all. */
const aloneUnlessOutage = (err: unknown) => !databaseOutageOf(err);

/** The result of recording an event before any effect has been applied. */
function freshResult(eventId: string, prospectId: string | null, outcome: string): ApplyResult {
  return {
    duplicate: false,
    eventId,
    prospectId,
    outcome,
    stopped: [],
    resumed: [],
    retried: [],
    inFlight: [],
    crmQueued: false,
    triaged: false,
  };
}
async function audit(
  client: pg.PoolClient,
  eventId: string,
  event: CanonicalEvent,
  prospectId: string | null,
  enrollments: number,
): Promise<void> {
  await client.query(
    `INSERT INTO audit_log (actor, action, entity_type, entity_id, data) VALUES ($1, 'prospect.erased', 'prospect', $2, $3)`,
    [
      `ingest:${event.source}`,
      prospectId ?? `sha256:${emailHash(event.email ?? '')}`,
      JSON.stringify({ eventId, enrollmentsEnded: enrollments, known: prospectId !== null }),
    ],
  );
}

/** Touches of these enrollments that a sender has claimed and not yet recorded. */
async function touchesBeingSent(
  client: pg.Pool | pg.PoolClient,
  enrollments: { id: string }[],
): Promise<{ enrollmentId: string; step: number }[]> {
  const { rows } = await client.query<{ enrollmentId: string; step: number }>({
    name: 'event-touches-in-flight',
    text: `SELECT enrollment_id AS "enrollmentId", step FROM touch WHERE enrollment_id = ANY($1::uuid[]) AND status = 'sending'`,
    values: [enrollments.map((e) => e.id)],
  });
  return rows;
}
