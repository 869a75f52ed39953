import { firstTouchDue, resolveTimeZone, type TouchTiming } from '@touchbase/core';
import type { EnrollResult, Repositories } from '@touchbase/db';
import type { TouchQueue } from '@touchbase/queues';

export type EnrollDeps = {
  repos: Pick<Repositories, 'enrollments' | 'sequences' | 'mailboxes'>;
  touchQueue: TouchQueue;
  clock: () => Date;
  timeScale: number;
  /** Campaign pacing: first touches of one request are spread this far apart. */
  pacingMs: number;
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
  const now = deps.clock();
  const timing: TouchTiming = {
    timeZone: resolveTimeZone(null, mailbox.timezone),
    window:
      mailbox.windowDays.length > 0
        ? { days: mailbox.windowDays, start: mailbox.windowStart, end: mailbox.windowEnd }
        : null,
    timeScale: deps.timeScale,
  };
  const dues: Date[] = [];
  const result = await deps.repos.enrollments.enroll({
    sequenceId: input.sequenceId,
    sequenceVersionId: version.id,
    mailboxId: input.mailboxId,
    prospectIds: input.prospectIds,
    // Held enrollments (paused domain) get no job: resuming the domain schedules them.
    whenDomainPaused: input.whenDomainPaused ?? 'refuse',
    firstTouchAt: (i) => {
      dues[i] = firstTouchDue(now, i, deps.pacingMs, timing);
      return dues[i];
    },
  });
  // The repository numbered candidates in order; map each enrolled prospect to its due time.
  const dueByProspect = new Map<string, Date>();
  let i = 0;
  for (const id of input.prospectIds) if (!dueByProspect.has(id)) dueByProspect.set(id, dues[i++] ?? now);
  await deps.touchQueue.schedule(
    result.enrolled.map((e) => ({
      enrollmentId: e.id,
      step: 1,
      dueAt: dueByProspect.get(e.prospectId) ?? now,
    })),
    now.getTime(),
  );
  return result;
}
