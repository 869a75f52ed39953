import {
  addWait,
  dueAfterDelay,
  firstTouchDue,
  outOfOfficeResumeAt,
  parseDuration,
  placeInWindow,
  resolveTimeZone,
  type SendingWindow,
  seededRandom,
  sendingWindowOf,
  type TouchTiming,
} from '@touchbase/core';
import { drawFor } from './draw.js';
import { EventQueue } from './event-queue.js';
import type { Population } from './prospects.js';
import type { PlanNode, SequencePlan, TouchOutcome } from './sequence-plan.js';
import { SimulatedBucket } from './simulated-bucket.js';
import type { SimulatedMailbox, SimulationSettings } from './simulation.schemas.js';

const DAY = 86_400_000;

/** How an enrollment stands when the run stops. */
export const ENROLLMENT_STATUS = ['active', 'replied', 'bounced', 'exhausted'] as const;
// 0 is active: a fresh Uint8Array starts every enrollment active.
const REPLIED = 1;
const BOUNCED = 2;
const EXHAUSTED = 3;

/** Salts of {@link drawFor}, one per decision, so no two decisions share a number. */
const SALT = { outcome: 0, pacing: 1, jitter: 2, poolTie: 3 } as const;

/** Everything one run produced, as columns (one entry per send, per enrollment). */
export type CampaignRun = {
  start: number;
  horizonEnd: number;
  mailboxes: SimulatedMailbox[];
  nodes: readonly PlanNode[];
  sends: {
    at: number[];
    /** The enrollment (index of its prospect in the population). */
    enrollment: number[];
    mailbox: number[];
    node: number[];
    /** ms the touch waited for its window (the first placement, and any later wait for it to open). */
    windowDelay: number[];
    /** ms the touch waited for its mailbox's caps (token refusals, and the window after them). */
    capDelay: number[];
    outcome: TouchOutcome[];
  };
  /** Per enrollment: index into {@link ENROLLMENT_STATUS}. */
  status: Uint8Array;
  /** Per enrollment: the node its next touch is at (for those still active at the horizon). */
  node: Int16Array;
  /** Per mailbox's domain, per UTC day since the start's: sends, and bounces by the day they arrive. */
  domainDays: Map<string, { sends: number[]; bounces: number[] }>;
  /** What the virtual clock did: touch attempts, waits for a window, refusals by a bucket. */
  events: { attempts: number; windowWaits: number; capWaits: number };
};

type Timing = TouchTiming & { window: SendingWindow | null };

/**
 * Runs one campaign on a virtual clock with the live system's rules: first touches
 * spread by campaign pacing and placed in the window (`firstTouchDue`, as the API
 * enrolls), follow-ups after their wait on the prospect's calendar (`addWait`)
 * then placed in the window (`placeInWindow`: together the sender's `dueAfterWait`),
 * a touch due outside its window waits for it (the sender's `windowClosedUntil`),
 * a pool sequence's first touch from the member with most room, and each send
 * takes a token of its mailbox's bucket or comes back after the bucket's wait,
 * placed in the window again (`dueAfterDelay`), giving its place in line up when
 * the window moved it (the sender's throttle release). Outcomes are drawn per
 * prospect and step from the seed; an out-of-office pauses until `outOfOfficeResumeAt`.
 * Nothing is sent and nothing outside the run is read or written.
 */
