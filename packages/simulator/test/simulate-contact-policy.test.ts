import { describe, expect, it } from 'vitest';
import { renderSummary } from '../src/render-summary.js';
import { simulate } from '../src/simulate.js';
import { SimulatedContactPolicy } from '../src/simulated-contact-policy.js';
import type { SimulationInput } from '../src/simulation.schemas.js';

type Policy = {
  cooldownDays?: number;
  newPeoplePerDay?: number | null;
  recipientDomainPerDay?: number | null;
};

/** A one-mailbox run from Tuesday 2026-12-01 08:00 UTC, weekdays 09:00-17:00 UTC, nobody answering. */
function input(
  policy: Policy,
  prospects: SimulationInput['prospects'],
  steps = [{ wait: '0s' }],
): SimulationInput {
  return {
    start: '2026-12-01T08:00:00Z',
    seed: 7,
    sequence: { steps, contactPolicy: policy },
    mailboxes: [{ id: 'ana@seller.test', perDay: 500, perHour: 100, perMinute: 20, timezone: 'UTC' }],
    prospects,
    odds: { reply: 0, bounce: 0, outOfOffice: 0 },
  };
}

/** Sends per UTC day that had any. */
const perDay = (report: ReturnType<typeof simulate>) =>
  report.days.filter((d) => d.total > 0).map((d) => [d.date, d.total]);

describe('simulate: the contact policies the sender holds touches for (core contactHold)', () => {
  const fiveAtBigco = {
    list: [
      ...['a', 'b', 'c', 'd', 'e'].map((n) => ({ id: n, email: `${n}@bigco.test` })),
      { id: 'f', email: 'f@other.test' },
    ],
  };

  it('spreads 5 people of one company over 3 days under a recipient-domain cap of 2 a day', () => {
    const report = simulate(input({ recipientDomainPerDay: 2 }, fiveAtBigco));
    expect(perDay(report)).toEqual([
      ['2026-12-01', 3], // two of bigco and the one of other.test
      ['2026-12-02', 2],
      ['2026-12-03', 1],
    ]);
    const policy = report.delays.byContactPolicy;
    expect(policy.count).toBe(3);
    // Held a day, a day, two days (to 09:00 the next days): the window after a hold is the policy's wait.
    expect([policy.meanHours, policy.maxHours]).toEqual([32, 48]);
    expect(report.delays.byWindow.maxHours).toBe(1);
    expect(policy.holds.recipient_domain_cap).toBeGreaterThanOrEqual(3);
    expect(report.binding.constraint).toBe('contact_policy');
    expect(report.binding.message).toContain('the recipient-domain cap');
    expect(renderSummary(report)).toContain('Delayed by contact policy:');
  });

  it('counts the company from `companyDomain` over the address, and every touch, not only first ones', () => {
    const report = simulate(
      input(
        { recipientDomainPerDay: 2 },
        { list: ['a', 'b'].map((n) => ({ id: n, email: `${n}@gmail.com`, companyDomain: 'bigco.test' })) },
        [{ wait: '0s' }, { wait: '0s' }],
      ),
    );
    // Two people, two touches each with no wait between: the second touches wait for the next day.
    expect(perDay(report)).toEqual([
      ['2026-12-01', 2],
      ['2026-12-02', 2],
    ]);
  });

  it('without the cap (the default) sends them all the first day', () => {
    const report = simulate(input({}, fiveAtBigco));
    expect(perDay(report)).toEqual([['2026-12-01', 6]]);
    expect(report.delays.byContactPolicy.count).toBe(0);
    expect(report.binding.constraint).not.toBe('contact_policy');
  });

  it('holds first touches to new people a day, not the follow-ups', () => {
    const report = simulate(input({ newPeoplePerDay: 4 }, { count: 10 }, [{ wait: '1d' }, { wait: '0s' }]));
    const first = report.funnel[0]!;
    expect(first.sent).toBe(10);
    // First touches 4, 4, 2 on Tue, Wed, Thu; each follow-up a day after its first touch.
    expect(perDay(report)).toEqual([
      ['2026-12-01', 4],
      ['2026-12-02', 8],
      ['2026-12-03', 6],
      ['2026-12-04', 2],
    ]);
    expect(report.delays.byContactPolicy.holds.new_people_cap).toBeGreaterThanOrEqual(6);
    expect(report.delays.byContactPolicy.holds.recipient_domain_cap).toBe(0);
    expect(report.binding.message).toContain('new people a day');
  });

  it('holds a first touch for the cooldown after another enrollment touched the person', () => {
    const report = simulate(
      input(
        { cooldownDays: 30 },
        {
          list: [
            // Touched 20 days before the start: free 10 days in, Friday 2026-12-11 07:00 UTC, sent at 09:00.
            { id: 'recent', lastContactAt: '2026-11-11T07:00:00Z' },
            { id: 'long-ago', lastContactAt: '2026-10-01T07:00:00Z' },
            { id: 'never' },
          ],
        },
      ),
    );
    expect(perDay(report)).toEqual([
      ['2026-12-01', 2],
      ['2026-12-11', 1],
    ]);
    expect(report.delays.byContactPolicy.holds.cooldown).toBe(1);
    const off = simulate(
      input({ cooldownDays: 0 }, { list: [{ id: 'recent', lastContactAt: '2026-11-11T07:00:00Z' }] }),
    );
    expect(perDay(off)).toEqual([['2026-12-01', 1]]);
  });

  it('gives the same report byte for byte with the policies on', () => {
    const run = () =>
      JSON.stringify(
        simulate(input({ newPeoplePerDay: 3, recipientDomainPerDay: 2, cooldownDays: 5 }, fiveAtBigco)),
      );
    expect(run()).toBe(run());
  });
});

