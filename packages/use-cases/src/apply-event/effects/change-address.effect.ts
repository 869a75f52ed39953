import { addressChangeOf, RESUMED_BY_ADDRESS_CHANGE, suppressionKeysOf } from '@touchbase/core';
import type { EventTarget, EventTransaction } from '../apply-event.ports.js';
import type { ResumedEnrollment } from '../apply-event.types.js';

/**
 * The address moved: the prospect takes the new one and every sequence goes on on
 * it in a new thread. Enrollments that ended because the old address bounced are
 * resumed at their current step; the old address stays suppressed. An address
 * another prospect has, or one that is suppressed, is refused.
 */
export async function changeAddress(
  tx: EventTransaction,
  target: EventTarget,
  newEmail: string,
): Promise<{
  outcome: 'no_effect' | 'conflict' | 'new_address_suppressed' | 'email_changed';
  resumed: ResumedEnrollment[];
}> {
  const next = addressChangeOf(target.email, newEmail);
  if (next === null) return { outcome: 'no_effect', resumed: [] };
  if (await tx.emailTaken(next, target.prospectId)) return { outcome: 'conflict', resumed: [] };
  if (await tx.anySuppressed(suppressionKeysOf(next)))
    return { outcome: 'new_address_suppressed', resumed: [] };
  await tx.changeEmail(target.prospectId, next);
  const resumed = await tx.resumeEnded(target.prospectId, RESUMED_BY_ADDRESS_CHANGE);
  return { outcome: 'email_changed', resumed };
}
