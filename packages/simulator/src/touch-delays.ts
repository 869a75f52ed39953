import { placeInWindow } from '@touchbase/core';
import type { Timing } from './zone-timings.js';

/**
 * The pending touch's delay bookkeeping, per enrollment: the ms its window and its
 * contact policies held it beyond its placing (a send's `windowDelay` and
 * `policyDelay`), and the sending identity whose timing placed it. The sender's
 * "window closed?" check ({@link TouchDelays.waitsForWindow}) and a contact policy's
 * hold ({@link TouchDelays.hold}) add to them; a new node's touch starts them anew.
 */
export class TouchDelays {
  /** ms the pending touch waited for its window after it was placed. */
  readonly windowExtra: Float64Array;
  /** ms the pending touch was held by a contact policy. */
  readonly policyExtra: Float64Array;
  /**
   * The sending identity whose timing placed the pending touch (-1: none yet): a mailbox,
   * or a LinkedIn account numbered after them. Placing is idempotent, so the sender's
   * "window closed?" check can only move a touch placed for another identity (a pool's
   * first touch, a LinkedIn action scheduled by its mailbox's timing): the others skip it.
   */
  readonly placedFor: Int16Array;
  // Whether the pending touch comes back from a hold (its next wait for the window is the policy's too).
  private readonly heldUntilNow: Uint8Array;

  constructor(
    count: number,
    private readonly pushTouch: (time: number, e: number) => void,
    private readonly clock: { windowWaits: number },
  ) {
    this.windowExtra = new Float64Array(count);
    this.policyExtra = new Float64Array(count);
    this.placedFor = new Int16Array(count).fill(-1);
    this.heldUntilNow = new Uint8Array(count);
  }

  /** Enrollment `e`'s next touch, placed by `identity`'s timing: no delay yet. */
  reset(e: number, identity: number): void {
    this.placedFor[e] = identity;
    this.windowExtra[e] = 0;
    this.policyExtra[e] = 0;
  }

  /**
   * The sender's "window closed?" check for a touch about to go out from sending identity
   * `identity` (a mailbox, or a LinkedIn account after the mailboxes): when `t` is outside
   * the identity's window the touch comes back when it opens (true). Placing is idempotent,
   * so a touch already placed for this identity skips it.
   */
  waitsForWindow(e: number, identity: number, timing: Timing, t: number): boolean {
    const held = this.heldUntilNow[e] === 1;
    this.heldUntilNow[e] = 0;
    if (!timing.window || this.placedFor[e] === identity) return false;
    this.placedFor[e] = identity;
    const opens = placeInWindow(new Date(t), timing).getTime();
    if (opens <= t) return false;
    this.clock.windowWaits++;
    // A hold ends at the day's start, mostly outside the window: the wait that follows is the policy's.
    if (held) this.policyExtra[e] = this.policyExtra[e]! + (opens - t);
    else this.windowExtra[e] = this.windowExtra[e]! + (opens - t);
    this.pushTouch(opens, e);
    return true;
  }

  /** A contact policy holds the touch at `t` until `until`: it comes back then, to wait for its window again. */
  hold(e: number, until: number, t: number): void {
    this.policyExtra[e] = this.policyExtra[e]! + (until - t);
    this.placedFor[e] = -1;
    this.heldUntilNow[e] = 1;
    this.pushTouch(until, e);
  }
}