describe('simulate: suppressed and cooling-off people are refused as enrolling refuses them', () => {
  it('counts them under summary.refused and enrolls the rest', () => {
    const report = simulate(
      input(
        {},
        {
          list: [
            { id: 'a', email: 'a@x.test', refusal: 'suppressed' },
            { id: 'b', email: 'b@x.test', refusal: 'cooling_off' },
            { id: 'c', email: 'c@x.test' },
          ],
        },
      ),
    );
    expect(report.summary.enrolled).toBe(1);
    expect(report.summary.refused).toEqual({
      alreadyEnrolled: 0,
      inOtherSequence: 0,
      suppressed: 1,
      coolingOff: 1,
    });
    expect(renderSummary(report)).toContain('Refused at enrollment: 1 suppressed, 1 cooling off');
  });
});

describe('renderSummary: counts in words', () => {
  it('says "1 step" and "1 prospect", not "1 steps"', () => {
    const text = renderSummary(simulate(input({}, { count: 1 })));
    expect(text).toContain('Simulated 1 prospect, 1 step, 1 mailbox,');
  });
});

describe('SimulatedContactPolicy: mailboxes in several zones', () => {
  it("counts a touch sent since the start of this mailbox's day though its slot is of another zone's day", () => {
    const policy = { exclusive: true, cooldownDays: 0, newPeoplePerDay: null, recipientDomainPerDay: 1 };
    const population = { timeZones: [null, null], companyDomains: ['x.example', 'x.example'] };
    const t0 = Date.parse('2026-12-01T23:30:00Z'); // 2 December in Tokyo
    const t1 = Date.parse('2026-12-01T23:45:00Z'); // still 1 December in UTC
    const contact = new SimulatedContactPolicy(policy, population, false);
    expect(contact.check(0, 1, true, 'Asia/Tokyo', t0)).toBeNull();
    contact.wentOut(0, 1, true, t0);
    expect(contact.check(1, 2, true, 'UTC', t1)).toEqual({
      reason: 'recipient_domain_cap',
      until: new Date('2026-12-02T00:00:00Z'),
    });
    // Its own slot never counts against it: checked again, the first touch may still go.
    expect(contact.check(0, 1, true, 'Asia/Tokyo', t0)).toBeNull();
  });
});
