import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, spawnService } from '../support/child-service.js';
import { assertExactlyOnce } from '../support/exactly-once.js';
import {
  enrollAll,
  killableSenderEnv,
  seed,
  startTestSystem,
  type TestSystem,
} from '../support/test-system.js';

const ENROLLMENTS = 200;
const STEPS = 3;

describe('sender killed with SIGKILL mid-run (invariants 2 and 3)', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    // The sender runs as a child process; the rest in this one. The reconciler runs
    // every second so a job lost with the killed process comes back quickly.
    sys = await startTestSystem(
      'sigkill',
      { SCHEDULER_RECONCILE_INTERVAL_MS: '1000' },
      { withoutSender: true },
    );
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('no duplicate delivery, every enrollment finishes', async () => {
    const senderEnv = killableSenderEnv(sys);
    const emails = Array.from({ length: ENROLLMENTS }, (_, i) => `p${i}@kill.example`);
    const ids = await seed(sys, { steps: STEPS, prospects: emails, wait: '1d' });
    await enrollAll(sys, ids);

    let sender = spawnService('sender', senderEnv);
    // Kill it in the middle of the run: after a quarter of the touches went out.
    await waitFor(
      'a quarter of the touches',
      () => sys.sandbox.deliveries().length >= (ENROLLMENTS * STEPS) / 4,
      { timeoutMs: 60_000, intervalMs: 5 },
    );
    await killHard(sender);
    const atKill = sys.sandbox.deliveries().length;
    const inDoubt = (
      await sys.rt.db.pool.query("SELECT count(*)::int AS n FROM touch WHERE status = 'sending'")
    ).rows[0].n;
    sender = spawnService('sender', senderEnv);
    try {
      await waitFor(
        'every enrollment to end',
        async () => {
          const stats = (await sys.api('GET', `/v1/stats?sequenceId=${ids.sequenceId}`)).body;
          return (stats.byStatus.exhausted ?? 0) === ENROLLMENTS ? stats : null;
        },
        { timeoutMs: 80_000, intervalMs: 200 },
      );
    } finally {
      await killHard(sender);
    }

    const deliveries = sys.sandbox.deliveries();
    assertExactlyOnce(deliveries);
    expect(deliveries).toHaveLength(ENROLLMENTS * STEPS);
    const stats = sys.sandbox.stats();
    // Touches in doubt (claimed, maybe handed over) are resolved by resending with the same
    // key: the provider answers with the first delivery. Requests beyond deliveries are those.
    console.log(
      JSON.stringify({
        test: 'sender-sigkill',
        deliveriesAtKill: atKill,
        deliveries: deliveries.length,
        requests: stats.requests,
        touchesInDoubtAtKill: inDoubt,
        resolvedByIdempotencyKey: stats.requests - deliveries.length,
      }),
    );
  }, 120_000);
});
