import { linearPlan, runCampaign, SimulationInputSchema } from '@touchbase/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollProspects } from '../src/use-cases/enroll-prospects.js';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

// Prospects in zones with odd offsets and DST, one without a zone (the mailbox's).
const ZONES = [
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'America/St_Johns',
  null,
  'Pacific/Chatham',
];
const START = new Date('2027-03-13T21:17:00Z');

/**
 * The live enrollment (the API's use case, on real PostgreSQL and Redis) and the
 * simulator place the same first touches at the same instants: the enrollment rows'
 * next_touch_at equal the simulated first sends (caps out of the way; no pacing, whose
 * jitter is Math.random live).
 */
describe('the simulator agrees with a live enrollment (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await apiFixture('api-sim-agree');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('on the first touch of each prospect', async () => {
    const mailbox = await f.repos.mailboxes.create({
      provider: 'sandbox',
      address: 'agree@sim-agree.example',
      windowDays: [1, 2, 3, 4, 5],
      windowStart: '08:30',
      windowEnd: '11:45',
      holidays: ['2027-03-15'],
      timezone: 'Europe/Berlin',
      perMinute: 1000,
      perHour: 10_000,
      perDay: 100_000,
    });
    const sequence = await f.repos.sequences.create({
      name: 'Agree',
      steps: [{ channel: 'email', subject: 's', body: 'b', wait: '2d' }],
    });
    const prospects = await f.repos.prospects.upsertMany(
      ZONES.map((timezone, i) => ({ email: `p${i}@agree-prospect.example`, timezone })),
    );
    await enrollProspects(
      { repos: f.repos, touchQueue: f.touchQueue, clock: () => START, timeScale: 1, pacingMs: 0 },
      { sequenceId: sequence.id, mailboxId: mailbox.id, prospectIds: prospects.map((p) => p.id) },
    );
    const { rows } = await f.db.pool.query<{ prospect_id: string; next_touch_at: Date }>(
      'SELECT prospect_id, next_touch_at FROM enrollment',
    );
    const live = new Map(rows.map((r) => [r.prospect_id, r.next_touch_at.getTime()]));

    const settings = SimulationInputSchema.parse({
      start: START.toISOString(),
      sequence: { steps: [{ wait: '2d' }] },
      mailboxes: [
        {
          id: mailbox.address,
          windowDays: mailbox.windowDays,
          windowStart: mailbox.windowStart,
          windowEnd: mailbox.windowEnd,
          holidays: mailbox.holidays,
          timezone: mailbox.timezone,
          perMinute: 1000,
          perHour: 10_000,
          perDay: 100_000,
        },
      ],
      prospects: { list: ZONES.map((timezone) => ({ timezone })) },
      odds: { reply: 0, bounce: 0, outOfOffice: 0 },
      pacingMs: 0,
    });
    const run = runCampaign(settings, settings.mailboxes, linearPlan(settings.sequence.steps), {
      timeZones: ZONES,
    });
    prospects.forEach((p, e) => {
      const simulated = run.sends.at[run.sends.enrollment.indexOf(e)];
      expect(simulated, `prospect in ${ZONES[e]}`).toBe(live.get(p.id));
    });
  });
});
