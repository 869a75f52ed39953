import { touchKey } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { expect } from 'vitest';
import type { TestSystem } from '../support/test-system.js';

/**
 * Waits for the first touch of `enrollmentId`, left in doubt, to be recorded unknown,
 * then checks the claim's own decision followed: the walk went on to step 2 (a day
 * away) and the touch's job is not waiting for a token.
 */
export async function expectRecordedUnknownAtOnce(sys: TestSystem, enrollmentId: string): Promise<void> {
  await waitFor(
    'the touch in doubt to be recorded unknown',
    async () => (await sys.rt.repos.touches.statusOf(enrollmentId, 1)) === 'unknown',
    { timeoutMs: 20_000 },
  );
  const enrollment = await sys.rt.db.pool.query(
    'SELECT status::text, current_step AS step FROM enrollment WHERE id = $1',
    [enrollmentId],
  );
  expect(enrollment.rows[0]).toEqual({ status: 'active', step: 2 });
  expect(await sys.rt.touchQueue.delayedUntil(touchKey(enrollmentId, 1))).toBeNull();
}
