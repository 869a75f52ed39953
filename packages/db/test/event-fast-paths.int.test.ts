import { randomUUID } from 'node:crypto';
import { type CanonicalEvent, touchKey } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDatabase,
  createRepositories,
  type Database,
  EventRepository,
  type Repositories,
} from '../src/index.js';
import { type RepositoryFixture, repositoryFixture, testEvent } from './support/repository-fixture.js';

/**
 * The hot paths of the event log: effect-free events naming our enrollment are
 * recorded together in one statement, and a stopping event naming our enrollment
 * is recorded and applied in one statement. Each must end exactly as the general
 * path ends it: same rows, same answer, once.
 */
describe('event hot paths (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let repos: Repositories;

  beforeAll(async () => {
    fixture = await repositoryFixture('event_fast_paths', 'sdr@fast.example');
  });
  afterAll(async () => {
    await fixture?.close();
  });
  beforeAll(() => {
    ({ db, repos } = fixture);
  });

  /** Enrolls each address in `sequences` sequences (the fixture's first); returns enrollment ids per address. */
  async function enroll(emails: string[], sequences = 1) {
    const prospects = await repos.prospects.upsertMany(emails.map((email) => ({ email })));
    const seqs = [{ id: fixture.sequenceId, versionId: fixture.versionId }];
    // One person in several sequences at once: every one of them opts out of exclusivity.
    if (sequences > 1)
      await repos.sequences.setPolicies(fixture.sequenceId, { contact: { exclusive: false } });
    for (let i = 1; i < sequences; i++) {
      const s = await repos.sequences.create({
        name: `extra ${randomUUID()}`,
        steps: [{ channel: 'email', subject: 'a', body: 'b', wait: '1d' }],
      });
      await repos.sequences.setPolicies(s.id, { contact: { exclusive: false } });
      seqs.push({ id: s.id, versionId: s.version.id });
    }
    // One person in several sequences at once: they opt out of exclusivity explicitly.
    if (sequences > 1) {
      for (const s of seqs) await repos.sequences.setPolicies(s.id, { contact: { exclusive: false } });
    }
    const byProspect = new Map<string, string[]>();
    for (const s of seqs) {
      const r = await repos.enrollments.enroll({
        sequenceId: s.id,
        sequenceVersionId: s.versionId,
        mailboxId: fixture.mailboxId,
        prospectIds: prospects.map((p) => p.id),
        firstTouchAt: () => new Date(),
      });
      for (const e of r.enrolled)
        byProspect.set(e.prospectId, [...(byProspect.get(e.prospectId) ?? []), e.id]);
    }
    return prospects.map((p) => ({ prospectId: p.id, email: p.email, enrollments: byProspect.get(p.id)! }));
  }

  const event = testEvent;

  async function enrollmentRows(ids: string[]) {
    const { rows } = await db.pool.query(
      `SELECT status::text, stop_reason AS "stopReason", next_touch_at AS "nextTouchAt" FROM enrollment
       WHERE id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], id)`,
      [ids],
    );
    return rows;
  }

  it('records effect-free events arriving together once each, every one answered as if alone', async () => {
    const [a, b, other] = await enroll(['a@fast.example', 'b@fast.example', 'other@fast.example']);
    const opened = event({ type: 'opened', enrollmentId: a!.enrollments[0] });
    const results = await Promise.allSettled([
      recordAndApplyEvent(repos.events, opened),
      // The same delivery twice in one batch: recorded once.
      recordAndApplyEvent(repos.events, { ...opened }),
      // Named by enrollment, with an address that is not its prospect's (but is another's).
      recordAndApplyEvent(
        repos.events,
        event({ type: 'clicked', enrollmentId: b!.enrollments[0], email: 'other@fast.example' }),
      ),
      // An enrollment we do not have.
      recordAndApplyEvent(repos.events, event({ type: 'delivered', enrollmentId: randomUUID() })),
      // One PostgreSQL refuses (jsonb holds no NUL character): it fails alone.
      recordAndApplyEvent(
        repos.events,
        event({ type: 'opened', enrollmentId: b!.enrollments[0], data: { ua: 'bad\u0000agent' } }),
      ),
      recordAndApplyEvent(repos.events, event({ type: 'delivered', enrollmentId: b!.enrollments[0] })),
    ]);
    const value = (i: number) => {
      const r = results[i]!;
      if (r.status !== 'fulfilled') throw r.reason;
      return r.value;
    };
    const outcomes = [0, 1, 2, 3, 5].map((i) => ({
      outcome: value(i).outcome,
      duplicate: value(i).duplicate,
      prospectId: value(i).prospectId,
    }));
    expect(new Set([outcomes[0]!.outcome, outcomes[1]!.outcome])).toEqual(
      new Set(['no_effect', 'duplicate']),
    );
    expect(outcomes.slice(2)).toEqual([
      { outcome: 'no_effect', duplicate: false, prospectId: other!.prospectId },
      { outcome: 'unknown_prospect', duplicate: false, prospectId: null },
      { outcome: 'no_effect', duplicate: false, prospectId: b!.prospectId },
    ]);
    expect(results[4]!.status).toBe('rejected');

    const { rows } = await db.pool.query(
      `SELECT type, outcome, prospect_id AS "prospectId", enrollment_id AS "enrollmentId", applied_at IS NOT NULL AS applied
       FROM event WHERE prospect_id = ANY($1::uuid[]) OR (type = 'delivered' AND prospect_id IS NULL) ORDER BY type, outcome`,
      [[a!.prospectId, b!.prospectId, other!.prospectId]],
    );
    expect(rows).toEqual([
      {
        type: 'clicked',
        outcome: 'no_effect',
        prospectId: other!.prospectId,
        enrollmentId: null,
        applied: true,
      },
      {
        type: 'delivered',
        outcome: 'no_effect',
        prospectId: b!.prospectId,
        enrollmentId: b!.enrollments[0],
        applied: true,
      },
      { type: 'delivered', outcome: 'unknown_prospect', prospectId: null, enrollmentId: null, applied: true },
      {
        type: 'opened',
        outcome: 'no_effect',
        prospectId: a!.prospectId,
        enrollmentId: a!.enrollments[0],
        applied: true,
      },
    ]);
  });

  it('a stopping event naming the enrollment ends as the general path ends it', async () => {
    // Twins: one prospect's events name our enrollment (the one-statement path), the
    // other's name only the address (the general path). Both must end alike.
    const [named, addressed] = await enroll(['named@fast.example', 'addressed@fast.example'], 2);
    const run = async (who: typeof named, event: CanonicalEvent) =>
      recordAndApplyEvent(
        repos.events,
        who === named ? { ...event, enrollmentId: named!.enrollments[0] } : { ...event, email: who!.email },
      );
    const snapshot = async (who: typeof named) => {
      const { rows: events } = await db.pool.query(
        `SELECT type, outcome, applied_at IS NOT NULL AS applied, classification FROM event WHERE prospect_id = $1 ORDER BY seq`,
        [who!.prospectId],
      );
      const { rows: suppressed } = await db.pool.query(
        `SELECT reason FROM suppression WHERE kind = 'email' AND value = $1`,
        [who!.email],
      );
      const { rows: prospect } = await db.pool.query(
        'SELECT email_status::text FROM prospect WHERE id = $1',
        [who!.prospectId],
      );
      return { enrollments: await enrollmentRows(who!.enrollments), events, suppressed, prospect };
    };

    const t0 = Date.now();
    for (const who of [named, addressed]) {
      // A hard bounce that happened later arrives first, then the reply that came before it.
      const bounce = event({
        type: 'bounce',
        occurredAt: new Date(t0 + 60_000),
        bounce: { hard: true, status: '5.1.1' },
      });
      const first = await run(who, bounce);
      expect(first.outcome).toBe('applied');
      expect(first.stopped.map((s) => s.id).sort()).toEqual([...who!.enrollments].sort());
      expect(first.stopped.every((s) => s.currentStep === 1 && s.currentAttempt === 1)).toBe(true);
      const again = await run(who, bounce);
      expect(again).toMatchObject({ duplicate: true, outcome: 'duplicate', stopped: [] });
      const reply = await run(
        who,
        event({ type: 'reply', occurredAt: new Date(t0), classification: 'not_interested' }),
      );
      expect(reply).toMatchObject({ outcome: 'applied', stopped: [] });
    }
    const [a, b] = [await snapshot(named), await snapshot(addressed)];
    expect(a).toEqual(b);
    expect(a.enrollments).toEqual([
      { status: 'replied', stopReason: 'reply:not_interested', nextTouchAt: null },
      { status: 'replied', stopReason: 'reply:not_interested', nextTouchAt: null },
    ]);
    expect(a.suppressed).toEqual([{ reason: 'bounce:5.1.1' }]);
    expect(a.prospect).toEqual([{ email_status: 'invalid' }]);
  });

  it('stopping events arriving together share a statement and end as if they came one by one', async () => {
    const [twice, once, other] = await enroll(
      ['twice@fast.example', 'once@fast.example', 'other@batch-fast.example'],
      2,
    );
    const t0 = Date.now();
    const reply = event({ type: 'reply', occurredAt: new Date(t0), enrollmentId: once!.enrollments[0] });
    const results = await Promise.all([
      // Two events of one prospect: the later-happened reply arrives first, the bounce decides.
      recordAndApplyEvent(
        repos.events,
        event({ type: 'reply', occurredAt: new Date(t0 + 1_000), enrollmentId: twice!.enrollments[0] }),
      ),
      recordAndApplyEvent(
        repos.events,
        event({
          type: 'bounce',
          occurredAt: new Date(t0),
          bounce: { hard: true },
          enrollmentId: twice!.enrollments[1],
        }),
      ),
      recordAndApplyEvent(repos.events, reply),
      recordAndApplyEvent(repos.events, { ...reply }),
      recordAndApplyEvent(
        repos.events,
        event({ type: 'complaint', occurredAt: new Date(t0), enrollmentId: other!.enrollments[1] }),
      ),
    ]);
    const ids = (r: (typeof results)[number]) => r.stopped.map((e) => e.id).sort();
    expect(results.map((r) => r.outcome)).toEqual([
      'applied',
      'applied',
      expect.any(String),
      expect.any(String),
      'applied',
    ]);
    expect(ids(results[0]!)).toEqual([...twice!.enrollments].sort());
    expect(results[1]!.stopped).toEqual([]);
    expect(new Set([results[2]!.outcome, results[3]!.outcome])).toEqual(new Set(['applied', 'duplicate']));
    expect([...ids(results[2]!), ...ids(results[3]!)]).toEqual([...once!.enrollments].sort());
    expect(ids(results[4]!)).toEqual([...other!.enrollments].sort());
    expect(results.every((r) => r.inFlight.length === 0)).toBe(true);

    expect((await enrollmentRows(twice!.enrollments)).map((r) => r.status)).toEqual(['bounced', 'bounced']);
    expect((await enrollmentRows(once!.enrollments)).map((r) => r.status)).toEqual(['replied', 'replied']);
    expect((await enrollmentRows(other!.enrollments)).map((r) => r.status)).toEqual([
      'unsubscribed',
      'unsubscribed',
    ]);
    const { rows: suppressed } = await db.pool.query(
      `SELECT value, reason FROM suppression WHERE kind = 'email' AND value = ANY($1::text[]) ORDER BY value`,
      [[twice!.email, once!.email, other!.email]],
    );
    expect(suppressed).toEqual([
      { value: 'other@batch-fast.example', reason: 'complaint' },
      { value: 'twice@fast.example', reason: 'bounce:hard' },
    ]);
    const { rows: events } = await db.pool.query(
      `SELECT count(*)::int AS n FROM event WHERE prospect_id = ANY($1::uuid[]) AND applied_at IS NOT NULL`,
      [[twice!.prospectId, once!.prospectId, other!.prospectId]],
    );
    expect(events[0].n).toBe(4);
  });

  it('a stop arriving while a batch runs waits for more to share its statement (INGEST_STOP_BATCH_HOLD_MS); a lone stop is never held', async () => {
    // A hold of a minute: a stop held when it should not be would time the test out.
    const held = new EventRepository(db.pool, { stopBatchHoldMs: 60_000 });
    const [lone, first, ...later] = await enroll([1, 2, 3, 4].map((n) => `held-${n}@fast.example`));
    const reply = (enrollmentId: string) => event({ type: 'reply', occurredAt: new Date(), enrollmentId });
    // Nothing runs: it goes at once.
    expect((await recordAndApplyEvent(held, reply(lone!.enrollments[0]!))).outcome).toBe('applied');

    // A batch that runs until released: its enrollment is locked by another transaction.
    const blocker = await db.pool.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM enrollment WHERE id = $1 FOR UPDATE', [first!.enrollments[0]]);
    try {
      const running = recordAndApplyEvent(held, reply(first!.enrollments[0]!));
      await waitFor('the first batch to wait for its lock', async () => {
        const { rows } = await db.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows.length > 0;
      });
      // Stops arriving while it runs, over several turns of the loop: a batch slot is
      // free (two may run), yet they are held for more to join.
      const rest: ReturnType<typeof recordAndApplyEvent>[] = [];
      for (const p of later) {
        rest.push(recordAndApplyEvent(held, reply(p.enrollments[0]!)));
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 200));
      expect((await enrollmentRows(later.map((p) => p.enrollments[0]!))).map((r) => r.status)).toEqual([
        'active',
        'active',
      ]);
      await blocker.query('COMMIT');
      // The running batch ends: the held stops go at once (not after the minute), in one statement.
      const results = await Promise.all([running, ...rest]);
      expect(results.map((r) => r.outcome)).toEqual(['applied', 'applied', 'applied']);
    } finally {
      await blocker.query('ROLLBACK').catch(() => {});
      blocker.release();
    }
    expect(
      (await enrollmentRows([lone!, first!, ...later].map((p) => p.enrollments[0]!))).map((r) => r.status),
    ).toEqual(['replied', 'replied', 'replied', 'replied']);
  });

  it('the batched stop is planned once per connection (a generic plan), not again for every batch', async () => {
    // One connection, so pg_prepared_statements shows the session that ran the stops.
    const one = createDatabase(fixture.tdb.url, { poolSize: 1 });
    try {
      const events = createRepositories(one).events;
      const people = await enroll([1, 2, 3, 4, 5, 6].map((n) => `planned-${n}@fast.example`));
      for (const p of people) {
        const r = await recordAndApplyEvent(
          events,
          event({ type: 'reply', occurredAt: new Date(), enrollmentId: p.enrollments[0] }),
        );
        expect(r.outcome).toBe('applied');
      }
      const { rows } = await one.pool.query(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
         WHERE name = 'event-stops-by-enrollment'`,
      );
      // Planning it costs about as much as applying five replies: a custom plan each time
      // (PostgreSQL's choice for it) would be paid by every batch.
      expect(rows).toEqual([{ generic: 6, custom: 0 }]);
    } finally {
      await one.close();
    }
  });

  it('the earliest of two stops arriving at once decides, however they interleave', async () => {
    const people = await enroll(
      Array.from({ length: 20 }, (_, i) => `race${i}@fast.example`),
      2,
    );
    const t0 = Date.now();
    await Promise.all(
      people.flatMap((p, i) => [
        recordAndApplyEvent(
          repos.events,
          event({ type: 'reply', occurredAt: new Date(t0), enrollmentId: p.enrollments[i % 2] }),
        ),
        recordAndApplyEvent(
          repos.events,
          event({
            type: 'bounce',
            occurredAt: new Date(t0 + 1_000),
            bounce: { hard: true },
            enrollmentId: p.enrollments[(i + 1) % 2],
          }),
        ),
      ]),
    );
    const statuses = await enrollmentRows(people.flatMap((p) => p.enrollments));
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(['replied']));
  });

  it('an enrollment that ran out of steps after the reply happened ends replied when the reply comes late', async () => {
    const people = await enroll([
      'late-named@fast.example',
      'late-addressed@fast.example',
      'after@fast.example',
    ]);
    for (const p of people) expect(await repos.touches.exhaust(p.enrollments[0]!, 1)).toBe(true);
    const before = new Date(Date.now() - 60_000);
    const [named, addressed, after] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
    // Recovered after the last wait ran out: one names our enrollment, one only the address.
    await recordAndApplyEvent(
      repos.events,
      event({
        type: 'reply',
        occurredAt: before,
        enrollmentId: named.enrollments[0],
        classification: 'interested',
      }),
    );
    await recordAndApplyEvent(
      repos.events,
      event({ type: 'reply', occurredAt: before, email: addressed.email, classification: 'interested' }),
    );
    // A reply written after the sequence was over leaves it as it ended.
    await recordAndApplyEvent(
      repos.events,
      event({ type: 'reply', occurredAt: new Date(Date.now() + 60_000), enrollmentId: after.enrollments[0] }),
    );
    expect(
      await enrollmentRows([named.enrollments[0]!, addressed.enrollments[0]!, after.enrollments[0]!]),
    ).toEqual([
      { status: 'replied', stopReason: 'reply:interested', nextTouchAt: null },
      { status: 'replied', stopReason: 'reply:interested', nextTouchAt: null },
      { status: 'exhausted', stopReason: 'exhausted', nextTouchAt: null },
    ]);
  });
  it('an open naming an enrollment waiting after a node takes its edge; one naming an enrollment that waits after none is recorded once in the shared statement', async () => {
    const graph = {
      nodes: [
        { id: 'first', action: 'email' as const, subject: 'Hello', body: 'First' },
        { id: 'opened-path', action: 'email' as const, subject: 'x', body: 'You opened it' },
        { id: 'timeout-path', action: 'email' as const, subject: 'x', body: 'No answer yet' },
        { id: 'end', action: 'end' as const },
      ],
      edges: [
        { from: 'first', to: 'opened-path', trigger: 'opened' as const },
        { from: 'first', to: 'timeout-path', trigger: 'no_reply' as const, wait: '1d' },
        { from: 'opened-path', to: 'end', trigger: 'always' as const, wait: '300d' },
        { from: 'timeout-path', to: 'end', trigger: 'always' as const, wait: '300d' },
      ],
    };
    const seq = await repos.sequences.create({ name: `graph ${randomUUID()}`, graph });
    const [waiter, linear] = await repos.prospects.upsertMany([
      { email: 'waiter@fast.example' },
      { email: 'linear@fast.example' },
    ]);
    const inGraph = await repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId: fixture.mailboxId,
      prospectIds: [waiter!.id],
      firstTouchAt: () => new Date(),
    });
    const graphEnrollment = inGraph.enrolled[0]!.id;
    // The first e-mail went out: the enrollment waits after node 1, its timeout (node 3) pending.
    await db.pool.query('UPDATE enrollment SET waiting_node = 1, current_step = 3 WHERE id = $1', [
      graphEnrollment,
    ]);
    const [linearEnrollment] = (await enroll([linear!.email]))[0]!.enrollments;

    const openGraph = event({ type: 'opened', enrollmentId: graphEnrollment });
    const openLinear = event({ type: 'opened', enrollmentId: linearEnrollment });
    const [g, l, lAgain] = await Promise.all([
      recordAndApplyEvent(repos.events, openGraph),
      recordAndApplyEvent(repos.events, openLinear),
      recordAndApplyEvent(repos.events, { ...openLinear }),
    ]);
    expect(g).toMatchObject({ outcome: 'edge_taken', duplicate: false, prospectId: waiter!.id });
    expect(g.moved.map((m) => [m.id, m.from.step, m.to.step])).toEqual([[graphEnrollment, 3, 2]]);
    expect(new Set([l.outcome, lAgain.outcome])).toEqual(new Set(['no_effect', 'duplicate']));
    expect(await recordAndApplyEvent(repos.events, { ...openGraph })).toMatchObject({ duplicate: true });

    const { rows } = await db.pool.query(
      `SELECT enrollment_id AS "enrollmentId", outcome, applied_at IS NOT NULL AS applied FROM event
       WHERE external_id = ANY($1::text[]) ORDER BY outcome`,
      [[openGraph.externalId, openLinear.externalId]],
    );
    expect(rows).toEqual([
      { enrollmentId: graphEnrollment, outcome: 'edge_taken', applied: true },
      { enrollmentId: linearEnrollment, outcome: 'no_effect', applied: true },
    ]);
    const { rows: moved } = await db.pool.query(
      'SELECT current_step AS "currentStep", waiting_node AS "waitingNode" FROM enrollment WHERE id = $1',
      [graphEnrollment],
    );
    expect(moved).toEqual([{ currentStep: 2, waitingNode: null }]);
  });

  describe('a reply to a graph node with a replied edge', () => {
    const graph = {
      nodes: [
        { id: 'first', action: 'email' as const, subject: 'Hello', body: 'First' },
        { id: 'thanks', action: 'email' as const, subject: 'x', body: 'Thanks' },
        { id: 'followup', action: 'email' as const, subject: 'x', body: 'Any thoughts?' },
        { id: 'end', action: 'end' as const },
      ],
      edges: [
        { from: 'first', to: 'thanks', trigger: 'replied' as const },
        { from: 'first', to: 'followup', trigger: 'no_reply' as const, wait: '1d' },
        { from: 'thanks', to: 'end', trigger: 'always' as const, wait: '1d' },
        { from: 'followup', to: 'end', trigger: 'no_reply' as const, wait: '1d' },
      ],
    };

    /** One person enrolled in a graph sequence with these policies, `first` due now. */
    async function enrolledAtFirst(email: string, policies: unknown = {}) {
      const s = await repos.sequences.create({ name: `graph ${randomUUID()}`, graph });
      await repos.sequences.setPolicies(s.id, policies);
      const [p] = await repos.prospects.upsertMany([{ email }]);
      const r = await repos.enrollments.enroll({
        sequenceId: s.id,
        sequenceVersionId: s.version.id,
        mailboxId: fixture.mailboxId,
        prospectIds: [p!.id],
        firstTouchAt: () => new Date(),
      });
      return r.enrolled[0]!.id;
    }

    /** The same, waiting after `first` for the follow-up's timeout. */
    async function waitingAfterFirst(email: string, policies: unknown = {}) {
      const id = await enrolledAtFirst(email, policies);
      // As the sender leaves it once `first` was sent: its timeout's touch (node 3) pending.
      await db.pool.query(
        `UPDATE enrollment SET waiting_node = 1, current_step = 3, current_attempt = 1,
           next_touch_at = now() + interval '1 day' WHERE id = $1`,
        [id],
      );
      return id;
    }
    const position = async (id: string) =>
      (
        await db.pool.query(
          `SELECT status::text, current_step AS "currentStep", waiting_node AS "waitingNode" FROM enrollment WHERE id = $1`,
          [id],
        )
      ).rows[0];

    it('a reply naming the enrollment leaves the batched stop and takes the edge (reply actions off)', async () => {
      const id = await waitingAfterFirst('graph-batched@fast.example');
      const r = await recordAndApplyEvent(
        repos.events,
        event({ type: 'reply', enrollmentId: id, classification: 'interested' }),
      );
      expect(r.outcome).toBe('edge_taken');
      expect(r.stopped).toEqual([]);
      expect(r.moved).toEqual([
        { id, from: { step: 3, attempt: 1 }, to: expect.objectContaining({ step: 2, attempt: 1 }) },
      ]);
      expect(await position(id)).toEqual({ status: 'active', currentStep: 2, waitingNode: null });
      const { rows } = await db.pool.query(
        `SELECT data->>'trigger' AS trigger, data->>'to' AS "to" FROM audit_log
         WHERE entity_id = $1 AND action = 'enrollment.edge_taken'`,
        [id],
      );
      expect(rows).toEqual([{ trigger: 'replied', to: 'thanks' }]);
    });

    it("a reply while the node's own send is in flight takes that node's edge; the send's record then does not advance it", async () => {
      const email = 'graph-inflight@fast.example';
      const id = await enrolledAtFirst(email);
      // The sender claimed `first` (the reply fence): its touch is being handed to the provider.
      expect((await repos.touches.claim(id, 1, touchKey(id, 1), email)).kind).toBe('claimed');
      const applied = await recordAndApplyEvent(
        repos.events,
        event({ type: 'reply', enrollmentId: id, classification: 'interested' }),
        { replyActions: true },
      );
      expect(applied.outcome).toBe('edge_taken');
      expect(applied.stopped).toEqual([]);
      expect(applied.moved).toEqual([
        { id, from: { step: 1, attempt: 1 }, to: expect.objectContaining({ step: 2, attempt: 1 }) },
      ]);
      expect(await position(id)).toEqual({ status: 'active', currentStep: 2, waitingNode: null });
      // The provider accepted `first`; its record finds the enrollment moved on: the touch is
      // recorded, the enrollment is not sent along `first`'s timeout.
      const advanced = await repos.touches.recordSent({
        enrollmentId: id,
        step: 1,
        messageId: '<first@fast.example>',
        conversationId: 'c',
        nextTouchAt: new Date(Date.now() + 86_400_000),
        nextStep: 3,
      });
      expect(advanced).toBe(false);
      expect(await position(id)).toEqual({ status: 'active', currentStep: 2, waitingNode: null });
      const { rows } = await db.pool.query(
        `SELECT data->>'from' AS "from", data->>'to' AS "to", data->>'duringSend' AS during FROM audit_log
         WHERE entity_id = $1 AND action = 'enrollment.edge_taken'`,
        [id],
      );
      expect(rows).toEqual([{ from: 'first', to: 'thanks', during: 'true' }]);
    });

    it("a pause a reply lifts (a colleague's reply) takes the edge, active again; an operator's pause ends", async () => {
      const paused = async (email: string, reason: string) => {
        const id = await waitingAfterFirst(email);
        await db.pool.query(`UPDATE enrollment SET status = 'paused', stop_reason = $2 WHERE id = $1`, [
          id,
          reason,
        ]);
        return id;
      };
      const byColleague = await paused('graph-colleague@fast.example', 'company_reply');
      const r = await recordAndApplyEvent(
        repos.events,
        event({ type: 'reply', enrollmentId: byColleague, classification: 'interested' }),
        { replyActions: true },
      );
      expect(r.outcome).toBe('edge_taken');
      expect(await position(byColleague)).toEqual({ status: 'active', currentStep: 2, waitingNode: null });
      const { rows } = await db.pool.query(
        `SELECT stop_reason AS "stopReason" FROM enrollment WHERE id = $1`,
        [byColleague],
      );
      expect(rows).toEqual([{ stopReason: null }]);

      const byOperator = await paused('graph-operator@fast.example', 'manual_pause');
      const ended = await recordAndApplyEvent(
        repos.events,
        event({ type: 'reply', enrollmentId: byOperator, classification: 'interested' }),
        { replyActions: true },
      );
      expect(ended.outcome).toBe('applied');
      expect(await position(byOperator)).toMatchObject({ status: 'replied', currentStep: 3 });
    });

    it('an unsubscribe and an auto-reply class never take it; a class the sequence goes on after stays on its track', async () => {
      const unsub = await waitingAfterFirst('graph-unsub@fast.example');
      await recordAndApplyEvent(repos.events, event({ type: 'unsubscribe', enrollmentId: unsub }));
      expect(await position(unsub)).toMatchObject({ status: 'unsubscribed', currentStep: 3 });

      const auto = await waitingAfterFirst('graph-auto@fast.example');
      await recordAndApplyEvent(
        repos.events,
        event({ type: 'reply', enrollmentId: auto, classification: 'out_of_office' }),
        { replyActions: true },
      );
      expect(await position(auto)).toMatchObject({ status: 'replied', currentStep: 3 });

      const goesOn = await waitingAfterFirst('graph-on@fast.example', {
        replyActions: { stopOnReply: false, continueOn: ['neutral'] },
      });
      const r = await recordAndApplyEvent(
        repos.events,
        event({ type: 'reply', enrollmentId: goesOn, classification: 'neutral' }),
        { replyActions: true },
      );
      expect(r.outcome).toBe('applied');
      expect(await position(goesOn)).toEqual({ status: 'active', currentStep: 3, waitingNode: 1 });
    });
  });
});
