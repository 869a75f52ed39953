import { z } from 'zod';

/**
 * Reactivation (`policies.reactivation`): when the CRM says a lead went cold (a deal
 * of theirs moved to closed-lost, or their contact's lifecycle stage was set back to
 * one of `lifecycleStages`), the person is enrolled, after `coolingOffDays`, in
 * `sequenceId` (the reactivation sequence, with its own copy). Off while no
 * reactivation sequence is named.
 */
export const ReactivationPolicySchema = z.object({
  /** The sequence to enroll a person in again; null: no reactivation. */
  sequenceId: z.uuid().nullable().default(null),
  coolingOffDays: z.number().int().min(1).max(3650).default(180),
  /** Reactivate when a deal of theirs is lost. */
  onDealLost: z.boolean().default(true),
  /** HubSpot lifecycle stages (`lifecyclestage` values) that, once set, reactivate; none by default. */
  lifecycleStages: z.array(z.string().min(1).max(100)).max(20).default([]),
});
export type ReactivationPolicy = z.infer<typeof ReactivationPolicySchema>;
