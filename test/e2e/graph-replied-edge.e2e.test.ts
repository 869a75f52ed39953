import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { fireAroundTimeouts, firstTouchesSent } from './edge-race-support.js';
import { createMailbox, enroll, importProspects, postHttp, WEBHOOK_ENV } from './ingest-support.js';

/** TIME_SCALE of this test: a day lasts 3 s, so the 1-day timeout falls due 3 s after the first e-mail. */
const TIME_SCALE = 28_800;
const DAY_MS = 86_400_000 / TIME_SCALE;
/** Sized for a shared 2-core machine; every enrollment races its own reply against its own timeout. */
const N = 150;
/** Replies the sandbox pushes as the first e-mail is delivered. */
const IN_FLIGHT = 60;

/**
 * "If replied → go to X": a reply to the first e-mail takes the `replied` edge to a
 * thank-you e-mail, then a manual task (a call); without one, the `no_reply`
 * timeout after `timeout` takes the enrollment to the follow-up instead.
 */
const graphOf = (timeout: string) => ({
  nodes: [
    { id: 'first', action: 'email', subject: 'Hello {{firstName}}', body: 'First' },
    { id: 'thanks', action: 'email', subject: 'x', body: 'Thanks for your answer' },
    { id: 'call', action: 'manual_task', title: 'Call {{firstName}}' },
    { id: 'followup', action: 'email', subject: 'x', body: 'Any thoughts?' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'first', to: 'thanks', trigger: 'replied' },
    { from: 'first', to: 'followup', trigger: 'no_reply', wait: timeout },
    { from: 'thanks', to: 'call', trigger: 'always', wait: '1d' },
    { from: 'call', to: 'end', trigger: 'always', wait: '1d' },
    { from: 'followup', to: 'end', trigger: 'no_reply', wait: '1d' },
  ],
});
const STEP = { first: 1, thanks: 2, call: 3, followup: 4 } as const;

/**
 * The `replied` edge on the sandbox (docs/architecture.md#sequences-as-graphs): a
 * person's reply, by e-mail or on LinkedIn, moves the enrollment to the edge's node
 * at once instead of ending it, and the old track never sends again; an
 * unsubscribe and an out-of-office keep their own actions; and a reply racing the
 * node's timeout takes exactly one of the two edges.
 */
