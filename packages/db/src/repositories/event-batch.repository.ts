import { randomUUID } from 'node:crypto';
import { type CanonicalEvent, MicroBatcher, type ReplyBatchCondition } from '@touchbase/core';
import type {
  ApplyOutcome,
  ApplyResult,
  EnrollmentStep,
  InformationalRecord,
  StopEffect,
} from '@touchbase/use-cases';
import { duplicateResult, freshResult } from '@touchbase/use-cases';
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { databaseOutageOf } from '../database-outage.js';
import { EnrollmentEffectRepository } from './enrollment-effect.repository.js';
import { LIVE_STATUSES_SQL, stopProspectsSql } from './enrollment-stop.sql.js';
import { namedEventColumns, namedEventRecord } from './event-rows.js';

/** INGEST_STOP_BATCH_HOLD_MS's default: how long a batched stop waits for more while another batch runs. */
const DEFAULT_STOP_HOLD_MS = 1;

/**
 * How the batched stop's transaction opens (one round trip): with its plan built once
 * per connection and kept. PostgreSQL's own choice for this statement is a new plan for
 * every batch (its estimate of a generic plan, made for 10 input rows, never beats
 * the custom plans of batches of a few), and planning it cost about 1.3 ms, as much
 * as applying five replies. The generic plan is the same shape: nested loops on the
 * primary keys and prospect_id, whatever the batch's size. The COMMIT is one more
 * round trip; the touches in flight are still read after it.
 */
const GENERIC_PLAN_BEGIN = 'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan';

/** How long the distinct policy texts read are used before they are read again. */
const POLICY_TEXTS_TTL_MS = 1_000;

/**
 * A stopping event to record and apply, with its id and the effect core decided; a
 * reply with reply actions or company-level stop on with the policies under which it
 * only stops (core's `replyBatchConditionOf`).
 */
type StopItem = { id: string; event: CanonicalEvent; effect: StopEffect; reply?: ReplyBatchCondition };

/**
 * An effect-free event to record, with its id and outcome. `edge`: the event can fire a
 * graph edge (opened, clicked, ...), so it is recorded here only when its enrollment is
 * not waiting after a node; otherwise the general transaction takes the edge.
 */
type InformationalItem = { id: string; event: CanonicalEvent; outcome: ApplyOutcome; edge?: boolean };

type StopRow = {
  ord: string;
  prospect_id: string;
  rk: string;
  inserted: boolean;
  stopped: EnrollmentStep[] | null;
};

/**
 * The hot paths of the event log, each the same decision as the general
 * transaction carried out in one statement shared with the events arriving while a
 * batch runs (group commit): a reply storm or a bounce storm shares statements and
 * commits. The equivalence test (event-fast-paths) holds them to the general path.
 */
export class EventBatchRepository {
  private readonly effects: EnrollmentEffectRepository;

  /** Effect-free events naming our enrollment, recorded together. */
  private readonly informational = new MicroBatcher(
    (items: InformationalItem[]) => this.insertInformationalByEnrollment(items),
    200,
    // One statement at a time: what arrives meanwhile joins the next, so a webhook storm
    // shares each statement's fixed cost (round trip, plan, commit flush) among more
    // events; the events of one batch commit together before any is acknowledged.
    1,
    undefined,
    aloneUnlessOutage,
  );

  /**
   * Stopping events naming our enrollment: resolved, recorded already applied, and
   * their stop, suppression and address invalidation done in one statement (one
   * round trip and one commit, where the general path takes a transaction of eight).
   * While one batch runs, the next waits up to `stopHoldMs` from its first event for
   * more (a reply storm): a batch's fixed cost (its round trips and commit, the read
   * of touches in flight, the Redis pipeline removing the jobs) is shared by more
   * replies; a lone stop is never held.
   */
  private readonly stops: MicroBatcher<StopItem, ApplyResult | null>;

