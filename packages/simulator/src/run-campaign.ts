import {
  addWait,
  dueAfterDelay,
  dueAfterWait,
  firstTouchDue,
  isFirstTouch,
  outOfOfficeResumeAt,
  parseDuration,
  placeInWindow,
  seededRandom,
} from '@touchbase/core';
import { BOUNCED, type CampaignRun, EXHAUSTED, REPLIED } from './campaign-run.js';
import { drawFor } from './draw.js';
import { EventQueue } from './event-queue.js';
import { oddsTable, outcomeOf } from './node-odds.js';
import { PoolPick } from './pool-pick.js';
import type { Population } from './prospects.js';
import type { PlanEvent, PlanMove, PlanNode, SequencePlan } from './sequence-plan.js';
import { SimulatedBucket } from './simulated-bucket.js';
import { SimulatedContactPolicy } from './simulated-contact-policy.js';
import { linkedInActionOf, SimulatedLinkedIn } from './simulated-linkedin.js';
import type { SimulatedLinkedInAccount, SimulatedMailbox, SimulationSettings } from './simulation.schemas.js';
import { TouchDelays } from './touch-delays.js';
import { ZoneTimings } from './zone-timings.js';

export { type CampaignRun, ENROLLMENT_STATUS } from './campaign-run.js';

const DAY = 86_400_000;

/** Salts of {@link drawFor}, one per decision, so no two decisions share a number. */
const SALT = { outcome: 0, pacing: 1, jitter: 2, poolTie: 3, engage: 4, linkedin: 5, accountTie: 6 } as const;

/** The events a touch may bring, in the order they arrive (an open before its click). */
const EVENTS: readonly PlanEvent[] = ['opened', 'clicked', 'connection_accepted'];

/**
 * Runs one campaign on a virtual clock with the live system's rules: first touches
 * spread by campaign pacing and placed in the window (`firstTouchDue`, as the API
 * enrolls), follow-ups after their wait on the prospect's calendar (`addWait`)
 * then placed in the window (`placeInWindow`: together the sender's `dueAfterWait`),
 * a touch due outside its window waits for it (the sender's `windowClosedUntil`),
 * a pool sequence's first e-mail from the member with most room, and each e-mail
 * takes a token of its mailbox's bucket or comes back after the bucket's wait,
 * placed in the window again (`dueAfterDelay`), giving its place in line up when
 * the window moved it (the sender's throttle release). The graph is walked by the
 * plan (the live walk's functions): after a touch along its first timeout, after
 * a failed LinkedIn action along its failure edge, and on an open, a click or an
 * accepted invitation (arriving `responseDelay` after the touch) along that
 * event's edge if the pending touch has not gone out yet, as ingest does, after
 * which no other event of that node's run moves it. Outcomes are drawn per
 * prospect, node and pass (a loop's node runs again with a draw of its own) from the seed; a reply or a hard bounce ends the enrollment;
 * an out-of-office pauses it until `outOfOfficeResumeAt`. LinkedIn actions and
 * manual tasks take no mailbox's token; a LinkedIn action takes one of its account's
 * bucket for that action ({@link SimulatedLinkedIn}) or waits for it. An e-mail or a
 * LinkedIn action inside its window meets the sequence's contact policies before its
 * token, as the sender's `holdForContactPolicy` ({@link SimulatedContactPolicy}): a
 * touch held comes back when the hold ends, to wait for its window again.
 * Nothing is sent and nothing outside the run is read or written.
 */
