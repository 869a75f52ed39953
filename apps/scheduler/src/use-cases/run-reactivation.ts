import type { ReactivationRepository, ReactivationRun } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';
import type { Logger } from '@touchbase/telemetry';

export type RunReactivationDeps = {
  reactivations: Pick<ReactivationRepository, 'run'>;
  touchQueue: Pick<TouchQueue, 'schedule'>;
  logger: Logger;
  clock: () => Date;
};

/**
 * A reactivation has come due: the repository decides (core's rules) and enrolls
 * the person, or settles it as skipped with the reason, in one transaction; then the
 * new enrollment's first touch gets its job. A job that fails to be added is the
 * reconciler's to re-create (the enrollment is active in PostgreSQL).
 */
export async function runReactivation(
  deps: RunReactivationDeps,
  reactivationId: string,
): Promise<ReactivationRun> {
  const now = deps.clock();
  const run = await deps.reactivations.run(reactivationId, now);
  if (run.kind === 'enrolled') {
    try {
      await deps.touchQueue.schedule(
        [{ enrollmentId: run.enrollmentId, step: 1, dueAt: run.nextTouchAt }],
        now.getTime(),
      );
    } catch (err) {
      deps.logger.warn(
        { reactivationId, enrollmentId: run.enrollmentId, err: (err as Error).message },
        'Reactivated touch scheduling failed; left to the reconciler',
      );
    }
  }
  deps.logger.info(
    {
      reactivationId,
      outcome: run.kind,
      ...(run.kind === 'enrolled' ? { enrollmentId: run.enrollmentId } : {}),
      ...(run.kind === 'skipped' ? { reason: run.reason } : {}),
    },
    'Reactivation run',
  );
  return run;
}
