import type { ActedEnrollment, ActionCount, EnrollmentSelection, Repositories } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';

/** An operator's action on enrollments. */
export type EnrollmentAction =
  | { kind: 'pause'; until: Date | null }
  | { kind: 'resume' }
  | { kind: 'cancel' };

export type ActOnEnrollmentsDeps = {
  repos: Pick<Repositories, 'enrollmentActions' | 'audit'>;
  touchQueue: Pick<TouchQueue, 'cancel' | 'schedule'>;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  clock?: () => Date;
};

/** What an action did, as the API answers it. */
export type ActionReport = { matched: number; changed: number; capped: boolean; ids: string[] };

const AUDIT_ACTION = {
  pause: 'enrollment.paused',
  resume: 'enrollment.resumed',
  cancel: 'enrollment.cancelled',
};

/**
 * Pauses, resumes or cancels enrollments (one, or many by a filter, at most `cap`):
 * the status change commits first (PostgreSQL is the truth), then the pending jobs
 * of the paused and cancelled ones are removed and the resumed ones get theirs back,
 * and every changed enrollment gets an audit entry with who and why.
 */
export async function actOnEnrollments(
  deps: ActOnEnrollmentsDeps,
  input: {
    action: EnrollmentAction;
    selection: EnrollmentSelection;
    cap: number;
    actor: string;
    reason: string;
  },
): Promise<ActionReport> {
  const { action, selection, cap } = input;
  const actions = deps.repos.enrollmentActions;
  const now = deps.clock?.() ?? new Date();
  let result: ActionCount;
  if (action.kind === 'pause') result = await actions.pause(selection, action.until, cap);
  else if (action.kind === 'resume') result = await actions.resume(selection, now, cap);
  else result = await actions.cancel(selection, `manual:${input.reason}`, cap);

  if (action.kind === 'resume') await schedule(deps, result.changed);
  else await removeJobs(deps, result.changed);

  await deps.repos.audit.writeMany(
    result.changed.map((e) => ({
      actor: input.actor,
      action: AUDIT_ACTION[action.kind],
      entityType: 'enrollment',
      entityId: e.id,
      data: {
        reason: input.reason,
        ...(action.kind === 'pause' && action.until ? { until: action.until.toISOString() } : {}),
      },
    })),
  );
  deps.logger.info(
    { action: action.kind, matched: result.matched, changed: result.changed.length, actor: input.actor },
    'Enrollments changed by an operator',
  );
  return {
    matched: result.matched,
    changed: result.changed.length,
    capped: result.capped,
    ids: result.changed.map((e) => e.id),
  };
}

async function removeJobs(deps: ActOnEnrollmentsDeps, changed: ActedEnrollment[]): Promise<void> {
  if (changed.length === 0) return;
  try {
    await deps.touchQueue.cancel(
      changed.map((e) => ({ enrollmentId: e.id, step: e.currentStep, attempt: e.currentAttempt })),
    );
  } catch (err) {
    // The status is committed: a job that survives is fenced by the sender's claim.
    deps.logger.warn(
      { enrollments: changed.length, err: (err as Error).message },
      'Pending job removal failed; the fence holds',
    );
  }
}

async function schedule(deps: ActOnEnrollmentsDeps, changed: ActedEnrollment[]): Promise<void> {
  if (changed.length === 0) return;
  try {
    await deps.touchQueue.schedule(
      changed.map((e) => ({
        enrollmentId: e.id,
        step: e.currentStep,
        attempt: e.currentAttempt,
        dueAt: e.nextTouchAt ?? new Date(),
      })),
    );
  } catch (err) {
    // The enrollments are active in PostgreSQL: the reconciler gives them their jobs.
    deps.logger.warn(
      { enrollments: changed.length, err: (err as Error).message },
      'Resumed touch scheduling failed',
    );
  }
}
