import { type SuppressionKind, suppressionValueProblem } from '@touchbase/core';
import type { Repositories } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';
import { ProblemError } from '@touchbase/runtime';

export type AddSuppressionDeps = {
  repos: Pick<Repositories, 'suppressionStops' | 'audit'>;
  touchQueue: Pick<TouchQueue, 'cancel'>;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
};

/**
 * Adds a suppression entry (an address, a domain, or the hash an erasure keeps) and
 * ends, in the same commit, the live enrollments of every prospect it names: at
 * once, not at their next claim. Their pending jobs are then removed (one that
 * survives is fenced by the claim, which checks suppression too) and the entry is
 * audited with who and why.
 * @throws ProblemError 400 naming `value` when it is not a value of that kind.
 */
export async function addSuppression(
  deps: AddSuppressionDeps,
  input: { kind: SuppressionKind; value: string; reason: string; actor: string },
): Promise<{ id: string; created: boolean; enrollmentsEnded: number }> {
  const problem = suppressionValueProblem(input.kind, input.value);
  if (problem) {
    throw new ProblemError({
      status: 400,
      title: 'Invalid suppression value',
      code: 'validation_failed',
      errors: [{ field: 'value', message: problem }],
    });
  }
  const r = await deps.repos.suppressionStops.addAndStop(input.kind, input.value, input.reason);
  if (r.stopped.length > 0) {
    try {
      await deps.touchQueue.cancel(
        r.stopped.map((s) => ({ enrollmentId: s.id, step: s.currentStep, attempt: s.currentAttempt })),
      );
    } catch (err) {
      deps.logger.warn(
        { suppressionId: r.id, err: (err as Error).message },
        'Pending job removal failed; the fence holds',
      );
    }
  }
  await deps.repos.audit.write({
    actor: input.actor,
    action: 'suppression.added',
    entityType: 'suppression',
    entityId: r.id,
    data: { kind: input.kind, reason: input.reason, enrollmentsEnded: r.stopped.length },
  });
  deps.logger.info(
    { suppressionId: r.id, kind: input.kind, enrollmentsEnded: r.stopped.length },
    'Suppression added',
  );
  return { id: r.id, created: r.created, enrollmentsEnded: r.stopped.length };
}
