/**
 * The provider idempotency key and BullMQ job id of one touch. BullMQ forbids `:`
 * in job ids, hence `-`; the same string is the unique key of the touch row.
 */
export function touchKey(enrollmentId: string, step: number): string {
  return `${enrollmentId}-${step}`;
}
