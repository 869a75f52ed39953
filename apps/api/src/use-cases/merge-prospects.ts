import { exclusiveMergeEnds, mergeEnrollmentsPlan, suppressionFollowsPerson } from '@touchbase/core';
import type { MergeResult, Repositories } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';
import type { Logger } from '@touchbase/telemetry';

export type MergeProspectsDeps = {
  repos: Pick<Repositories, 'prospectMerges'>;
  touchQueue: Pick<TouchQueue, 'cancel'>;
  logger: Pick<Logger, 'info' | 'warn'>;
};

/**
 * Joins two prospects of one person: `from`'s identities, enrollments, events and
 * CRM notifications follow to `into`, and so do the person's suppressions (an
 * unsubscribe under either address keeps the person out). Where both are in one
 * sequence, core's `mergeEnrollmentsPlan` keeps one and the other is cancelled
 * (`merged`), so the person is never contacted twice in a sequence; where an
 * exclusive sequence (contact policy) now holds them with another live one, the
 * one started first goes on and the other is cancelled (`merged`). One commit,
 * audited with the actor and the reason; then the pending jobs of the cancelled
 * enrollments are removed (one that survives is fenced by the sender's claim).
 */
export async function mergeProspects(
  deps: MergeProspectsDeps,
  input: { intoId: string; fromId: string; reason: string; actor: string },
): Promise<MergeResult> {
  const result = await deps.repos.prospectMerges.merge({
    ...input,
    plan: mergeEnrollmentsPlan,
    followsPerson: suppressionFollowsPerson,
    exclusiveEnds: exclusiveMergeEnds,
  });
  if (result.stopped.length > 0) {
    try {
      await deps.touchQueue.cancel(
        result.stopped.map((e) => ({ enrollmentId: e.id, step: e.currentStep, attempt: e.currentAttempt })),
      );
    } catch (err) {
      deps.logger.warn(
        { prospectId: input.intoId, enrollments: result.stopped.length, err: (err as Error).message },
        'Pending job removal failed; the fence holds',
      );
    }
  }
  deps.logger.info(
    {
      prospectId: input.intoId,
      mergedFrom: input.fromId,
      moved: result.moved.length,
      leftBehind: result.leftBehind.length,
      stopped: result.stopped.length,
    },
    'Prospects merged',
  );
  return result;
}
