import type { ChildProcess } from 'node:child_process';
import { seededRandom } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, spawnService } from '../support/child-service.js';
import {
  enrollAll,
  killableSenderEnv,
  seed,
  startTestSystem,
  type TestSystem,
  waitForEnded,
} from '../support/test-system.js';

/**
 * The sender killed with SIGKILL again and again, at random moments, and restarted
 * each time. The full run is 2,000 enrollments of 3 steps and 20 kills:
 * `npm run faults:full` (bench/faults-full.ts: FAULT_KILL_ENROLLMENTS=2000 FAULT_KILLS=20, its
 * figures recorded in bench/RESULTS.md; 4.5 minutes here). The defaults keep the suite's run short.
 */
const ENROLLMENTS = Number(process.env.FAULT_KILL_ENROLLMENTS ?? 300);
const KILLS = Number(process.env.FAULT_KILLS ?? 5);
const STEPS = 3;
/** Room for the full size (2,000 enrollments, 20 kills) on a loaded 2-core machine. */
const TIMEOUT_MS = Math.max(300_000, ENROLLMENTS * 400);

type InDoubt = { enrollmentId: string; step: number; killedAt: number };

describe(`sender killed ${KILLS} times during ${ENROLLMENTS} enrollments of ${STEPS} steps`, () => {
  let sys: TestSystem;
  let sender: ChildProcess | undefined;
  beforeAll(async () => {
    // Replies and bounces on, so enrollments end all three ways; the reconciler every second.
    sys = await startTestSystem(
      'sigkill_repeat',
      {
        SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
        SANDBOX_REPLY_RATE: '0.1',
        SANDBOX_BOUNCE_RATE: '0.05',
        SANDBOX_SEED: String(process.env.FAULT_KILL_SEED ?? 7),
      },
      { withoutSender: true },
    );
  });
  afterAll(async () => {
    if (sender) await killHard(sender);
    await sys?.stop();
  });

  it('no delivery twice, no touch lost, every touch in doubt resolved', { timeout: TIMEOUT_MS }, async () => {
    const random = seededRandom(Number(process.env.FAULT_KILL_SEED ?? 7));
    const senderEnv = killableSenderEnv(sys);
    const emails = Array.from({ length: ENROLLMENTS }, (_, i) => `p${i}@killed.example`);
    const ids = await seed(sys, { steps: STEPS, prospects: emails, wait: '2d' });
    await enrollAll(sys, ids);

    // Touches claimed but not recorded when a sender died, by key (first kill that left each).
    const inDoubt = new Map<string, InDoubt>();
    const killAt: number[] = [];
    sender = spawnService('sender', senderEnv);
    for (let k = 0; k < KILLS; k++) {
      // A random moment once this sender is sending: 0-1.5 s after its first delivery.
      const seen = sys.sandbox.deliveries().length;
      const started = await waitFor(
        `sender ${k + 1} to deliver`,
        async () => {
          if (sys.sandbox.deliveries().length > seen) return true;
          const { rows } = await sys.rt.db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM enrollment WHERE sequence_id = $1 AND status = 'active'`,
            [ids.sequenceId],
          );
          return rows[0]!.n === 0 ? 'finished' : false;
        },
        { timeoutMs: 30_000, intervalMs: 10 },
      );
      if (started === 'finished') break;
      await new Promise((r) => setTimeout(r, Math.floor(random() * 1_500)));
      await killHard(sender);
      killAt.push(sys.sandbox.deliveries().length);
      const { rows } = await sys.rt.db.pool.query<{ enrollmentId: string; step: number }>(
        `SELECT enrollment_id AS "enrollmentId", step FROM touch WHERE status = 'sending'`,
      );
      for (const r of rows) {
        const key = `${r.enrollmentId}-${r.step}`;
        if (!inDoubt.has(key)) inDoubt.set(key, { ...r, killedAt: Date.now() });
      }
      sender = spawnService('sender', senderEnv);
    }

    const final = await waitForEnded(sys, ids.sequenceId, ENROLLMENTS, {
      timeoutMs: Math.max(120_000, ENROLLMENTS * 150),
    });
    await killHard(sender);
    await sys.sandbox.settled();

    const deliveries = sys.sandbox.deliveries();
    const delivered = new Map(deliveries.map((d) => [`${d.enrollmentId}-${d.step}`, d]));
    const touches = await sys.rt.db.pool.query<{ key: string; status: string; enrollment: string }>(
      `SELECT t.enrollment_id || '-' || t.step AS key, t.status::text AS status, e.status::text AS enrollment
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id WHERE e.sequence_id = $1`,
      [ids.sequenceId],
    );
    const touchOf = new Map(touches.rows.map((t) => [t.key, t]));
    const byEnrollment = new Map<string, number>();
    for (const d of deliveries) byEnrollment.set(d.enrollmentId, (byEnrollment.get(d.enrollmentId) ?? 0) + 1);
    const exhausted = await sys.rt.db.pool.query<{ id: string }>(
      `SELECT id FROM enrollment WHERE sequence_id = $1 AND status = 'exhausted'`,
      [ids.sequenceId],
    );

    // How each touch in doubt at a kill was resolved.
    const resolution: Record<string, number> = {};
    for (const [key, d] of inDoubt) {
      const delivery = delivered.get(key);
      const touch = touchOf.get(key);
      const how = !delivery
        ? `not sent; touch ${touch?.status ?? 'gone'}, enrollment ${touch?.enrollment}`
        : touch?.status !== 'sent'
          ? `delivered ${Date.parse(delivery.at) <= d.killedAt ? 'before' : 'after'} the kill but left ${touch?.status}, enrollment ${touch?.enrollment}`
          : Date.parse(delivery.at) <= d.killedAt
            ? 'the provider had it before the kill: its answer recorded, not resent'
            : 'the provider never got it: sent once after the restart';
      resolution[how] = (resolution[how] ?? 0) + 1;
    }
    const stats = sys.sandbox.stats();
    const lost = exhausted.rows.filter((e) => byEnrollment.get(e.id) !== STEPS).length;
    const unrecordedCount = [...delivered.keys()].filter((k) => touchOf.get(k)?.status !== 'sent').length;
    console.log(
      JSON.stringify({
        test: 'sender-sigkill-repeated',
        enrollments: ENROLLMENTS,
        kills: killAt.length,
        deliveriesAtKills: killAt,
        deliveries: deliveries.length,
        providerRequests: stats.requests,
        final,
        duplicates: deliveries.length - delivered.size,
        lost,
        deliveredNotRecordedSent: unrecordedCount,
        leftSending: touches.rows.filter((t) => t.status === 'sending').length,
        touchesInDoubt: inDoubt.size,
        resolution,
      }),
    );

    // Zero duplicates: each (enrollment, step) delivered once.
    expect(delivered.size).toBe(deliveries.length);
    // Zero lost: every exhausted enrollment got all its touches.
    expect(exhausted.rows.filter((e) => byEnrollment.get(e.id) !== STEPS)).toEqual([]);
    // Every delivery recorded as sent, and nothing left in doubt.
    const unrecorded = [...delivered.keys()]
      .filter((k) => touchOf.get(k)?.status !== 'sent')
      .map((k) => ({ touch: k, ...touchOf.get(k) }));
    expect(unrecorded, 'deliveries the touch table does not record as sent').toEqual([]);
    expect(touches.rows.filter((t) => t.status === 'sending')).toEqual([]);
  });
});
