import { type LinkedInAction, linkedInActionLimits, linkedInActionOf } from '@touchbase/core';
import { drawFor } from './draw.js';
import { type BucketDecision, SimulatedBucket } from './simulated-bucket.js';
import type { SimulatedLinkedInAccount } from './simulation.schemas.js';

/** The LinkedIn action of a node (the sender's): core's. */
export { linkedInActionOf };

/** The actions, in the order the report lists them. */
export const LINKEDIN_ACTIONS: readonly LinkedInAction[] = ['invitation', 'message', 'profile_visit'];

/** The actions' names in words (the summary, the binding constraint, the picture). */
export const LINKEDIN_ACTION_NAME: Record<LinkedInAction, string> = {
  invitation: 'invitation',
  message: 'message',
  profile_visit: 'profile visit',
};

/** A LinkedIn action's token: granted, a wait, or never (the account's cap for it is 0). */
export type LinkedInDecision = BucketDecision | { granted: false; never: true };

/**
 * The LinkedIn accounts of a run, under the caps the live sender holds them to: one
 * token bucket per (account, action) with core's `linkedInActionLimits` (invitations
 * a day and a week, messages and profile visits a day, an hourly cap and the
 * account's spacing; the sender's `LinkedInThrottle` over the same Lua bucket the
 * {@link SimulatedBucket} mirrors). An enrollment takes the account with the fewest
 * actions of the kind today at its first LinkedIn node (the sender's `pickAccount`,
 * its random tie-break drawn from the seed) and keeps it.
 */
export class SimulatedLinkedIn {
  private readonly buckets: SimulatedBucket[][];
  private readonly off: boolean[][];
  private readonly accountOf: Int16Array;

  constructor(
    readonly accounts: readonly SimulatedLinkedInAccount[],
    enrollments: number,
    private readonly seed: number,
    spacingJitter: number,
    random: () => number,
  ) {
    this.buckets = accounts.map((a) =>
      LINKEDIN_ACTIONS.map(
        (action) => new SimulatedBucket(linkedInActionLimits(a, action), spacingJitter, random),
      ),
    );
    this.off = accounts.map((a) =>
      LINKEDIN_ACTIONS.map((action) => linkedInActionLimits(a, action).perDay === 0),
    );
    this.accountOf = new Int16Array(enrollments).fill(-1);
  }

  /** The account enrollment `e` sends from (-1 before its first LinkedIn action). */
  account(e: number): number {
    return this.accountOf[e]!;
  }

  /**
   * The account enrollment `e` sends `action` from at node `n` at `t`: the one it keeps,
   * else the one it chooses now and keeps (the sender picks before the window wait).
   */
  choose(e: number, n: number, action: LinkedInAction, t: number, salt: number): number {
    let a = this.accountOf[e]!;
    if (a < 0) {
      a = this.pick(e, n, LINKEDIN_ACTIONS.indexOf(action), t, salt);
      this.accountOf[e] = a;
    }
    return a;
  }

  /** Takes a token of `action` for enrollment `e` at node `n` at `t`, from the account it chose ({@link choose}). */
  take(e: number, n: number, action: LinkedInAction, t: number): LinkedInDecision {
    const k = LINKEDIN_ACTIONS.indexOf(action);
    const a = this.accountOf[e]!;
    if (this.off[a]![k]) return { granted: false, never: true };
    return this.buckets[a]![k]!.take(e * 32 + n, t, true);
  }

  private pick(e: number, n: number, k: number, t: number, salt: number): number {
    let best = 0;
    let bestRank = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.accounts.length; i++) {
      // The sender ranks by actions today plus a random half-unit: it breaks ties only.
      const rank = this.buckets[i]![k]!.usedToday(t) + (drawFor(this.seed, e * 32 + n, i, salt) - 0.5) * 0.5;
      if (rank < bestRank) {
        best = i;
        bestRank = rank;
      }
    }
    return best;
  }
}
