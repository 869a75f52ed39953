import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { killHard, spawnService } from '../support/child-service.js';
import { killableSenderEnv, startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  allExhausted,
  enrollTwoChannel,
  expectOneBranchEach,
  TWO_CHANNEL_ENV,
} from './graph-fault-support.js';

const N = 80;

/**
 * Invariants 2 and 3 on a branching, two-channel sequence: the sender process is
 * killed with SIGKILL while invitations, messages and e-mails are on their way; a
 * new one takes over the jobs whose lock expired and finds the touches it had
 * claimed in doubt (the LinkedIn contract deduplicates by key, so it asks again
 * with the same key). Every enrollment still takes exactly one branch and ends,
 * no action or e-mail twice.
 */
describe('sender killed with SIGKILL on a branching sequence', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem(
      'sigkill_graph',
      { SCHEDULER_RECONCILE_INTERVAL_MS: '1000', ...TWO_CHANNEL_ENV },
      { withoutSender: true },
    );
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('one branch per enrollment, nothing twice, every enrollment ends', async () => {
    const senderEnv = killableSenderEnv(sys);
    const { sequenceId, enrollmentIds } = await enrollTwoChannel(sys, 'kill', N);
    let sender = spawnService('sender', senderEnv);
    // Kill it mid-run: half the invitations are out, the rest in flight or waiting.
    await waitFor('half the invitations', () => sys.sandbox.linkedin.actions().length >= N / 2, {
      timeoutMs: 60_000,
      intervalMs: 5,
    });
    await killHard(sender);
    const inDoubt = (
      await sys.rt.db.pool.query("SELECT count(*)::int AS n FROM touch WHERE status = 'sending'")
    ).rows[0].n;
    sender = spawnService('sender', senderEnv);
    try {
      await allExhausted(sys, sequenceId, N, 90_000);
    } finally {
      await killHard(sender);
    }
    const branches = await expectOneBranchEach(sys, sequenceId, enrollmentIds);
    console.log(JSON.stringify({ test: 'sender-sigkill-graph', touchesInDoubtAtKill: inDoubt, ...branches }));
  }, 150_000);
});
