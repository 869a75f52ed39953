import { outOfOfficeResumeAt } from '@touchbase/core';
import type { EventTarget, EventTransaction } from '../apply-event.ports.js';
import type { EnrollmentStep } from '../apply-event.types.js';

/**
 * An out-of-office: the prospect's active enrollments pause until the return date
 * (or a default) plus a business day; one already paused by an earlier
 * out-of-office takes the new date.
 */
export async function pause(
  tx: EventTransaction,
  target: EventTarget,
  returnDate: string | null,
  now: Date,
  timeScale: number,
): Promise<EnrollmentStep[]> {
  const until = outOfOfficeResumeAt(now, returnDate, { timeScale });
  return tx.pauseProspect(target.prospectId, until);
}
