import { resolveTimeZone, type SendingWindow, sendingWindowOf, type TouchTiming } from '@touchbase/core';
import type { Population } from './prospects.js';
import type { SimulatedMailbox, SimulationSettings } from './simulation.schemas.js';

/** A touch's timing: the prospect's zone, the window in force, and the jitter when asked. */
export type Timing = TouchTiming & { window: SendingWindow | null };

/**
 * One timing per (mailbox, zone, jitter), built on first use: resolving and
 * validating a zone costs more than a placement, and a lookup by number costs less
 * than one by a built string key. A jittered timing draws its jitter from
 * {@link ZoneTimings.jitterDraw}, which the run sets before placing a touch.
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

  /** The timing of enrollment `e`'s touches from mailbox `m` (with jitter when `jitter`). */
  of(m: number, e: number, jitter: boolean): Timing {
    const key = (m * this.zoneNames.length + this.zoneOf[e]!) * 2 + (jitter ? 1 : 0);
    let t = this.timings[key];
    if (!t) {
      const mb = this.mailboxes[m] as SimulatedMailbox;
      const { settings } = this;
      t = {
        timeZone: resolveTimeZone(this.zoneNames[this.zoneOf[e]!] ?? null, mb.timezone),
        window: sendingWindowOf(settings.sequence.window ?? null, mb),
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
