import {
  type ContactPolicy,
  contactDayOf,
  contactHold,
  firstTouchDue,
  resolveTimeZone,
  type SendingWindow,
  type SequenceGraph,
  type SequenceStep,
  sendingWindowOf,
  timingSourceFor,
} from '@touchbase/core';
import type { SendContext } from '@touchbase/db';
import { drawFor, graphPlan, linearPlan, runCampaign, SimulationInputSchema } from '@touchbase/simulator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextDue, windowClosedUntil } from '../../apps/sender/src/use-cases/touch-timing.js';

// Zones with odd DST rules (half-hour shifts, southern summers, a dropped day, none at all).
const ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
  'America/Sao_Paulo',
  'Asia/Tehran',
  'Pacific/Apia',
  'Asia/Kolkata',
  'UTC',
];
const WAITS = ['0s', '4h', '1d', '3d', '1d12h', '7d', 'P2DT3H'];
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const windowArb = fc
  .record({
    days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
    start: fc.integer({ min: 0, max: 22 * 60 }),
    length: fc.integer({ min: 15, max: 12 * 60 }),
  })
  .map(({ days, start, length }) => ({
    days: [...days].sort(),
    start: hhmm(start),
    end: hhmm(Math.min(start + length, 23 * 60 + 59)),
  }));

/** A mailbox's or LinkedIn account's window columns for a drawn window (none: no window) and zone. */
const windowColumns = (w: { days: number[]; start: string; end: string } | null, timezone: string) => ({
  windowDays: w?.days ?? [],
  windowStart: w?.start ?? '09:00',
  windowEnd: w?.end ?? '17:00',
  timezone,
});

/** The mailbox of both properties: room for everything, the drawn window and zone. */
const roomyMailbox = (w: Parameters<typeof windowColumns>[0], timezone: string) => ({
  id: 'm@agree.example',
  perMinute: 10_000,
  perHour: 100_000,
  perDay: 1_000_000,
  ...windowColumns(w, timezone),
});

/** The draws of every property's run: its start, seed and the mailbox's zone. */
const RUN = {
  start: fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2031, 0, 1) }),
  seed: fc.integer({ min: 0, max: 1_000_000 }),
  mailboxZone: fc.constantFrom(...ZONES),
};

/** The settings common to both properties: caps out of the way, no outcomes, no what-ifs. */
const QUIET = {
  horizonDays: 366,
  odds: { reply: 0, bounce: 0, outOfOffice: 0, accept: 0, failure: 0 },
  spacingJitter: 0,
  whatIf: { extraMailboxes: [], extraLinkedInAccounts: [] },
};

/**
 * The simulator and the live system place the same enrollments at the same
 * instants: first touches as the API enrolls them (`firstTouchDue` with the
 * campaign pacing), follow-ups as the sender schedules them after a send (its
 * `nextDue`: the wait in the prospect's calendar, then the window), with the
 * sequence's window or the mailbox's, in the prospect's zone or the mailbox's.
 * Caps are out of the way here (room for everything), so each touch goes out when due.
 */
