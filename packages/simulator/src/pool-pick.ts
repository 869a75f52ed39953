import { drawFor } from './draw.js';
import type { SimulatedBucket } from './simulated-bucket.js';
import type { SimulatedMailbox } from './simulation.schemas.js';

/** The salt of the pool's tie-break draws (the run's `SALT.poolTie`). */
const POOL_TIE_SALT = 3;

/**
 * A pool sequence's first e-mail from the member with most room today (its daily
 * cap less what its bucket counted), a random half-unit breaking ties as the sender
 * does, drawn from `tie`; members are tried in that order until one grants.
 */
export class PoolPick {
  // Scratch space of the ranking, reused: a pool ranks its members at every
  // attempt of every first touch.
  private readonly rooms: Float64Array;
  private readonly tried: Uint8Array;

  constructor(
    private readonly mailboxes: readonly SimulatedMailbox[],
    private readonly buckets: readonly SimulatedBucket[],
  ) {
    this.rooms = new Float64Array(mailboxes.length);
    this.tried = new Uint8Array(mailboxes.length);
  }

  /** The member that granted `member` a token at `t`, or the roomiest (not granted) when none did. */
  pick(tie: number, member: number, t: number): { m: number; granted: boolean } {
    const { rooms, tried, mailboxes, buckets } = this;
    const count = mailboxes.length;
    for (let i = 0; i < count; i++) {
      rooms[i] = mailboxes[i]!.perDay - buckets[i]!.usedToday(t) + drawFor(tie, i, 0, POOL_TIE_SALT) * 0.5;
      tried[i] = 0;
    }
    // The members by most room (the lower index on a tie), tried in that order until one
    // grants: picked one at a time, as the first usually grants and a full sort is wasted.
    let best = -1;
    for (let k = 0; k < count; k++) {
      let pick = -1;
      for (let i = 0; i < count; i++) {
        if (tried[i] === 0 && (pick < 0 || rooms[i]! > rooms[pick]!)) pick = i;
      }
      tried[pick] = 1;
      if (best < 0) best = pick;
      if (buckets[pick]!.take(member, t, false).granted) return { m: pick, granted: true };
    }
    return { m: best, granted: false };
  }
}
