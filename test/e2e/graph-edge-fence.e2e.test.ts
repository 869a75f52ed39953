import { signTrackingToken } from '@touchbase/core';
import { freePort, waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { fireAroundTimeouts, firstTouchesSent } from './edge-race-support.js';
import { createMailbox, enroll, importProspects } from './ingest-support.js';

/** Sized for a shared 2-core machine; every enrollment races its own event against its own timeout. */
const N = 300;
const SECRET = 'graph-edge-fence-tracking-secret';
/** TIME_SCALE of this test: a day lasts 3 s, so the 1-day timeout falls due 3 s after the first e-mail. */
const TIME_SCALE = 28_800;
const DAY_MS = 86_400_000 / TIME_SCALE;

/**
 * An open of the first e-mail takes the `opened` edge (node 2); without it, the
 * `no_reply` timeout after a day takes the enrollment to node 3.
 */
const GRAPH = {
  nodes: [
    { id: 'first', action: 'email', subject: 'Hello {{firstName}}', body: 'First' },
    { id: 'opened-path', action: 'email', subject: 'x', body: 'You opened it' },
    { id: 'timeout-path', action: 'email', subject: 'x', body: 'No answer yet' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'first', to: 'opened-path', trigger: 'opened' },
    { from: 'first', to: 'timeout-path', trigger: 'no_reply', wait: '1d' },
    { from: 'opened-path', to: 'end', trigger: 'always', wait: '300d' },
    { from: 'timeout-path', to: 'end', trigger: 'always', wait: '300d' },
  ],
};

/**
 * The reply fence re-run on graph edges (docs/architecture.md#sequences-as-graphs):
 * each enrollment's open (through ingest's real tracking pixel) is fired around the
 * moment its timeout job falls due, so the event's edge and the timeout's race on
 * every enrollment. Exactly one edge wins: an event acknowledged as `edge_taken`
 * leaves no touch on the timeout's node, ever; one acknowledged too late
 * (`no_effect`) finds the timeout's touch claimed before its commit. No node runs
 * twice, no provider key is delivered twice.
 */
describe(`graph edges: ${N} opens racing ${N} timeouts`, () => {
  let sys: TestSystem;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    sys = await startTestSystem('graph_fence', {
      INGEST_PORT: String(port),
      INGEST_PUBLIC_URL: base,
      TRACKING_SECRET: SECRET,
      TIME_SCALE: String(TIME_SCALE),
      SENDER_CONCURRENCY: '50',
    });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('exactly one edge is taken per enrollment: nothing on the wrong edge, nothing twice', async () => {
    const mailboxId = await createMailbox(sys);
    const seq = await sys.api('POST', '/v1/sequences', { name: 'fence', graph: GRAPH });
    expect(seq.status).toBe(201);
    const emails = Array.from({ length: N }, (_, i) => `edge-${i}@race.example`);
    const prospectIds = await importProspects(
      sys,
      emails.map((email) => ({ email })),
    );
    const enrolled = await enroll(sys, seq.body.id, mailboxId, prospectIds);
    expect(enrolled).toHaveLength(N);

    // The first e-mails go out; each one's timeout falls due a day (3 s) after it.
    const first = await waitFor('every first e-mail sent', () => firstTouchesSent(sys, seq.body.id, N), {
      timeoutMs: 60_000,
      intervalMs: 100,
    });

    // Each open fires around its own timeout.
    const { fireAt, ackAt } = await fireAroundTimeouts(first, DAY_MS, 32, async (r) => {
      const token = signTrackingToken({ touchId: r.id, enrollmentId: r.eid, kind: 'open' }, SECRET);
      const res = await fetch(`${base}/t/o/${token}`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    });

    // Every enrollment reaches one of the two nodes and sends its e-mail.
    const touches = await waitFor(
      'one second touch per enrollment',
      async () => {
        const { rows } = await sys.rt.db.pool.query<{
          eid: string;
          step: number;
          status: string;
          created_at: Date;
        }>(
          `SELECT t.enrollment_id AS eid, t.step, t.status::text, t.created_at FROM touch t
           JOIN enrollment e ON e.id = t.enrollment_id WHERE e.sequence_id = $1 AND t.step > 1`,
          [seq.body.id],
        );
        return rows.filter((r) => r.status === 'sent').length >= N ? rows : null;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const { rows: events } = await sys.rt.db.pool.query<{ eid: string; outcome: string }>(
      `SELECT enrollment_id AS eid, outcome FROM event WHERE source = 'tracking' AND type = 'opened'`,
    );
    expect(events).toHaveLength(N);
    const outcome = new Map(events.map((e) => [e.eid, e.outcome]));
    const byEnrollment = new Map<string, { step: number; created_at: Date }[]>();
    for (const t of touches) byEnrollment.set(t.eid, [...(byEnrollment.get(t.eid) ?? []), t]);

    const wrongEdge: string[] = [];
    const lateButAfterAck: string[] = [];
    for (const { eid } of first) {
      const second = byEnrollment.get(eid) ?? [];
      const steps = second.map((t) => t.step);
      if (outcome.get(eid) === 'edge_taken') {
        if (!(steps.length === 1 && steps[0] === 2)) wrongEdge.push(eid);
      } else {
        expect(outcome.get(eid)).toBe('no_effect');
        if (!(steps.length === 1 && steps[0] === 3)) wrongEdge.push(eid);
        // Too late for the edge: the timeout's touch was claimed before the open's commit.
        else if (second[0]!.created_at.getTime() > ackAt.get(eid)!) lateButAfterAck.push(eid);
      }
    }
    const deliveries = sys.sandbox.deliveries().filter((d) => fireAt.has(d.enrollmentId));
    const keys = deliveries.map((d) => d.idempotencyKey);
    const report = {
      enrollments: N,
      openTookTheEdge: [...outcome.values()].filter((o) => o === 'edge_taken').length,
      timeoutWonTheRace: [...outcome.values()].filter((o) => o === 'no_effect').length,
      wrongEdge: wrongEdge.length,
      deliveredTwice: keys.length - new Set(keys).size,
    };
    console.info('graph edge fence', report);
    expect(wrongEdge).toEqual([]);
    expect(lateButAfterAck).toEqual([]);
    expect(report.deliveredTwice).toBe(0);
    // Two e-mails per enrollment, one per node run: the first and the branch's.
    expect(deliveries).toHaveLength(2 * N);
    // The race was real: both edges won some.
    expect(report.openTookTheEdge).toBeGreaterThan(0);
    expect(report.timeoutWonTheRace).toBeGreaterThan(0);
  });
});