export function runCampaign(
  settings: SimulationSettings,
  mailboxes: SimulatedMailbox[],
  plan: SequencePlan,
  population: Population,
  linkedinAccounts: readonly SimulatedLinkedInAccount[] = settings.linkedinAccounts,
): CampaignRun {
  const start = Date.parse(settings.start);
  const horizonEnd = start + settings.horizonDays * DAY;
  const startDay = Math.floor(start / DAY);
  const seed = settings.seed;
  const count = population.timeZones.length;
  const pool = settings.assignment === 'pool' && mailboxes.length > 1;
  const responseDelay = parseDuration(settings.responseDelay);
  const nodes = plan.nodes;
  const odds = oddsTable(settings, nodes);
  // Per node, the events that could move an enrollment waiting after it: only those are queued.
  const movedBy = nodes.map((n) => EVENTS.map((ev) => plan.onEvent(n, ev) !== null));

  const spacingRandom = seededRandom(seed ^ 0x5bd1e995);
  const buckets = mailboxes.map((m) => new SimulatedBucket(m, settings.spacingJitter, spacingRandom));
  const linkedin = new SimulatedLinkedIn(
    linkedinAccounts,
    count,
    seed,
    settings.spacingJitter,
    spacingRandom,
  );
  const actionOf = nodes.map((n) => linkedInActionOf(n.action));
  const domainOf = mailboxes.map((m) => m.domain ?? m.id.split('@')[1] ?? m.id);
  const domainDays = new Map<string, { sends: number[]; bounces: number[] }>();
  for (const d of domainOf) if (!domainDays.has(d)) domainDays.set(d, { sends: [], bounces: [] });

  const status = new Uint8Array(count);
  const mailboxOf = new Int16Array(count).fill(-1);
  const nodeOf = new Int16Array(count);
  const raw = new Float64Array(count);
  const placed = new Float64Array(count);
  const contact = new SimulatedContactPolicy(
    { ...settings.sequence.contactPolicy, exclusive: settings.sequence.exclusive },
    population,
    new Set(mailboxes.map((m) => m.timezone)).size === 1,
    settings.sequence.countedToday,
  );
  // The touch's slot key in the contact policies' day caps (as the live `touchKey`, one per node run).
  const touchKeyOf = (e: number, n: number) => e * 1_048_576 + drawKey(e, n);
  // The sender's `isFirstTouch`: step 1, first attempt (the simulator resends nothing), no thread yet.
  const firstTouchOf = (e: number, n: number) =>
    isFirstTouch({ step: n + 1, attempt: 1, conversationId: threadStarted[e] === 1 ? 'thread' : null });
  const threadStarted = new Uint8Array(count);
  // Per (enrollment, node): the runs it made of the node so far. A node of a loop runs
  // again, and its draws are keyed by (enrollment, node, pass), so each pass meets its
  // own odds; the first pass keys as (enrollment, node) alone, as before loops counted.
  const nodeCount = nodes.length;
  const passes = new Uint32Array(count * nodeCount);
  const drawKey = (e: number, n: number) => (n < nodeCount ? n + nodeCount * passes[e * nodeCount + n]! : n);
  // Bumped at each touch and each edge an event takes: a queued touch or event of
  // an older epoch is stale (the enrollment moved on), as the live claim's fence
  // and ingest's `waiting_node` make it.
  const epoch = new Uint32Array(count);
  const sends: CampaignRun['sends'] = {
    at: [],
    enrollment: [],
    mailbox: [],
    account: [],
    node: [],
    windowDelay: [],
    policyDelay: [],
    capDelay: [],
    outcome: [],
  };
  const zeros = () => nodes.map(() => 0);
  const events: CampaignRun['events'] = {
    opened: zeros(),
    clicked: zeros(),
    accepted: zeros(),
    edgesTaken: zeros(),
  };
  // Queued events, by their number: the enrollment, the node, the event and the epoch it belongs to.
  const ev = {
    enrollment: [] as number[],
    node: [] as number[],
    kind: [] as number[],
    epoch: [] as number[],
  };

  const timings = new ZoneTimings(settings, mailboxes, linkedinAccounts, population);
  const timingOf = (m: number, e: number, jitter: boolean) => timings.of(m, e, jitter);

  const queue = new EventQueue();
  // A touch's queue item: the enrollment and its epoch; an event's: its number, negative.
  const pushTouch = (time: number, e: number) => queue.push(time, e + count * epoch[e]!);
  const clock = { attempts: 0, windowWaits: 0, capWaits: 0, linkedinWaits: 0 };
  const delays = new TouchDelays(count, pushTouch, clock);
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
    nodeOf[e] = plan.first().index;
    raw[e] = start + offset;
    placed[e] = due;
    delays.placedFor[e] = m;
    pushTouch(due, e);
  }

  const dayOf = (t: number) => Math.floor(t / DAY) - startDay;
  const bump = (list: number[], day: number) => {
    while (list.length <= day) list.push(0);
    list[day] = (list[day] as number) + 1;
  };

  /** The enrollment goes to `move`'s node, due after its wait from `t` (`how`: after a touch, an event's edge, an out-of-office). */
  const moveTo = (
    e: number,
    move: PlanMove,
    m: number,
    t: number,
    how: 'touch' | 'edge' | 'ooo',
    queued: boolean,
  ) => {
    if (move.node.channel === 'end' && !queued) {
      // Nothing can move it any more: exhausted now, as the end's job would make it.
      status[e] = EXHAUSTED;
      return;
    }
    const at = move.node.index;
    nodeOf[e] = at;
    delays.reset(e, m);
    if (how === 'ooo') {
      // Ingest pauses the enrollment until the return (no date: the default) and the
      // scheduler resumes it at the next node, due then; the sender waits for the window.
      const back = outOfOfficeResumeAt(new Date(t + responseDelay), null).getTime();
      raw[e] = back;
      placed[e] = placeInWindow(new Date(back), timingOf(m, e, false)).getTime();
    } else if (how === 'edge') {
      // Ingest's edge: the wait from the event, then the window (no jitter).
      const timing = timingOf(m, e, false);
      raw[e] = addWait(new Date(t), move.wait, timing.timeZone).getTime();
      placed[e] = dueAfterWait(new Date(t), move.wait, timing).getTime();
    } else {
      timings.jitterDraw = drawFor(seed, e, drawKey(e, at), SALT.jitter);
      const timing = timingOf(m, e, true);
      const due = addWait(new Date(t), move.wait, timing.timeZone);
      raw[e] = due.getTime();
      placed[e] = placeInWindow(due, timing).getTime();
    }
    pushTouch(placed[e]!, e);
  };

  const send = (e: number, n: number, m: number, t: number) => {
    const node = nodes[n] as PlanNode;
    const key = drawKey(e, n);
    passes[e * nodeCount + n] = passes[e * nodeCount + n]! + 1;
    const r = drawFor(seed, e, key, SALT.outcome);
    const o = odds[n]!;
    const email = node.channel === 'email';
    const outcome = outcomeOf(node, r, o);
    const windowDelay = placed[e]! - raw[e]! + delays.windowExtra[e]!;
    const policyDelay = delays.policyExtra[e]!;
    // Its slot key as checked (`key`: the pass before this run counted it).
    if (node.channel !== 'manual') contact.wentOut(e, e * 1_048_576 + key, firstTouchOf(e, n), t);
    sends.at.push(t);
    sends.enrollment.push(e);
    sends.mailbox.push(email ? m : -1);
    sends.account.push(actionOf[n] ? linkedin.account(e) : -1);
    sends.node.push(n);
    sends.windowDelay.push(windowDelay);
    sends.policyDelay.push(policyDelay);
    sends.capDelay.push(Math.max(0, t - raw[e]! - windowDelay - policyDelay));
    sends.outcome.push(outcome);
    epoch[e] = epoch[e]! + 1;
    if (email) {
      threadStarted[e] = 1;
      const days = domainDays.get(domainOf[m] as string)!;
      bump(days.sends, dayOf(t));
      if (outcome === 'bounced') bump(days.bounces, dayOf(t + responseDelay));
    }
    // A reply ends every track of the prospect (its stop effect); a hard bounce ends the enrollment.
    if (outcome === 'replied') {
      status[e] = REPLIED;
      return;
    }
    if (outcome === 'bounced') {
      status[e] = BOUNCED;
      return;
    }
    // The prospect's events after a quiet touch: an open (a click opens too), an accepted invitation.
    let queued = false;
    if (outcome === 'sent') {
      const engage = drawFor(seed, e, key, SALT.engage);
      const happened = [
        email && engage < Math.max(o.open, o.click),
        email && engage < o.click,
        node.action === 'linkedin_connect' && drawFor(seed, e, key, SALT.linkedin) < o.accept,
      ];
      const counters = [events.opened, events.clicked, events.accepted];
      for (let k = 0; k < EVENTS.length; k++) {
        if (!happened[k]) continue;
        counters[k]![n]!++;
        if (!movedBy[n]![k]) continue;
        const id = ev.enrollment.length;
        ev.enrollment.push(e);
        ev.node.push(n);
        ev.kind.push(k);
        ev.epoch.push(epoch[e]!);
        queue.push(t + responseDelay, -(id + 1));
        queued = true;
      }
    }
    const move = outcome === 'failed' ? plan.afterFailure(node) : plan.afterRun(node);
    moveTo(e, move, m, t, outcome === 'out_of_office' ? 'ooo' : 'touch', queued);
  };

  // An event arrives: it takes its edge if the enrollment still waits after the node it is about.
  const arrive = (id: number, t: number) => {
    const e = ev.enrollment[id]!;
    if (status[e] !== 0 || ev.epoch[id] !== epoch[e]) return;
    const n = ev.node[id]!;
    const move = plan.onEvent(nodes[n] as PlanNode, EVENTS[ev.kind[id]!]!);
    if (!move) return;
    epoch[e] = epoch[e]! + 1;
    events.edgesTaken[n]!++;
    moveTo(e, move, Math.max(0, mailboxOf[e]!), t, 'edge', true);
  };

  const poolPick = new PoolPick(mailboxes, buckets);
  const pickPoolMailbox = (e: number, n: number, t: number) =>
    poolPick.pick(Math.floor(drawFor(seed, e, drawKey(e, n), SALT.poolTie) * 4294967296), e * 32 + n, t);

  /**
   * The sender's contact policies for the touch at node `n` about to go out at `t`
   * (the day in mailbox `m`'s zone): held, it comes back when the hold ends and waits
   * for its window again (true).
   */
  const heldByPolicy = (e: number, n: number, m: number, t: number): boolean => {
    const hold = contact.check(e, touchKeyOf(e, n), firstTouchOf(e, n), mailboxes[m]!.timezone, t);
    if (!hold) return false;
    delays.hold(e, hold.until.getTime(), t);
    return true;
  };
  while (queue.size > 0 && queue.peekTime() <= horizonEnd) {
    const t = queue.peekTime();
    const item = queue.pop();
    if (item < 0) {
      arrive(-item - 1, t);
      continue;
    }
    const e = item % count;
    if ((item - e) / count !== epoch[e] || status[e] !== 0) continue;
    const n = nodeOf[e]!;
    const node = nodes[n];
    if (!node || node.channel === 'end') {
      status[e] = EXHAUSTED;
      continue;
    }
    clock.attempts++;
    if (node.channel !== 'email') {
      // A LinkedIn action or a manual task: placed in the mailbox's window when scheduled, no mailbox's token.
      const action = actionOf[n];
      if (action) {
        // A LinkedIn action goes out in its account's window and zone (core's `timingSourceFor`,
        // as the sender's): the account is chosen first and kept, then the window is waited
        // for, then a token of the account's bucket for the action is taken, or the action
        // waits as the sender's `afterThrottleWait` makes it (the wait, then the account's
        // window); a 0 cap never grants.
        const m = Math.max(0, mailboxOf[e]!);
        const a = linkedin.choose(e, n, action, t, SALT.accountTie);
        const timing = timings.ofLinkedIn(m, a, node.action, e);
        const identity = timings.identityOf(a);
        if (delays.waitsForWindow(e, identity, timing, t)) continue;
        if (heldByPolicy(e, n, m, t)) continue;
        const decision = linkedin.take(e, n, action, t);
        if (!decision.granted) {
          clock.linkedinWaits++;
          if ('never' in decision) continue;
          delays.placedFor[e] = identity;
          pushTouch(dueAfterDelay(new Date(t), decision.waitMs, timing).getTime(), e);
          continue;
        }
      }
      send(e, n, Math.max(0, mailboxOf[e]!), t);
      continue;
    }
    let m = mailboxOf[e]!;
    let granted = false;
    // Until its first e-mail went out (no thread yet) a pool enrollment picks again at
    // every attempt, as the sender does: a touch back from a cap wait may move to
    // the member with most room now.
    if (pool && threadStarted[e] === 0) {
      const picked = pickPoolMailbox(e, n, t);
      m = picked.m;
      granted = picked.granted;
      mailboxOf[e] = m;
    }
    const timing = timingOf(m, e, false);
    if (delays.waitsForWindow(e, m, timing, t)) continue;
    if (heldByPolicy(e, n, m, t)) continue;
    if (!granted) {
      const decision = buckets[m]!.take(e * 32 + n, t, true);
      if (!decision.granted) {
        clock.capWaits++;
        const retry = dueAfterDelay(new Date(t), decision.waitMs, timing).getTime();
        // Its slot falls outside its window, so it comes back later: it gives the slot up
        // (the sender's throttle release), or the slot would stand empty in the caps.
        if (retry > t + decision.waitMs) buckets[m]!.release(e * 32 + n);
        pushTouch(retry, e);
        continue;
      }
    }
    send(e, n, m, t);
  }

  return {
    start,
    horizonEnd,
    mailboxes,
    linkedinAccounts,
    nodes,
    sends,
    status,
    node: nodeOf,
    events,
    domainDays,
    clock,
    policyHolds: { ...contact.holds },
  };
}