  /** The distinct policy texts as last read, and when (see {@link policyTexts}). */
  private texts: { at: number; read: Promise<readonly string[]> } | null = null;

  constructor(
    private readonly pool: pg.Pool,
    /** INGEST_STOP_BATCH_HOLD_MS (see {@link stops}). */
    stopHoldMs = DEFAULT_STOP_HOLD_MS,
  ) {
    this.effects = new EnrollmentEffectRepository(pool);
    this.stops = new MicroBatcher(
      (items: StopItem[]) => this.applyStopsByEnrollment(items),
      100,
      2,
      undefined,
      aloneUnlessOutage,
      stopHoldMs,
    );
  }

  /**
   * The distinct policy texts of the sequences, read at most once a second (one read
   * shared by the replies asking meanwhile). A change lags by that much here only: the
   * batched stop checks each reply against the stored texts, so a text read late sends
   * its replies to the general path, never applies a stale policy.
   */
  policyTexts(): Promise<readonly string[]> {
    const now = Date.now();
    if (this.texts && now - this.texts.at < POLICY_TEXTS_TTL_MS) return this.texts.read;
    const read = this.pool
      .query<{ policies: string }>({
        name: 'sequence-distinct-policy-texts',
        text: 'SELECT DISTINCT policies::text AS policies FROM sequence',
      })
      .then(({ rows }) => rows.map((r) => r.policies));
    this.texts = { at: now, read };
    // A failed read is not kept: the next reply asks again.
    read.catch(() => {
      if (this.texts?.read === read) this.texts = null;
    });
    return read;
  }

  /**
   * Records and applies a stop naming our enrollment. @returns null when not found,
   * the address differs, a reply's person is live in a graph with a `replied` edge, or
   * a reply's `reply` condition is not met by the stored policies.
   */
  applyStop(item: StopItem): Promise<ApplyResult | null> {
    return this.stops.submit(item);
  }

  /**
   * Records an effect-free event naming our enrollment. @returns null when not found or the
   * address differs; `{ waiting: true }`, nothing recorded, for an `edge` event whose
   * enrollment waits after a node.
   */
  recordInformational(item: InformationalItem): Promise<InformationalRecord | null> {
    return this.informational.submit(item);
  }

  /**
   * Records and applies stopping events that name our enrollment, in one statement.
   * Each prospect is stopped by one event of the batch; a second event of the same
   * prospect runs after, alone, as it would have arrived after the first. Enrollments
   * are locked in id order across the batch, as everywhere, so batches, senders'
   * claims and single stops never deadlock.
   */
  private async applyStopsByEnrollment(items: StopItem[]): Promise<(ApplyResult | null)[]> {
    const { rows } = await inTransaction(
      this.pool,
      (client) => client.query<StopRow>(this.stopQuery(items)),
      GENERIC_PLAN_BEGIN,
    );
    return this.stopResults(items, rows);
  }