describe('simulated due times agree with the live scheduling functions', () => {
  it('for every enrollment and step', () => {
    fc.assert(
      fc.property(
        fc.record({
          ...RUN,
          prospectZones: fc.array(fc.option(fc.constantFrom(...ZONES, 'Not/A_Zone')), {
            minLength: 1,
            maxLength: 4,
          }),
          mailboxWindow: fc.option(windowArb),
          sequenceWindow: fc.option(windowArb),
          waits: fc.array(fc.constantFrom(...WAITS), { minLength: 1, maxLength: 4 }),
          pacingMs: fc.constantFrom(0, 500, 90_000),
        }),
        (c) => {
          const mailbox = roomyMailbox(c.mailboxWindow, c.mailboxZone);
          const settings = SimulationInputSchema.parse({
            start: new Date(c.start).toISOString(),
            seed: c.seed,
            sequence: { steps: c.waits.map((wait) => ({ wait })), window: c.sequenceWindow },
            mailboxes: [mailbox],
            prospects: { list: c.prospectZones.map((timezone) => ({ timezone })) },
            pacingMs: c.pacingMs,
            ...QUIET,
          });
          const run = runCampaign(settings, settings.mailboxes, linearPlan(settings.sequence.steps), {
            timeZones: c.prospectZones,
          });
          const steps = c.waits.map((wait) => ({
            channel: 'email',
            subject: 's',
            body: 'b',
            wait,
          })) as SequenceStep[];
          const sequenceWindow = (c.sequenceWindow ?? null) as SendingWindow | null;
          c.prospectZones.forEach((zone, e) => {
            const sent = run.sends.at.filter((_, i) => run.sends.enrollment[i] === e);
            expect(sent).toHaveLength(c.waits.length);
            // The API: first touches of one request, paced, in the prospect's zone.
            const r = drawFor(c.seed, e, 0, 1);
            const first = firstTouchDue(new Date(c.start), e, c.pacingMs, {
              timeZone: resolveTimeZone(zone, c.mailboxZone),
              window: sendingWindowOf(sequenceWindow, { ...mailbox, holidays: [] }),
              timeScale: 1,
              random: () => r,
            });
            expect(sent[0]).toBe(first.getTime());
            // The sender: after each send, the next step's due time.
            const ctx = {
              prospect: { timezone: zone },
              mailbox: { ...mailbox, holidays: [] },
              sequenceWindow,
            } as unknown as SendContext;
            for (let step = 1; step < c.waits.length; step++) {
              expect(sent[step]).toBe(
                nextDue(ctx, steps[step - 1]?.wait ?? '0s', new Date(sent[step - 1]!), 1).at.getTime(),
              );
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  /**
   * A chain mixing e-mails and LinkedIn profile visits, with LinkedIn accounts whose
   * window and zone differ from the mailbox's: the simulator times each LinkedIn
   * action as the sender does. The enrollment's node is scheduled by the mailbox's
   * timing (the API's `firstTouchDue`, the sender's `nextDue`), and at the send the
   * action waits for its account's window (the sender's `windowClosedUntil` over
   * core's `timingSourceFor`). The accounts share their window and zone, so the one
   * an enrollment picks does not matter; a run in which a LinkedIn cap made a touch
   * wait (two actions a minute at most) is not a timing case and is left out.
   */
  it('for LinkedIn steps timed by their account, not the mailbox', () => {
    fc.assert(
      fc.property(
        fc.record({
          ...RUN,
          accountZone: fc.constantFrom(...ZONES),
          prospectZones: fc.array(fc.option(fc.constantFrom(...ZONES)), { minLength: 1, maxLength: 3 }),
          mailboxWindow: fc.option(windowArb),
          accountWindow: fc.option(windowArb),
          sequenceWindow: fc.option(windowArb, { freq: 4 }),
          steps: fc.array(fc.record({ linkedin: fc.boolean(), wait: fc.constantFrom(...WAITS) }), {
            minLength: 1,
            maxLength: 4,
          }),
          pacingMs: fc.constantFrom(0, 500, 90_000),
        }),
        (c) => {
          const mailbox = roomyMailbox(c.mailboxWindow, c.mailboxZone);
          const account = { ...windowColumns(c.accountWindow, c.accountZone), holidays: [] };
          const caps = { profileVisitsPerDay: 500, perHour: 500, minSpacingMs: 0 };
          const graph: SequenceGraph = {
            nodes: [
              ...c.steps.map((s, i) =>
                s.linkedin
                  ? { id: `n${i + 1}`, action: 'linkedin_visit' as const }
                  : { id: `n${i + 1}`, action: 'email' as const, subject: 's', body: 'b' },
              ),
              { id: 'end', action: 'end' as const },
            ],
            edges: c.steps.map((s, i) => ({
              from: `n${i + 1}`,
              to: i + 1 < c.steps.length ? `n${i + 2}` : 'end',
              trigger: 'no_reply' as const,
              wait: s.wait,
            })),
          };
          const settings = SimulationInputSchema.parse({
            start: new Date(c.start).toISOString(),
            seed: c.seed,
            sequence: { graph, window: c.sequenceWindow },
            mailboxes: [mailbox],
            linkedinAccounts: ['li-1', 'li-2', 'li-3'].map((id) => ({ id, ...caps, ...account })),
            prospects: { list: c.prospectZones.map((timezone) => ({ timezone })) },
            pacingMs: c.pacingMs,
            ...QUIET,
          });
          const run = runCampaign(settings, settings.mailboxes, graphPlan(graph), {
            timeZones: c.prospectZones,
          });
          fc.pre(run.clock.linkedinWaits === 0);
          const sequenceWindow = (c.sequenceWindow ?? null) as SendingWindow | null;
          c.prospectZones.forEach((zone, e) => {
            const sent = run.sends.at.filter((_, i) => run.sends.enrollment[i] === e);
            expect(sent).toHaveLength(c.steps.length);
            const ctx = {
              prospect: { timezone: zone },
              mailbox: { ...mailbox, holidays: [] },
              sequenceWindow,
            } as unknown as SendContext;
            // The sender at the send: a LinkedIn action waits for its account's window.
            const sentAt = (step: number, due: Date) => {
              if (!c.steps[step]?.linkedin) return due.getTime();
              const timed = timingSourceFor(ctx, 'linkedin_visit', account);
              return (windowClosedUntil(timed, due, 1) ?? due).getTime();
            };
            const r = drawFor(c.seed, e, 0, 1);
            const first = firstTouchDue(new Date(c.start), e, c.pacingMs, {
              timeZone: resolveTimeZone(zone, c.mailboxZone),
              window: sendingWindowOf(sequenceWindow, { ...mailbox, holidays: [] }),
              timeScale: 1,
              random: () => r,
            });
            expect(sent[0]).toBe(sentAt(0, first));
            for (let step = 1; step < c.steps.length; step++) {
              const due = nextDue(ctx, c.steps[step - 1]!.wait, new Date(sent[step - 1]!), 1).at;
              expect(sent[step]).toBe(sentAt(step, due));
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  /**
   * With the sequence's contact policies on (cooldown, new people a day, a
   * recipient-domain cap) and people of a few companies: each touch goes out when the
   * live system would let it. The reference is the sender's loop written plainly: a
   * job at its due time waits for its window (`windowClosedUntil`), then asks core's
   * `contactHold` with the counts the repository takes (slots of the day in the
   * mailbox's zone and the touches since, by key, this touch never; the day from
   * `contactDayOf`), held it comes back at the hold's end, let go it takes its slots
   * and goes, and the next step is due by `nextDue`. Jobs due at one instant run in
   * the order they were scheduled, as the simulator's queue runs them.
   */
  it('for touches held by the contact policies', () => {
    const COMPANIES = ['one.example', 'two.example', null];
    fc.assert(
      fc.property(
        fc.record({
          ...RUN,
          people: fc.array(
            fc.record({
              zone: fc.option(fc.constantFrom(...ZONES)),
              company: fc.constantFrom(...COMPANIES),
              lastContactDaysAgo: fc.option(fc.integer({ min: 0, max: 40 })),
            }),
            { minLength: 1, maxLength: 6 },
          ),
          mailboxWindow: fc.option(windowArb),
          waits: fc.array(fc.constantFrom(...WAITS), { minLength: 1, maxLength: 3 }),
          pacingMs: fc.constantFrom(0, 500, 90_000),
          policy: fc.record({
            cooldownDays: fc.constantFrom(0, 5, 30),
            newPeoplePerDay: fc.constantFrom(null, 1, 2, 3),
            recipientDomainPerDay: fc.constantFrom(null, 1, 2),
          }),
        }),
        (c) => {
          const mailbox = roomyMailbox(c.mailboxWindow, c.mailboxZone);
          const lastContact = c.people.map((p) =>
            p.lastContactDaysAgo === null ? null : c.start - p.lastContactDaysAgo * 86_400_000 - 3_600_000,
          );
          const settings = SimulationInputSchema.parse({
            start: new Date(c.start).toISOString(),
            seed: c.seed,
            sequence: { steps: c.waits.map((wait) => ({ wait })), contactPolicy: c.policy },
            mailboxes: [mailbox],
            prospects: {
              list: c.people.map((p, i) => ({
                timezone: p.zone,
                companyDomain: p.company,
                lastContactAt: lastContact[i] === null ? null : new Date(lastContact[i]!).toISOString(),
              })),
            },
            pacingMs: c.pacingMs,
            ...QUIET,
          });
          const run = runCampaign(settings, settings.mailboxes, linearPlan(settings.sequence.steps), {
            timeZones: c.people.map((p) => p.zone),
            companyDomains: c.people.map((p) => p.company),
            lastContactAt: lastContact.map((t) => t ?? Number.NaN),
          });
          const live = liveLoop(c, mailbox, lastContact, { ...c.policy, exclusive: true });
          c.people.forEach((_, e) => {
            const sent = run.sends.at.filter((_, i) => run.sends.enrollment[i] === e);
            expect(sent).toEqual(live[e]);
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** The sender's loop over one mailbox with room for everything, written plainly (see the property above). */
function liveLoop(
  c: {
    start: number;
    seed: number;
    mailboxZone: string;
    people: { zone: string | null; company: string | null }[];
    waits: string[];
    pacingMs: number;
  },
  mailbox: ReturnType<typeof roomyMailbox>,
  lastContact: (number | null)[],
  policy: ContactPolicy,
): number[][] {
  const horizon = c.start + 366 * 86_400_000;
  const jobs: { at: number; seq: number; e: number; step: number }[] = [];
  let seq = 0;
  const schedule = (at: number, e: number, step: number) => jobs.push({ at, seq: seq++, e, step });
  const window = sendingWindowOf(null, { ...mailbox, holidays: [] });
  c.people.forEach((p, e) => {
    const r = drawFor(c.seed, e, 0, 1);
    const first = firstTouchDue(new Date(c.start), e, c.pacingMs, {
      timeZone: resolveTimeZone(p.zone, c.mailboxZone),
      window,
      timeScale: 1,
      random: () => r,
    });
    schedule(first.getTime(), e, 1);
  });
  const slots: { scope: string; dayStart: number; key: string }[] = [];
  const touched: { scopes: string[]; at: number; key: string }[] = [];
  const count = (scope: string, dayStart: number, key: string) => {
    const keys = new Set<string>();
    for (const s of slots) if (s.scope === scope && s.dayStart === dayStart && s.key !== key) keys.add(s.key);
    for (const t of touched)
      if (t.scopes.includes(scope) && t.at >= dayStart && t.key !== key) keys.add(t.key);
    return keys.size;
  };
  const sent: number[][] = c.people.map(() => []);
  while (jobs.length > 0) {
    jobs.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const job = jobs.shift()!;
    if (job.at > horizon) break;
    const { e, step, at } = job;
    const person = c.people[e]!;
    const ctx = {
      prospect: { timezone: person.zone },
      mailbox: { ...mailbox, holidays: [] },
      sequenceWindow: null,
    } as unknown as SendContext;
    const opens = windowClosedUntil(ctx, new Date(at), 1);
    if (opens) {
      schedule(opens.getTime(), e, step);
      continue;
    }
    const firstTouch = step === 1;
    const key = `${e}-${step}`;
    const dayStart = contactDayOf(new Date(at), { timeZone: mailbox.timezone }).start.getTime();
    const last = lastContact[e] ?? null;
    const company = person.company;
    const hold = contactHold(
      policy,
      { firstTouch, timeZone: mailbox.timezone },
      {
        lastContactAt: firstTouch && last !== null ? new Date(last) : null,
        firstTouchesToday: firstTouch ? count('sequence', dayStart, key) : 0,
        domainTouchesToday: company === null ? null : count(`domain:${company}`, dayStart, key),
      },
      new Date(at),
    );
    if (hold) {
      schedule(hold.until.getTime(), e, step);
      continue;
    }
    const scopes = [
      ...(firstTouch && policy.newPeoplePerDay !== null ? ['sequence'] : []),
      ...(company !== null && policy.recipientDomainPerDay !== null ? [`domain:${company}`] : []),
    ];
    for (const scope of scopes) slots.push({ scope, dayStart, key });
    // Every touch counts towards its company's cap, and a first touch towards the sequence's.
    touched.push({
      scopes: [...(firstTouch ? ['sequence'] : []), ...(company !== null ? [`domain:${company}`] : [])],
      at,
      key,
    });
    sent[e]!.push(at);
    if (step < c.waits.length)
      schedule(nextDue(ctx, c.waits[step - 1]!, new Date(at), 1).at.getTime(), e, step + 1);
  }
  return sent;
}
