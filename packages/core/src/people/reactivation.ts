import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import type { CanonicalEvent } from '../events/canonical-event.js';
import { scaleDuration } from '../time/time-scale.js';
import { sequencePoliciesOf } from './sequence-policies.js';

const DAY_MS = 86_400_000;

/** What a reactivation was caused by. */
export type ReactivationTrigger = 'crm.deal_lost' | 'crm.lifecycle_stage';

/** The CRM change an event reports that may reactivate a person, or null. */
export function reactivationTriggerOf(
  event: CanonicalEvent,
): { trigger: ReactivationTrigger; stage: string | null } | null {
  if (event.type === 'crm.deal_lost') return { trigger: 'crm.deal_lost', stage: null };
  if (event.type === 'crm.lifecycle_stage') {
    const stage = typeof event.data.stage === 'string' ? event.data.stage : null;
    return stage ? { trigger: 'crm.lifecycle_stage', stage } : null;
  }
  return null;
}

/** One of the person's enrollments (any status), with its sequence's stored policies. */
export type PastEnrollment = {
  id: string;
  sequenceId: string;
  status: EnrollmentStatus;
  sequencePolicies: unknown;
  createdAt: Date;
};

/** A reactivation to schedule: from which enrollment, into which sequence, when. */
export type ReactivationPlan = {
  fromEnrollmentId: string;
  sequenceId: string;
  trigger: ReactivationTrigger;
  dueAt: Date;
};

/**
 * The reactivation a CRM change schedules: the person's newest enrollment whose
 * sequence names a reactivation sequence for this kind of change is the original;
 * the person is due in that reactivation sequence after its cooling-off (compressed
 * by TIME_SCALE in the sandbox). Null when no sequence of theirs asks for it.
 * Whether they may really be enrolled is decided when it is due
 * ({@link reactivationRefusalOf}): a lot changes in 180 days.
 */
export function reactivationPlanOf(
  event: CanonicalEvent,
  enrollments: readonly PastEnrollment[],
  now: Date,
  timeScale = 1,
): ReactivationPlan | null {
  const cause = reactivationTriggerOf(event);
  if (!cause) return null;
  const newestFirst = [...enrollments].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  for (const e of newestFirst) {
    const policy = sequencePoliciesOf(e.sequencePolicies).reactivation;
    if (!policy.sequenceId) continue;
    const matches =
      cause.trigger === 'crm.deal_lost'
        ? policy.onDealLost
        : cause.stage !== null && policy.lifecycleStages.includes(cause.stage);
    if (!matches) continue;
    const wait = policy.coolingOffDays * DAY_MS;
    return {
      fromEnrollmentId: e.id,
      sequenceId: policy.sequenceId,
      trigger: cause.trigger,
      dueAt: new Date(now.getTime() + (timeScale > 1 ? scaleDuration(wait, timeScale) : wait)),
    };
  }
  return null;
}

/** Why a due reactivation does not enroll the person. */
export type ReactivationRefusal = 'erased' | 'suppressed' | 'won' | 'live' | 'cooling_off';

/**
 * Whether a due reactivation may enroll the person: never when they were erased,
 * are suppressed, won a deal since, are live in any sequence already, or asked not
 * to be contacted for a while. Null: enroll them.
 */
export function reactivationRefusalOf(person: {
  exists: boolean;
  suppressed: boolean;
  wonSince: boolean;
  liveEnrollments: number;
  inCooldown: boolean;
}): ReactivationRefusal | null {
  if (!person.exists) return 'erased';
  if (person.suppressed) return 'suppressed';
  if (person.wonSince) return 'won';
  if (person.liveEnrollments > 0) return 'live';
  if (person.inCooldown) return 'cooling_off';
  return null;
}

/** The `stop_reason`-like outcome of a reactivation a won deal cancelled before it was due. */
export const REACTIVATION_WON = 'won';