export function runCampaign(
  settings: SimulationSettings,
  mailboxes: SimulatedMailbox[],
  plan: SequencePlan,
  population: Population,
): CampaignRun {
  const start = Date.parse(settings.start);
  const horizonEnd = start + settings.horizonDays * DAY;
  const startDay = Math.floor(start / DAY);
  const seed = settings.seed;
  const count = population.timeZones.length;
  const pool = settings.assignment === 'pool' && mailboxes.length > 1;
  const responseDelay = parseDuration(settings.responseDelay);
  const odds = oddsTable(settings, plan.nodes.length);
  const nodes = plan.nodes;

  const spacingRandom = seededRandom(seed ^ 0x5bd1e995);
  const buckets = mailboxes.map((m) => new SimulatedBucket(m, settings.spacingJitter, spacingRandom));
  const domainOf = mailboxes.map((m) => m.domain ?? m.id.split('@')[1] ?? m.id);
  const domainDays = new Map<string, { sends: number[]; bounces: number[] }>();
  for (const d of domainOf) if (!domainDays.has(d)) domainDays.set(d, { sends: [], bounces: [] });

  const status = new Uint8Array(count);
  const mailboxOf = new Int16Array(count).fill(-1);
  const nodeOf = new Int16Array(count);
  const raw = new Float64Array(count);
  const placed = new Float64Array(count);
  const windowExtra = new Float64Array(count);
  // The mailbox whose timing placed the pending touch (-1: none yet). Placing is
  // idempotent, so the sender's "window closed?" check can only move a touch
  // placed for another mailbox (a pool's first touch): the others skip it.
  const placedFor = new Int16Array(count).fill(-1);
  const threadStarted = new Uint8Array(count);
  const sends: CampaignRun['sends'] = {
    at: [],
    enrollment: [],
    mailbox: [],
    node: [],
    windowDelay: [],
    capDelay: [],
    outcome: [],
  };

  // One timing per (mailbox, zone): resolving and validating a zone costs more than a placement.
  const timings = new Map<string, Timing>();
  let jitterDraw = 0;
  const jitterRandom = () => jitterDraw;
  const timingOf = (m: number, e: number, jitter: boolean): Timing => {
    const zone = population.timeZones[e] ?? null;
    const key = `${m}|${zone ?? ''}|${jitter ? 1 : 0}`;
    let t = timings.get(key);
    if (!t) {
      const mb = mailboxes[m] as SimulatedMailbox;
      t = {
        timeZone: resolveTimeZone(zone, mb.timezone),
        window: sendingWindowOf(settings.sequence.window ?? null, mb),
        timeScale: 1,
        ...(jitter && settings.jitterMs > 0 ? { jitterMs: settings.jitterMs, random: jitterRandom } : {}),
      };
      timings.set(key, t);
    }
    return t;
  };

  const queue = new EventQueue();
  const mailboxCount = mailboxes.length;
  for (let e = 0; e < count; e++) {
    // Round-robin: one enrollment request per mailbox, so pacing restarts at each one's first prospect.
    const m = pool ? 0 : e % mailboxCount;
    if (!pool) mailboxOf[e] = m;
    const index = pool ? e : Math.floor(e / mailboxCount);
    const r = drawFor(seed, e, 0, SALT.pacing);
    const timing = { ...timingOf(m, e, false), random: () => r };
    const offset = settings.pacingMs > 0 ? index * settings.pacingMs + Math.floor(r * settings.pacingMs) : 0;
    const due = firstTouchDue(new Date(start), index, settings.pacingMs, timing).getTime();
    raw[e] = start + offset;
    placed[e] = due;
    placedFor[e] = m;
    queue.push(due, e);
  }

  const dayOf = (t: number) => Math.floor(t / DAY) - startDay;
  const bump = (list: number[], day: number) => {
    while (list.length <= day) list.push(0);
    list[day] = (list[day] as number) + 1;
  };

  const send = (e: number, n: number, m: number, t: number) => {
    const node = nodes[n] as PlanNode;
    const r = drawFor(seed, e, n, SALT.outcome);
    const o = odds[n] as { bounce: number; reply: number; ooo: number };
    const outcome: TouchOutcome =
      r < o.bounce
        ? 'bounced'
        : r < o.bounce + o.reply
          ? 'replied'
          : r < o.bounce + o.reply + o.ooo
            ? 'out_of_office'
            : 'sent';
    threadStarted[e] = 1;
    const windowDelay = placed[e]! - raw[e]! + windowExtra[e]!;
    sends.at.push(t);
    sends.enrollment.push(e);
    sends.mailbox.push(m);
    sends.node.push(n);
    sends.windowDelay.push(windowDelay);
    sends.capDelay.push(Math.max(0, t - raw[e]! - windowDelay));
    sends.outcome.push(outcome);
    const days = domainDays.get(domainOf[m] as string)!;
    bump(days.sends, dayOf(t));
    if (outcome === 'bounced') bump(days.bounces, dayOf(t + responseDelay));

    // A graph may fan out; today's chain gives one action, and an enrollment has one pending touch.
    const action = plan.next(node, outcome)[0];
    if (!action || action.kind === 'end') {
      status[e] = action?.reason === 'replied' ? REPLIED : action?.reason === 'bounced' ? BOUNCED : EXHAUSTED;
      return;
    }
    const at = action.node.index;
    nodeOf[e] = at;
    placedFor[e] = m;
    windowExtra[e] = 0;
    if (action.afterOutOfOffice) {
      // Ingest pauses the enrollment until the return (no date: the default) and the
      // scheduler resumes it at the next step, due then; the sender waits for the window.
      const back = outOfOfficeResumeAt(new Date(t + responseDelay), null).getTime();
      raw[e] = back;
      placed[e] = placeInWindow(new Date(back), timingOf(m, e, false)).getTime();
    } else {
      jitterDraw = drawFor(seed, e, at, SALT.jitter);
      const timing = timingOf(m, e, true);
      const due = addWait(new Date(t), action.wait, timing.timeZone);
      raw[e] = due.getTime();
      placed[e] = placeInWindow(due, timing).getTime();
    }
    queue.push(placed[e]!, e);
  };

  // Scratch space of the pool's ranking, reused: a pool ranks its members at every
  // attempt of every first touch.
  const rooms = new Float64Array(mailboxCount);
  const order = Array.from({ length: mailboxCount }, (_, i) => i);
  const byRoom = (a: number, b: number) => rooms[b]! - rooms[a]! || a - b;
  const pickPoolMailbox = (e: number, n: number, t: number): { m: number; granted: boolean } => {
    const tie = Math.floor(drawFor(seed, e, n, SALT.poolTie) * 4294967296);
    for (let i = 0; i < mailboxCount; i++) {
      rooms[i] = mailboxes[i]!.perDay - buckets[i]!.usedToday(t) + drawFor(tie, i, 0, SALT.poolTie) * 0.5;
      order[i] = i;
    }
    order.sort(byRoom);
    const member = e * 32 + n;
    for (const i of order) {
      if (buckets[i]!.take(member, t, false).granted) return { m: i, granted: true };
    }
    return { m: order[0]!, granted: false };
  };

  const events = { attempts: 0, windowWaits: 0, capWaits: 0 };
  while (queue.size > 0 && queue.peekTime() <= horizonEnd) {
    events.attempts++;
    const t = queue.peekTime();
    const e = queue.pop();
    const n = nodeOf[e]!;
    let m = mailboxOf[e]!;
    let granted = false;
    // Until its first touch went out (no thread yet) a pool enrollment picks again at
    // every attempt, as the sender does: a touch back from a cap wait may move to
    // the member with most room now.
    if (pool && threadStarted[e] === 0) {
      const picked = pickPoolMailbox(e, n, t);
      m = picked.m;
      granted = picked.granted;
      mailboxOf[e] = m;
    }
    const timing = timingOf(m, e, false);
    if (timing.window && placedFor[e] !== m) {
      placedFor[e] = m;
      const opens = placeInWindow(new Date(t), timing).getTime();
      if (opens > t) {
        events.windowWaits++;
        windowExtra[e] = windowExtra[e]! + (opens - t);
        queue.push(opens, e);
        continue;
      }
    }
    if (!granted) {
      const decision = buckets[m]!.take(e * 32 + n, t, true);
      if (!decision.granted) {
        events.capWaits++;
        const retry = dueAfterDelay(new Date(t), decision.waitMs, timing).getTime();
        // Its slot falls outside its window, so it comes back later: it gives the slot up
        // (the sender's throttle release), or the slot would stand empty in the caps.
        if (retry > t + decision.waitMs) buckets[m]!.release(e * 32 + n);
        queue.push(retry, e);
        continue;
      }
    }
    send(e, n, m, t);
  }

  return { start, horizonEnd, mailboxes, nodes, sends, status, node: nodeOf, domainDays, events };
}

function oddsTable(settings: SimulationSettings, steps: number) {
  const at = (v: number | number[], i: number): number =>
    typeof v === 'number' ? v : (v[Math.min(i, v.length - 1)] as number);
  return Array.from({ length: steps }, (_, i) => ({
    bounce: at(settings.odds.bounce, i),
    reply: at(settings.odds.reply, i),
    ooo: at(settings.odds.outOfOffice, i),
  }));
}
