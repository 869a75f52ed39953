import { z } from 'zod';
import { ContactPolicySchema } from './contact-policies.js';
import { ReactivationPolicySchema } from './reactivation.schemas.js';
import { ReplyActionsPolicySchema } from './reply-actions.schemas.js';

/** What happens to a colleague's live enrollments when someone of their company replies. */
export const CompanyStopActionSchema = z.enum(['end', 'pause', 'continue']);
export type CompanyStopAction = z.infer<typeof CompanyStopActionSchema>;

/**
 * Company-level stop: on a reply of one of the listed classes (`any` for every
 * reply), colleagues' live enrollments in this sequence end, pause for
 * `pauseDays`, or continue. Unsubscribes and complaints never reach colleagues:
 * they are one person's choice.
 */
export const CompanyStopPolicySchema = z.object({
  action: CompanyStopActionSchema.default('pause'),
  /** Reply classes that act on colleagues; `unclassified` names a reply no classifier read. */
  onClasses: z
    .union([z.literal('any'), z.array(z.string().min(1)).min(1)])
    .default(['interested', 'meeting_request']),
  pauseDays: z.number().int().min(1).max(365).default(14),
});
export type CompanyStopPolicy = z.infer<typeof CompanyStopPolicySchema>;

/**
 * A sequence's policies (`sequence.policies`), every field defaulted, so `{}` (and
 * a row written before policies existed) reads as the defaults.
 */
export const SequencePoliciesSchema = z.object({
  companyStop: CompanyStopPolicySchema.prefault({}),
  /** What each reply class does in this sequence (end or go on, CRM, notification, referral, cooldown). */
  replyActions: ReplyActionsPolicySchema.prefault({}),
  /** Re-enrollment in a reactivation sequence after a lost deal or a lifecycle stage set back. */
  reactivation: ReactivationPolicySchema.prefault({}),
  /** Campaign start: first touches of people enrolled before it wait for it. */
  startsAt: z.iso.datetime({ offset: true }).nullable().default(null),
  /** Campaign end: from then on nobody new is enrolled (running enrollments go on). */
  endsAt: z.iso.datetime({ offset: true }).nullable().default(null),
  /**
   * Open and click tracking of e-mail touches, both off unless turned on: a pixel
   * and rewritten links tell the recipient's mail client (and its privacy proxy)
   * about us, and opens are unreliable (proxies prefetch, clients block images).
   */
  tracking: z.object({ opens: z.boolean().default(false), clicks: z.boolean().default(false) }).prefault({}),
  /** Who may be contacted: exclusivity, cooldown, new people a day, recipient-domain cap (core's ContactPolicySchema). */
  contact: ContactPolicySchema.prefault({}),
});
export type SequencePolicies = z.infer<typeof SequencePoliciesSchema>;

/** The policies of a stored sequence, defaults filled in; a row that fails the schema throws (it was validated when written). */
export function sequencePoliciesOf(stored: unknown): SequencePolicies {
  return SequencePoliciesSchema.parse(stored ?? {});
}

/**
 * The campaign dates at enrollment: refused once the end date has passed (nothing new
 * starts); else the earliest a first touch may go (the start date, when still ahead).
 */
export function campaignDatesAt(
  policies: SequencePolicies,
  now: Date,
): { ended: true; endsAt: string } | { ended: false; notBefore: Date | null } {
  if (policies.endsAt && Date.parse(policies.endsAt) <= now.getTime()) {
    return { ended: true, endsAt: policies.endsAt };
  }
  const start = policies.startsAt ? new Date(policies.startsAt) : null;
  return { ended: false, notBefore: start && start.getTime() > now.getTime() ? start : null };
}
