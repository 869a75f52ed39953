import { type LinkedInAction, type LinkedInCaps, linkedInActionLimits } from '@touchbase/core';
import type { MailboxLimits, Throttle, ThrottleDecision } from '../throttle/throttle.port.js';

/** The bucket of one action of one LinkedIn account: `{accountId}-li-{action}` (one bucket per action). */
export function linkedInBucketId(accountId: string, action: LinkedInAction): string {
  return `${accountId}-li-${action}`;
}

/** The bucket of one action of one account with its limits: what {@link Throttle.take} and `release` are asked with. */
export function linkedInBucketOf(
  account: { id: string; caps: LinkedInCaps },
  action: LinkedInAction,
): { id: string; limits: MailboxLimits } {
  return { id: linkedInBucketId(account.id, action), limits: linkedInActionLimits(account.caps, action) };
}

/** The account and action of a bucket id, or null for a mailbox's own (for the seed source). */
export function parseLinkedInBucketId(
  bucketId: string,
): { accountId: string; action: LinkedInAction } | null {
  const m = /^(.+)-li-(invitation|message|profile_visit)$/.exec(bucketId);
  return m ? { accountId: m[1] as string, action: m[2] as LinkedInAction } : null;
}

/**
 * A LinkedIn account's caps through the same {@link Throttle} port as a mailbox's:
 * one token bucket per (account, action), each with its own windows (invitations
 * per day and per week, messages per day, profile visits per day, and the
 * account's spacing), shared by every sender replica. A refusal is handed back as
 * `waitMs`, exactly as for e-mail; the sending window is the caller's, as for a mailbox.
 */
export class LinkedInThrottle {
  constructor(private readonly throttle: Throttle) {}

  /** One token of `action` for `member` (the touch's key with its retry counts). */
  take(
    account: { id: string; caps: LinkedInCaps },
    action: LinkedInAction,
    member: string,
    opts?: { queue?: boolean },
  ): Promise<ThrottleDecision> {
    const bucket = linkedInBucketOf(account, action);
    return this.throttle.take(bucket.id, bucket.limits, member, opts);
  }

  /** Actions each account took today of `action` (to choose among a pool's accounts). */
  async usedToday(accountIds: string[], action: LinkedInAction): Promise<Map<string, number>> {
    const byBucket = await this.throttle.usedToday(accountIds.map((id) => linkedInBucketId(id, action)));
    return new Map(accountIds.map((id) => [id, byBucket.get(linkedInBucketId(id, action)) ?? 0]));
  }
}
