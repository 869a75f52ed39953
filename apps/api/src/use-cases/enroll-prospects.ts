import {
  campaignDatesAt,
  DomainError,
  type DoNotContactTable,
  fitDue,
  recipientWindowOf,
  resolveTimeZone,
  unfittedFirstTouch,
} from '@touchbase/core';
import type { EnrollResult, Repositories } from '@touchbase/db';
import { isRedisOutage, type TouchQueue } from '@touchbase/queues';
import type { Logger } from '@touchbase/telemetry';

export type EnrollDeps = {
  repos: Pick<Repositories, 'enrollments' | 'sequences' | 'mailboxes'>;
  touchQueue: TouchQueue;
  clock: () => Date;
  timeScale: number;
  /** Campaign pacing: first touches of one request are spread this far apart. */
  pacingMs: number;
  /** COMPLIANCE_DO_NOT_CONTACT: the recipient country's hours narrow the first touch's window too. */
  doNotContact?: DoNotContactTable;
  /** SCHEDULER_JITTER_MS: the random spread the sender gives each next touch, which a migration and a re-timing give too. */
  jitterMs?: number;
  /** Says when the first touches could not be scheduled (Redis away) and the reconciler will. */
  logger?: Pick<Logger, 'warn'>;
};

/**
 * Enrolls prospects on a sequence's latest version: rows first (PostgreSQL is the
 * truth), then one delayed job each. A crash between the two loses nothing: the
 * reconciler creates the missing jobs from the rows.
 */
export async function enrollProspects(
  deps: EnrollDeps,
  input: {
    sequenceId: string;
    mailboxId: string;
    prospectIds: string[];
    whenDomainPaused?: 'refuse' | 'hold';
  },
): Promise<EnrollResult> {
  const version = await deps.repos.sequences.latestVersion(input.sequenceId);
  const mailbox = await deps.repos.mailboxes.get(input.mailboxId);
  const sequenceWindow = await deps.repos.sequences.sendingWindow(input.sequenceId);
  const now = deps.clock();
  // Campaign dates (sequence policies): after the end nothing new starts; before the
  // start, first touches wait for it.
  const dates = campaignDatesAt(await deps.repos.sequences.policies(input.sequenceId), now);
  if (dates.ended) {
    throw new DomainError('invalid_state', `sequence ended at ${dates.endsAt}: nothing new starts`, {
      field: 'sequenceId',
      sequenceId: input.sequenceId,
      endsAt: dates.endsAt,
    });
  }
  const startAt = dates.notBefore ?? now;
  const dueByProspect = new Map<string, Date>();
  const result = await deps.repos.enrollments.enroll({
    sequenceId: input.sequenceId,
    sequenceVersionId: version.id,
    mailboxId: input.mailboxId,
    prospectIds: input.prospectIds,
    // Held enrollments (paused domain) get no job: resuming the domain schedules them.
    whenDomainPaused: input.whenDomainPaused ?? 'refuse',
    firstTouchAt: (i, prospect) => {
      // The window holds in the prospect's own zone when it has one, else the mailbox's.
      // The sequence's own window, when it has one, overrides the mailbox's (holidays
      // included), and the recipient country's do-not-contact hours narrow it.
      const t = {
        timeZone: resolveTimeZone(prospect.timezone, mailbox.timezone),
        window: recipientWindowOf(sequenceWindow, mailbox, deps.doNotContact, prospect.attributes),
        timeScale: deps.timeScale,
      };
      // The raw time is kept with the fitted one: a window change re-fits from it.
      const due = fitDue(unfittedFirstTouch(startAt, i, deps.pacingMs, t), t);
      // Each job is due when its row says: the rows are numbered in the repository's order.
      dueByProspect.set(prospect.id, due.at);
      return due;
    },
  });
  try {
    await deps.touchQueue.schedule(
      result.enrolled.map((e) => ({
        enrollmentId: e.id,
        step: 1,
        dueAt: dueByProspect.get(e.prospectId) ?? now,
      })),
      now.getTime(),
    );
  } catch (err) {
    // Redis away after the commit: the enrollments exist (PostgreSQL is the truth) and
    // the reconciler creates their jobs once Redis is back; refusing now would have the
    // client retry into already_enrolled.
    if (!isRedisOutage(err)) throw err;
    deps.logger?.warn(
      { sequenceId: input.sequenceId, enrolled: result.enrolled.length, err: (err as Error).message },
      'First touches not scheduled: Redis unavailable; the reconciler will schedule them',
    );
  }
  return result;
}
