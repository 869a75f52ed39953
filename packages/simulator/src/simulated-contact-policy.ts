import {
  type ContactCounts,
  type ContactHold,
  type ContactHoldReason,
  type ContactPolicy,
  contactCountsNeeded,
  contactDayOf,
  contactHold,
} from '@touchbase/core';
import type { Population } from './prospects.js';

/** What the day caps counted before a run, on the day from `dayStart` (the input's `sequence.countedToday`). */
export type CountedBefore = { dayStart: string; firstTouches: number; domainTouches: Record<string, number> };

/** A scope's touches that went out, in time order, with their keys. */
type Sent = { at: number[]; keys: number[] };

/**
 * The sender's contact policies on the virtual clock: the counts the repository's
 * `ContactPolicyRepository.check` takes under its lock, and core's `contactHold`
 * deciding from them. A touch that may go takes its slots in the day caps (the
 * sequence's for a first touch under the new-people cap, its company's under the
 * recipient-domain cap), kept even when a bucket then makes it wait, as the
 * `contact_slot` rows are; a day counts the slots of its start and the touches sent
 * since, this touch never. The day is the mailbox's (core's `contactDayOf`), and the
 * cooldown counts from the person's last touch by another enrollment (the input's
 * `lastContactAt`: a run enrolls each person once, so none of its own count).
 */
export class SimulatedContactPolicy {
  /** Slots by `{scope}|{dayStart}`: the keys of the touches that took one. */
  private readonly slots = new Map<string, Set<number>>();
  private readonly sent = new Map<string, Sent>();
  /** Per zone, the last day looked up: a day's bounds are asked for again and again. */
  private readonly days = new Map<string, { start: number; end: number }>();
  /** What the day caps counted before the run, by `{scope}|{dayStart}`. */
  private readonly before = new Map<string, number>();
  /** Holds by reason. */
  readonly holds: Record<ContactHoldReason, number> = {
    cooldown: 0,
    new_people_cap: 0,
    recipient_domain_cap: 0,
  };

  /**
   * @param oneZone every mailbox counts its days in one zone: then a touch sent since
   *   the start of today took a slot of today, and the slots alone count the day
   * @param counted what the day caps counted before the run (touches the live system
   *   sent or slotted today), added to that day's counts
   */
  constructor(
    private readonly policy: ContactPolicy,
    private readonly population: Population,
    private readonly oneZone: boolean,
    counted: readonly CountedBefore[] = [],
  ) {
    for (const day of counted) {
      const at = Date.parse(day.dayStart);
      this.before.set(`sequence|${at}`, day.firstTouches);
      for (const [domain, n] of Object.entries(day.domainTouches))
        this.before.set(`domain:${domain}|${at}`, n);
    }
  }

  /**
   * Whether the touch `key` of enrollment `e` waits for a policy at `t` (the hold),
   * or may go (null; its slots are then taken).
   */
  check(e: number, key: number, firstTouch: boolean, timeZone: string, t: number): ContactHold | null {
    const needs = contactCountsNeeded(this.policy, firstTouch);
    if (!needs.lastContact && !needs.firstTouchesToday && !needs.domainTouchesToday) return null;
    const last = this.population.lastContactAt?.[e] ?? Number.NaN;
    const company = this.population.companyDomains?.[e] ?? null;
    const counting = needs.firstTouchesToday || (needs.domainTouchesToday && company !== null);
    const day = counting ? this.dayOf(t, timeZone) : undefined;
    const dayStart = day?.start ?? 0;
    const scopes: string[] = [];
    if (needs.firstTouchesToday) scopes.push('sequence');
    if (needs.domainTouchesToday && company !== null) scopes.push(`domain:${company}`);
    const counts: ContactCounts = {
      lastContactAt: needs.lastContact && !Number.isNaN(last) ? new Date(last) : null,
      firstTouchesToday: needs.firstTouchesToday ? this.count('sequence', dayStart, key) : 0,
      domainTouchesToday:
        needs.domainTouchesToday && company !== null ? this.count(`domain:${company}`, dayStart, key) : null,
    };
    const hold = contactHold(
      this.policy,
      { firstTouch, timeZone },
      counts,
      new Date(t),
      day && { end: new Date(day.end) },
    );
    if (hold) {
      this.holds[hold.reason]++;
      return hold;
    }
    for (const scope of scopes) {
      const id = `${scope}|${dayStart}`;
      const set = this.slots.get(id) ?? new Set<number>();
      this.slots.set(id, set);
      set.add(key);
    }
    return null;
  }

  /** The touch `key` of enrollment `e` went out at `t`: the day caps count it. */
  wentOut(e: number, key: number, firstTouch: boolean, t: number): void {
    if (firstTouch && this.policy.newPeoplePerDay !== null) this.push('sequence', key, t);
    const company = this.population.companyDomains?.[e] ?? null;
    if (company !== null && this.policy.recipientDomainPerDay !== null)
      this.push(`domain:${company}`, key, t);
  }

  private push(scope: string, key: number, t: number): void {
    const list = this.sent.get(scope) ?? { at: [], keys: [] };
    this.sent.set(scope, list);
    list.at.push(t);
    list.keys.push(key);
  }

  /** The slots of the day and the touches since its start, each once, this touch never (the repository's UNION). */
  private count(scope: string, dayStart: number, key: number): number {
    const slot = this.slots.get(`${scope}|${dayStart}`);
    let n = (this.before.get(`${scope}|${dayStart}`) ?? 0) + (slot ? slot.size - (slot.has(key) ? 1 : 0) : 0);
    const list = this.sent.get(scope);
    if (!list || this.oneZone) return n;
    // Sends are in time order (the virtual clock only moves on): the day's are the tail.
    let lo = 0;
    let hi = list.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list.at[mid]! < dayStart) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < list.at.length; i++) {
      const k = list.keys[i]!;
      if (k !== key && !slot?.has(k)) n++;
    }
    return n;
  }

  /** Core's `contactDayOf` in ms, remembered per zone while the clock stays in the day. */
  private dayOf(t: number, timeZone: string): { start: number; end: number } {
    const known = this.days.get(timeZone);
    if (known && known.start <= t && t < known.end) return known;
    const day = contactDayOf(new Date(t), { timeZone });
    const bounds = { start: day.start.getTime(), end: day.end.getTime() };
    this.days.set(timeZone, bounds);
    return bounds;
  }
}