describe('graph sequence: the replied edge (whole system)', () => {
  let sys: TestSystem;
  let mailboxId: string;

  beforeAll(async () => {
    sys = await startTestSystem('graph_replied', {
      ...WEBHOOK_ENV,
      TIME_SCALE: String(TIME_SCALE),
      SENDER_CONCURRENCY: '50',
    });
    mailboxId = await createMailbox(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function sequence(name: string, timeout: string): Promise<string> {
    const seq = await sys.api('POST', '/v1/sequences', { name, graph: graphOf(timeout) });
    expect(seq.status).toBe(201);
    return seq.body.id;
  }
  const touches = async (enrollmentId: string) =>
    (
      await sys.rt.db.pool.query<{ step: number; status: string }>(
        'SELECT step, status::text FROM touch WHERE enrollment_id = $1 ORDER BY created_at',
        [enrollmentId],
      )
    ).rows;
  const status = async (enrollmentId: string) =>
    (
      await sys.rt.db.pool.query<{ status: string; stop_reason: string | null }>(
        'SELECT status::text, stop_reason FROM enrollment WHERE id = $1',
        [enrollmentId],
      )
    ).rows[0]!;
  const firstSent = (enrollmentId: string) =>
    waitFor(
      'the first e-mail sent',
      async () =>
        (await touches(enrollmentId)).some((t) => t.step === 1 && t.status === 'sent') ? true : null,
      { timeoutMs: 60_000 },
    );

  /** Waits until half a day past the first e-mail's timeout (`days` after it was sent). */
  async function pastTheTimeout(enrollmentId: string, days = 4): Promise<void> {
    const { rows } = await sys.rt.db.pool.query<{ at: Date }>(
      'SELECT sent_at AS at FROM touch WHERE enrollment_id = $1 AND step = 1',
      [enrollmentId],
    );
    const wait = rows[0]!.at.getTime() + (days + 0.5) * DAY_MS - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }

  describe('one person each', () => {
    const people = {
      emailReply: { email: 'ann@ann.replied.example' },
      linkedinReply: {
        email: 'ben@ben.replied.example',
        linkedinUrl: 'https://www.linkedin.com/in/ben-replied/',
      },
      unsubscribes: { email: 'cat@cat.replied.example' },
      outOfOffice: { email: 'dan@dan.replied.example' },
      backFromOffice: { email: 'eve@eve.replied.example' },
      operatorPaused: { email: 'fay@fay.replied.example' },
    };
    type Who = keyof typeof people;

    /**
     * The person enrolled now, in a sequence of their own (exclusive by default), so
     * each case acts on the first e-mail's node well before its 4-day (12 s) timeout.
     */
    async function enrollNow(who: Who): Promise<string> {
      const sequenceId = await sequence(`replied edge ${who}`, '4d');
      const ids = await importProspects(sys, [people[who]]);
      const [e] = await enroll(sys, sequenceId, mailboxId, ids);
      return e!.id;
    }

    it('a LinkedIn reply while the e-mail waits takes the edge too', async () => {
      const e = await enrollNow('linkedinReply');
      await firstSent(e);
      const res = await postHttp(sys, `li-reply-${e}`, {
        type: 'reply',
        channel: 'linkedin',
        occurred_at: new Date().toISOString(),
        linkedin_url: people.linkedinReply.linkedinUrl,
        text: 'Happy to chat, what do you have in mind?',
      });
      expect(res.status).toBe(200);
      await waitFor(
        'the thank-you e-mail sent',
        async () =>
          (await touches(e)).some((t) => t.step === STEP.thanks && t.status === 'sent') ? true : null,
        { timeoutMs: 60_000 },
      );
      expect((await status(e)).status).toBe('active');
      expect((await touches(e)).map((t) => t.step)).not.toContain(STEP.followup);
    }, 120_000);

    it('an unsubscribe on the same node still ends and suppresses: nothing more is sent', async () => {
      const e = await enrollNow('unsubscribes');
      await firstSent(e);
      const res = await postHttp(sys, `unsub-${e}`, {
        type: 'unsubscribe',
        occurred_at: new Date().toISOString(),
        enrollment_id: e,
        email: people.unsubscribes.email,
      });
      expect(res.status).toBe(200);
      expect(await status(e)).toMatchObject({ status: 'unsubscribed' });
      const { rowCount } = await sys.rt.db.pool.query(
        `SELECT 1 FROM suppression WHERE kind = 'email' AND value = $1`,
        [people.unsubscribes.email],
      );
      expect(rowCount).toBe(1);
      // Past the 4-day timeout: neither edge ran.
      await pastTheTimeout(e);
      expect((await touches(e)).map((t) => t.step)).toEqual([STEP.first]);
    }, 120_000);

    /** The person's e-mail reply to their enrollment, through ingest's webhook. */
    async function replies(who: Who, e: string, text: string): Promise<void> {
      const res = await postHttp(sys, `${who}-reply-${e}`, {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        enrollment_id: e,
        email: people[who].email,
        text,
      });
      expect(res.status).toBe(200);
    }

    /** The person enrolled now; the sandbox answers the first e-mail with an out-of-office, which pauses it. */
    async function pausedByOutOfOffice(who: Who): Promise<string> {
      sys.sandbox.script(people[who].email, 'out_of_office', 1, 'I am out of the office until Monday.', 1);
      const e = await enrollNow(who);
      await waitFor(
        'paused by the out-of-office',
        async () => ((await status(e)).status === 'paused' ? true : null),
        { timeoutMs: 60_000 },
      );
      return e;
    }

    it('an out-of-office pauses, as before: no edge taken', async () => {
      const e = await pausedByOutOfOffice('outOfOffice');
      expect(await status(e)).toEqual({ status: 'paused', stop_reason: 'out_of_office' });
      expect((await touches(e)).map((t) => t.step)).toEqual([STEP.first]);
    }, 120_000);

    it('an out-of-office, then "interested": the pause lifts and the enrollment takes the edge', async () => {
      const e = await pausedByOutOfOffice('backFromOffice');
      // Back at work, the person answers.
      await replies('backFromOffice', e, "Back now. Sounds interesting, I'd love to learn more.");
      await waitFor(
        'the thank-you e-mail sent',
        async () =>
          (await touches(e)).some((t) => t.step === STEP.thanks && t.status === 'sent') ? true : null,
        { timeoutMs: 60_000 },
      );
      expect(await status(e)).toEqual({ status: 'active', stop_reason: null });
      const { rows: events } = await sys.rt.db.pool.query<{ outcome: string; classification: string }>(
        `SELECT outcome, classification FROM event WHERE enrollment_id = $1 AND type = 'reply'`,
        [e],
      );
      expect(events).toEqual([{ outcome: 'edge_taken', classification: 'interested' }]);
      const { rows: audit } = await sys.rt.db.pool.query<{ data: Record<string, unknown> }>(
        `SELECT data FROM audit_log WHERE entity_id = $1 AND action = 'enrollment.edge_taken'`,
        [e],
      );
      expect(audit.map((a) => a.data)).toEqual([
        expect.objectContaining({
          trigger: 'replied',
          from: 'first',
          to: 'thanks',
          resumedFrom: 'out_of_office',
        }),
      ]);
      expect((await touches(e)).map((t) => t.step)).not.toContain(STEP.followup);
    }, 120_000);

    it("an operator's pause is not lifted by a reply: the enrollment ends, as before", async () => {
      const e = await enrollNow('operatorPaused');
      await firstSent(e);
      const paused = await sys.api('POST', `/v1/enrollments/${e}/pause`, { reason: 'checking the account' });
      expect(paused.status).toBe(200);
      await replies('operatorPaused', e, "Sounds interesting, I'd love to learn more.");
      expect((await status(e)).status).toBe('replied');
      const { rows: events } = await sys.rt.db.pool.query<{ outcome: string }>(
        `SELECT outcome FROM event WHERE enrollment_id = $1 AND type = 'reply'`,
        [e],
      );
      expect(events).toEqual([{ outcome: 'applied' }]);
      expect((await touches(e)).map((t) => t.step)).toEqual([STEP.first]);
    }, 120_000);

    it('an e-mail reply takes the edge: the thank-you e-mail and the call run, the follow-up never', async () => {
      const e = await enrollNow('emailReply');
      await firstSent(e);
      // The provider knows of the reply too, as a real one would: its pre-send re-check
      // says "replied" before the thank-you e-mail, which must still go out.
      (sys.sandbox as unknown as { known: Map<string, string> }).known.set(
        people.emailReply.email,
        'replied',
      );
      await replies('emailReply', e, "Sounds interesting, I'd love to learn more.\nKim");
      await waitFor(
        'the edge taken and run to its end',
        async () => ((await status(e)).status === 'exhausted' ? true : null),
        { timeoutMs: 60_000 },
      );
      // Past the first e-mail's 4-day timeout: the old track sent nothing.
      await pastTheTimeout(e);
      expect((await touches(e)).map((t) => [t.step, t.status])).toEqual([
        [STEP.first, 'sent'],
        [STEP.thanks, 'sent'],
        [STEP.call, 'sent'],
      ]);
      const mails = sys.sandbox.deliveries().filter((d) => d.enrollmentId === e);
      expect(mails.map((d) => d.body)).toEqual(['First', 'Thanks for your answer']);
      const { rows: events } = await sys.rt.db.pool.query<{ outcome: string; classification: string }>(
        `SELECT outcome, classification FROM event WHERE enrollment_id = $1 AND type = 'reply'`,
        [e],
      );
      expect(events).toEqual([{ outcome: 'edge_taken', classification: 'interested' }]);
      expect(sys.sandbox.prospectStatus(people.emailReply.email)).toBe('replied');
      // The reply's other effects still apply: an interested reply notifies.
      const { rowCount } = await sys.rt.db.pool.query(
        `SELECT 1 FROM alert WHERE kind = 'reply.received' AND data->>'enrollmentId' = $1`,
        [e],
      );
      expect(rowCount).toBe(1);
      const timeline = await sys.api('GET', `/v1/enrollments/${e}/timeline`);
      expect(timeline.status).toBe(200);
      expect(timeline.body.touches.map((x: { node: string; edge: unknown }) => [x.node, x.edge])).toEqual([
        ['first', null],
        ['thanks', { from: 'first', trigger: 'replied', wait: '0s' }],
        ['call', { from: 'thanks', trigger: 'always', wait: '1d' }],
      ]);
      expect(timeline.body.audit).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            action: 'enrollment.edge_taken',
            data: expect.objectContaining({
              trigger: 'replied',
              from: 'first',
              to: 'thanks',
              instead: 'followup',
            }),
          }),
        ]),
      );
    }, 120_000);
  });

  it(`${IN_FLIGHT} replies pushed as the first e-mail is delivered (its send in flight or just recorded) all take the edge`, async () => {
    // The node's no-reply timeout is far beyond the test (3,000 days, 2.5 hours here): the
    // race under test is the reply against the send's record, never against the timeout.
    // With the 4-day (12 s) timeout a loaded CI machine (load 22) delivered most replies
    // after it: those enrollments had moved to the follow-up, where a reply ends them
    // (12 of 60 took the edge).
    const sequenceId = await sequence('replied during send', '3000d');
    // One company each: an interested reply would otherwise pause the colleagues (company-level stop).
    const emails = Array.from({ length: IN_FLIGHT }, (_, i) => `during@during-${i}.example`);
    // The sandbox answers each first e-mail at once, as it is delivered: the webhook races
    // the send's record. On a loaded machine the record usually wins (the reply then finds
    // the node recorded); the interleaving where the reply wins is pinned down step by step
    // in packages/db/test/event-fast-paths.int.test.ts. Either way: the edge, once.
    for (const email of emails)
      sys.sandbox.script(email, 'reply', 1, "Sounds interesting, I'd love to learn more.");
    const ids = await importProspects(
      sys,
      emails.map((email) => ({ email })),
    );
    const enrolled = await enroll(sys, sequenceId, mailboxId, ids);
    expect(enrolled).toHaveLength(IN_FLIGHT);
    const rows = await waitFor(
      'every thank-you e-mail sent',
      async () => {
        const { rows } = await sys.rt.db.pool.query<{ eid: string; status: string; steps: number[] }>(
          `SELECT e.id AS eid, e.status::text,
             ARRAY(SELECT t.step FROM touch t WHERE t.enrollment_id = e.id AND t.status = 'sent' ORDER BY t.step) AS steps
           FROM enrollment e WHERE e.sequence_id = $1`,
          [sequenceId],
        );
        // Each took the edge (its thank-you sent) or ended on its reply (counted below as a failure).
        return rows.length === IN_FLIGHT &&
          rows.every((r) => r.steps.includes(STEP.thanks) || r.status === 'replied')
          ? rows
          : null;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const { rows: audit } = await sys.rt.db.pool.query<{ during: boolean }>(
      `SELECT (a.data->>'duringSend') IS NOT NULL AS during FROM audit_log a
       JOIN enrollment e ON e.id::text = a.entity_id
       WHERE e.sequence_id = $1 AND a.action = 'enrollment.edge_taken' AND a.data->>'trigger' = 'replied'`,
      [sequenceId],
    );
    const keys = sys.sandbox
      .deliveries()
      .filter((d) => enrolled.some((e) => e.id === d.enrollmentId))
      .map((d) => d.idempotencyKey);
    const { rows: lag } = await sys.rt.db.pool.query<{ eid: string; received_at: Date }>(
      `SELECT ev.enrollment_id AS eid, ev.received_at FROM event ev JOIN enrollment e ON e.id = ev.enrollment_id
       WHERE e.sequence_id = $1 AND ev.type = 'reply'`,
      [sequenceId],
    );
    const deliveredAt = new Map(
      sys.sandbox
        .deliveries()
        .filter((d) => d.step === STEP.first)
        .map((d) => [d.enrollmentId, Date.parse(d.at)]),
    );
    const report = {
      enrollments: IN_FLIGHT,
      // From the first e-mail's delivery to ingest's record of its reply: how far the
      // machine's load stretched the race (it decides nothing here).
      slowestReplyMs: Math.max(...lag.map((r) => r.received_at.getTime() - deliveredAt.get(r.eid)!)),
      tookTheEdge: audit.length,
      duringTheSend: audit.filter((a) => a.during).length,
      ended: rows.filter((r) => r.status === 'replied').length,
      followUps: rows.filter((r) => r.steps.includes(STEP.followup)).length,
      deliveredTwice: keys.length - new Set(keys).size,
    };
    console.info('replied edge during the send', report);
    // Whether the reply came during the send or after its record, it took the edge, once.
    expect(report.tookTheEdge).toBe(IN_FLIGHT);
    expect(report.ended).toBe(0);
    expect(report.followUps).toBe(0);
    expect(report.deliveredTwice).toBe(0);
    const { rows: events } = await sys.rt.db.pool.query<{ outcome: string }>(
      `SELECT ev.outcome FROM event ev JOIN enrollment e ON e.id = ev.enrollment_id
       WHERE e.sequence_id = $1 AND ev.type = 'reply'`,
      [sequenceId],
    );
    expect(events.map((e) => e.outcome)).toEqual(Array(IN_FLIGHT).fill('edge_taken'));
  }, 180_000);

  it(`${N} replies racing ${N} timeouts: never both edges, nothing of the old track after the reply`, async () => {
    const sequenceId = await sequence('replied race', '1d');
    const emails = Array.from({ length: N }, (_, i) => `race-${i}@race-${i}.replied.example`);
    const ids = await importProspects(
      sys,
      emails.map((email) => ({ email })),
    );
    const enrolled = await enroll(sys, sequenceId, mailboxId, ids);
    expect(enrolled).toHaveLength(N);
    const emailOf = new Map(enrolled.map((e) => [e.id, emails[ids.indexOf(e.prospectId)]!]));

    const first = await waitFor('every first e-mail sent', () => firstTouchesSent(sys, sequenceId, N), {
      timeoutMs: 60_000,
      intervalMs: 100,
    });

    // Each reply fires around its own timeout.
    const { fireAt, ackAt } = await fireAroundTimeouts(first, DAY_MS, 16, async (r) => {
      const res = await postHttp(sys, `race-reply-${r.eid}`, {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        enrollment_id: r.eid,
        email: emailOf.get(r.eid),
        text: 'Not interested, thanks.',
      });
      expect(res.status).toBe(200);
    });

    const { rows: events } = await sys.rt.db.pool.query<{ eid: string; outcome: string }>(
      `SELECT enrollment_id AS eid, outcome FROM event WHERE source = 'http' AND type = 'reply'
       AND enrollment_id = ANY($1::uuid[])`,
      [[...fireAt.keys()]],
    );
    expect(events).toHaveLength(N);
    const outcome = new Map(events.map((e) => [e.eid, e.outcome]));
    const tookEdge = [...outcome].filter(([, o]) => o === 'edge_taken').map(([eid]) => eid);
    // Every edge taken runs its node; every reply too late for it ends the enrollment,
    // unless the enrollment had already run out of steps when the reply happened: on a
    // loaded machine a reply meant for around the timeout can go out seconds late (the
    // system runs in this process), past the follow-up's own timeout (a day, 3 s), and a
    // reply after the end leaves the enrollment exhausted (only one that happened before
    // it restates it `replied`: the earliest stopping event decides).
    type Row = {
      eid: string;
      status: string;
      updated_at: Date;
      step: number;
      thanks: boolean;
      occurred_at: Date;
    };
    const done = (r: Row) =>
      outcome.get(r.eid) === 'edge_taken'
        ? r.thanks
        : r.status === 'replied' || (r.status === 'exhausted' && r.updated_at <= r.occurred_at);
    const settled = async () =>
      (
        await sys.rt.db.pool.query<Row>(
          `SELECT e.id AS eid, e.status::text, e.updated_at, e.current_step AS step,
             EXISTS (SELECT 1 FROM touch t WHERE t.enrollment_id = e.id AND t.step = 2 AND t.status = 'sent') AS thanks,
             (SELECT (ev.payload->>'occurredAt')::timestamptz FROM event ev
              WHERE ev.enrollment_id = e.id AND ev.source = 'http' AND ev.type = 'reply') AS occurred_at
           FROM enrollment e WHERE e.sequence_id = $1`,
          [sequenceId],
        )
      ).rows;
    const rows = await waitFor(
      'each replied edge run, each late reply ended',
      async () => {
        const rows = await settled();
        return rows.every(done) ? rows : null;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    ).catch(async (err: Error) => {
      // Name what is left: the state of each enrollment not settled, and its touches.
      const left = (await settled()).filter((r) => !done(r));
      const { rows: touches } = await sys.rt.db.pool.query<{ eid: string; step: number; status: string }>(
        'SELECT enrollment_id AS eid, step, status::text FROM touch WHERE enrollment_id = ANY($1::uuid[]) ORDER BY created_at',
        [left.map((r) => r.eid)],
      );
      const detail = left.slice(0, 10).map((r) => ({
        ...r,
        outcome: outcome.get(r.eid),
        touches: touches.filter((t) => t.eid === r.eid).map((t) => `${t.step}:${t.status}`),
      }));
      throw new Error(`${err.message}: ${left.length} left, e.g. ${JSON.stringify(detail)}`);
    });
    const endedBefore = rows.filter((r) => outcome.get(r.eid) !== 'edge_taken' && r.status === 'exhausted');
    // A day on: past every follow-up's due time, so a surviving job of the old track would have run.
    await new Promise((r) => setTimeout(r, DAY_MS));

    const { rows: all } = await sys.rt.db.pool.query<{ eid: string; step: number; created_at: Date }>(
      `SELECT t.enrollment_id AS eid, t.step, t.created_at FROM touch t
       JOIN enrollment e ON e.id = t.enrollment_id WHERE e.sequence_id = $1 AND t.step > 1`,
      [sequenceId],
    );
    const byEnrollment = new Map<string, { step: number; created_at: Date }[]>();
    for (const t of all) byEnrollment.set(t.eid, [...(byEnrollment.get(t.eid) ?? []), t]);
    const bothEdges: string[] = [];
    const afterAck: string[] = [];
    for (const { eid } of first) {
      const later = byEnrollment.get(eid) ?? [];
      const steps = new Set(later.map((t) => t.step));
      if (steps.has(STEP.followup) && (steps.has(STEP.thanks) || steps.has(STEP.call))) bothEdges.push(eid);
      if (outcome.get(eid) === 'edge_taken') {
        if (steps.has(STEP.followup) || !steps.has(STEP.thanks)) bothEdges.push(eid);
      } else {
        expect(outcome.get(eid)).toBe('applied');
        // Too late for the edge: the timeout's touch was claimed before the reply's commit, or none was.
        for (const t of later) if (t.created_at.getTime() > ackAt.get(eid)!) afterAck.push(eid);
      }
    }
    const deliveries = sys.sandbox.deliveries().filter((d) => fireAt.has(d.enrollmentId));
    const keys = deliveries.map((d) => d.idempotencyKey);
    const report = {
      enrollments: N,
      replyTookTheEdge: tookEdge.length,
      timeoutWonTheRace: N - tookEdge.length,
      repliedAfterTheEnd: endedBefore.length,
      // How late the replies were acknowledged after their planned time (a loaded machine
      // delays them past the timeout; seconds late, the reply never wins the race).
      medianAckLateMs: [...fireAt].map(([eid, at]) => ackAt.get(eid)! - at).sort((a, b) => a - b)[N >> 1]!,
      bothEdges: bothEdges.length,
      sentAfterTheAck: afterAck.length,
      deliveredTwice: keys.length - new Set(keys).size,
    };
    console.info('replied edge race', report);
    expect(bothEdges).toEqual([]);
    expect(afterAck).toEqual([]);
    expect(report.deliveredTwice).toBe(0);
    // The race was real: both edges won some.
    expect(report.replyTookTheEdge).toBeGreaterThan(0);
    expect(report.timeoutWonTheRace).toBeGreaterThan(0);
  }, 240_000);
});