  /** The one statement that records and applies `items` (see {@link applyStopsByEnrollment}). */
  private stopQuery(items: StopItem[]): pg.QueryConfig {
    return {
      name: 'event-stops-by-enrollment',
      text: `WITH input AS (
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::jsonb[],
                                $8::uuid[], $9::text[], $10::"EnrollmentStatus"[], $11::text[], $12::timestamptz[],
                                $13::boolean[], $14::boolean[], $15::uuid[], $16::boolean[], $17::boolean[], $18::boolean[])
             WITH ORDINALITY AS i(id, source, external_id, type, payload, classification, why,
                                  enrollment_id, email, status, reason, at, suppress, invalidate, suppression_id,
                                  own_check, ends_without_live, colleague_check, ord)),
         -- A reply's condition (core's replyBatchConditionOf): by item, the policy texts under
         -- which it only ends the person, and those whose company stop leaves colleagues alone.
         own_ends AS (SELECT * FROM unnest($19::bigint[], $20::text[]) AS o(ord, policies)),
         colleagues_left AS (SELECT * FROM unnest($21::bigint[], $22::text[]) AS c(ord, policies)),
         t AS (
           SELECT i.*, e.prospect_id, p.email AS prospect_email,
                  row_number() OVER (PARTITION BY e.prospect_id ORDER BY i.ord) AS rk
           FROM input i JOIN enrollment e ON e.id = i.enrollment_id JOIN prospect p ON p.id = e.prospect_id
           WHERE p.merged_into IS NULL AND (i.email IS NULL OR p.email = i.email)
             -- A reply to a person live in a graph with a replied edge may take it: the general path decides.
             AND NOT (i.type = 'reply' AND EXISTS (
               SELECT 1 FROM enrollment r JOIN sequence_version v ON v.id = r.sequence_version_id
               WHERE r.prospect_id = e.prospect_id AND r.status IN ('active', 'paused')
                 AND v.graph @> '{"edges": [{"trigger": "replied"}]}'::jsonb))
             -- Reply actions: every live enrollment of the person is in a sequence whose policies
             -- only end it on this reply (with none live, the defaults must ask for nothing).
             AND (NOT i.own_check OR (
               NOT EXISTS (
                 SELECT 1 FROM enrollment o JOIN sequence s ON s.id = o.sequence_id
                 WHERE o.prospect_id = e.prospect_id AND o.status IN ${LIVE_STATUSES_SQL}
                   AND NOT EXISTS (SELECT 1 FROM own_ends w WHERE w.ord = i.ord AND w.policies = s.policies::text))
               AND (i.ends_without_live OR EXISTS (
                 SELECT 1 FROM enrollment o WHERE o.prospect_id = e.prospect_id AND o.status IN ${LIVE_STATUSES_SQL}))))
             -- Company-level stop: no colleague live in a sequence whose policy acts on this reply
             -- (sequences first, as the general path: most replies find none acting).
             AND (NOT i.colleague_check OR p.company_domain IS NULL OR NOT EXISTS (
               SELECT 1 FROM sequence s
               WHERE NOT EXISTS (SELECT 1 FROM colleagues_left w WHERE w.ord = i.ord AND w.policies = s.policies::text)
                 AND EXISTS (
                   SELECT 1 FROM prospect c JOIN enrollment ce ON ce.prospect_id = c.id
                   WHERE c.company_domain = p.company_domain AND c.id <> p.id
                     AND ce.sequence_id = s.id AND ce.status IN ${LIVE_STATUSES_SQL})))),
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
        items.map((i) => i.reply?.ownEnds != null),
        items.map((i) => i.reply?.endsWithoutLive ?? true),
        items.map((i) => i.reply?.colleaguesLeft != null),
        ...policyPairs(items, (r) => r.ownEnds),
        ...policyPairs(items, (r) => r.colleaguesLeft),
      ],
    };
  }

  /** Each item's answer from the statement's rows; the touches in flight read after the commit. */
  private async stopResults(items: StopItem[], rows: StopRow[]): Promise<(ApplyResult | null)[]> {
    const results: (ApplyResult | null)[] = items.map(() => null);
    const later: number[] = [];
    for (const r of rows) {
      const n = Number(r.ord) - 1;
      const item = items[n]!;
      if (Number(r.rk) > 1) later.push(n);
      else if (!r.inserted) results[n] = duplicateResult(item.id);
      else results[n] = { ...freshResult(item.id, r.prospect_id, 'applied'), stopped: r.stopped ?? [] };
    }
    // Read after the commit: a claim the stop waited for is committed, so it is seen.
    const stopped = results.flatMap((r) => r?.stopped ?? []);
    if (stopped.length > 0) {
      const inFlight = await this.effects.touchesBeingSent(this.pool, stopped);
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
   * Records effect-free events that name our enrollment, already applied, in one
   * statement. Each gets what it would get alone: its prospect and whether it was
   * inserted (false: recorded before, or earlier in this batch), or null when its
   * enrollment is not found or the address it gives differs. An `edge` event whose
   * enrollment is active and waiting after a node is not recorded (`waiting`): the
   * general transaction locks that enrollment and takes the edge. One that is not
   * waiting would find nothing to lock there, so it ends here as it would end there.
   */
  private async insertInformationalByEnrollment(
    items: InformationalItem[],
  ): Promise<(InformationalRecord | null)[]> {
    // One JSON parameter for the whole batch (one JSON.stringify, where an array per
    // column cost a quoting pass per value in pg), and an answer linear in the batch:
    // a row per event found (t) and a row per event inserted (ins, by id), where a join
    // of the two was planned as a nested loop (rows=1 estimates), n² comparisons.
    const { rows } = await this.pool.query<{
      ord: number | null;
      prospect_id: string | null;
      waiting: boolean | null;
      inserted_id: string | null;
    }>({
      name: 'event-insert-applied-by-enrollment',
      text: `WITH input AS (
           SELECT * FROM json_to_recordset($1::json) AS i(ord int, id uuid, source text, external_id text, type text,
             payload jsonb, classification text, why jsonb, enrollment_id uuid, email text, outcome text, edge boolean)),
         t AS (
           SELECT i.*, e.prospect_id,
                  (i.edge AND e.status = 'active' AND e.waiting_node IS NOT NULL) AS waiting
           FROM input i CROSS JOIN LATERAL (
             -- Each event's enrollment and person by their keys: OFFSET 0 keeps this a
             -- subquery, so json_to_recordset's guess of 100 rows never turns it into a
             -- hash join over the whole enrollment table.
             SELECT e.prospect_id, e.status, e.waiting_node
             FROM enrollment e JOIN prospect p ON p.id = e.prospect_id
             WHERE e.id = i.enrollment_id AND p.merged_into IS NULL AND (i.email IS NULL OR p.email = i.email)
             OFFSET 0) e),
         ins AS (
           INSERT INTO event (id, source, external_id, type, payload, classification, why, applied_at, outcome, prospect_id, enrollment_id)
           SELECT id, source, external_id, type, payload, classification, why, now(), outcome, prospect_id, enrollment_id
           FROM t WHERE NOT waiting ORDER BY ord
           ON CONFLICT (source, external_id) DO NOTHING RETURNING id)
         SELECT ord, prospect_id, waiting, NULL::uuid AS inserted_id FROM t
         UNION ALL SELECT NULL, NULL, NULL, id FROM ins`,
      values: [
        JSON.stringify(
          items.map((i, n) => ({
            ...namedEventRecord(i.id, i.event),
            ord: n + 1,
            outcome: i.outcome,
            edge: i.edge ?? false,
          })),
        ),
      ],
    });
    const inserted = new Set<string>();
    for (const r of rows) if (r.inserted_id) inserted.add(r.inserted_id);
    const found: (InformationalRecord | null)[] = items.map(() => null);
    for (const r of rows) {
      if (r.ord === null) continue;
      const n = r.ord - 1;
      found[n] = r.waiting
        ? { waiting: true }
        : { prospectId: r.prospect_id as string, inserted: inserted.has(items[n]!.id) };
    }
    return found;
  }
}

/** A batch that fails on one bad event (one PostgreSQL refuses) is run again event by event; an outage fails them all. */
const aloneUnlessOutage = (err: unknown) => !databaseOutageOf(err);

/** Per item (by its 1-based ordinal in the batch), the policy texts of one list of its reply condition, as two arrays. */
function policyPairs(
  items: StopItem[],
  list: (reply: ReplyBatchCondition) => string[] | null,
): [number[], string[]] {
  const ords: number[] = [];
  const texts: string[] = [];
  for (const [n, item] of items.entries()) {
    for (const text of (item.reply && list(item.reply)) ?? []) {
      ords.push(n + 1);
      texts.push(text);
    }
  }
  return [ords, texts];
}
