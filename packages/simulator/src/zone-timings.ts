import {
  type SendingWindow,
  type SequenceAction,
  type TimingSource,
  type TouchTiming,
  timingSourceFor,
  touchTimingOf,
} from '@touchbase/core';
import type { Population } from './prospects.js';
import type { SimulatedLinkedInAccount, SimulatedMailbox, SimulationSettings } from './simulation.schemas.js';

/** A touch's timing: the prospect's zone, the window in force, and the jitter when asked. */
export type Timing = TouchTiming & { window: SendingWindow | null };

/**
 * One timing per (sending identity, zone, jitter), built on first use by core's
 * `touchTimingOf` over `timingSourceFor` (the rule the sender times a touch by):
 * resolving and validating a zone costs more than a placement, and a lookup by
 * number costs less than one by a built string key. The identities are numbered
 * mailboxes first, then LinkedIn accounts ({@link ZoneTimings.identityOf}). A
 * jittered timing draws its jitter from {@link ZoneTimings.jitterDraw}, which the
 * run sets before placing a touch.
 */
export class ZoneTimings {
  /** The draw the next jittered placement uses (the run sets it from the seed). */
  jitterDraw = 0;
  private readonly zoneNames: (string | null)[] = [];
  private readonly zoneOf: Int32Array;
  private readonly timings: (Timing | undefined)[] = [];
  private readonly jitterRandom = () => this.jitterDraw;

  constructor(
    private readonly settings: SimulationSettings,
    private readonly mailboxes: readonly SimulatedMailbox[],
    private readonly accounts: readonly SimulatedLinkedInAccount[],
    population: Population,
  ) {
    const count = population.timeZones.length;
    const zoneIndex = new Map<string | null, number>();
    this.zoneOf = new Int32Array(count);
    for (let e = 0; e < count; e++) {
      const zone = population.timeZones[e] ?? null;
      let z = zoneIndex.get(zone);
      if (z === undefined) {
        z = this.zoneNames.length;
        this.zoneNames.push(zone);
        zoneIndex.set(zone, z);
      }
      this.zoneOf[e] = z;
    }
  }

  /** The number of LinkedIn account `a` among the identities (after the mailboxes). */
  identityOf(a: number): number {
    return this.mailboxes.length + a;
  }

  /** The timing of enrollment `e`'s touches from mailbox `m` (with jitter when `jitter`). */
  of(m: number, e: number, jitter: boolean): Timing {
    return this.cached(m, e, jitter, () => this.source(m, e));
  }

  /**
   * The timing of enrollment `e`'s LinkedIn `action` from account `a` (its mailbox `m`
   * otherwise): the account's window and zone, as the sender times it.
   */
  ofLinkedIn(m: number, a: number, action: SequenceAction, e: number): Timing {
    return this.cached(this.identityOf(a), e, false, () =>
      timingSourceFor(this.source(m, e), action, this.accounts[a]),
    );
  }

  private source(m: number, e: number): TimingSource {
    return {
      prospect: { timezone: this.zoneNames[this.zoneOf[e]!] ?? null },
      mailbox: this.mailboxes[m] as SimulatedMailbox,
      sequenceWindow: this.settings.sequence.window ?? null,
    };
  }

  private cached(identity: number, e: number, jitter: boolean, source: () => TimingSource): Timing {
    const key = (identity * this.zoneNames.length + this.zoneOf[e]!) * 2 + (jitter ? 1 : 0);
    let t = this.timings[key];
    if (!t) {
      const { settings } = this;
      const base = touchTimingOf(source(), { timeScale: 1 });
      t = {
        timeZone: base.timeZone,
        window: base.window,
        timeScale: 1,
        ...(jitter && settings.jitterMs > 0
          ? { jitterMs: settings.jitterMs, random: this.jitterRandom }
          : {}),
      };
      this.timings[key] = t;
    }
    return t;
  }
}
