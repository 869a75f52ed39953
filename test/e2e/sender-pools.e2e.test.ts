import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

// TIME_SCALE 1440: a day lasts 60 s, so "room left today" lasts the whole test.
describe('mailbox pools', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem('sender_pools', { TIME_SCALE: '1440' }, { pacingMs: 0 });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('first touches go to the members with room, each thread stays on its first mailbox, and no member passes its day', async () => {
    const perDay: Record<string, number> = {
      'big@pool.example': 16,
      'small@pool.example': 8,
      'mid@pool.example': 12,
    };
    const ids: Record<string, string> = {};
    for (const [address, day] of Object.entries(perDay)) {
      const m = await sys.api('POST', '/v1/mailboxes', {
        provider: 'sandbox',
        address,
        perMinute: 100,
        perHour: 100,
        perDay: day,
        windowDays: [],
      });
      expect(m.status).toBe(201);
      ids[address] = m.body.id;
    }
    const pool = await sys.api('POST', '/v1/mailbox-pools', {
      name: 'sdr-team',
      mailboxIds: Object.values(ids),
    });
    expect(pool.status).toBe(201);
    expect(pool.body.members).toHaveLength(3);
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'pooled',
      mailboxPoolId: pool.body.id,
      steps: [
        { subject: 'Hello {{firstName}}', body: 'One', wait: '0s' },
        { subject: 'x', body: 'Two', wait: '0s' },
      ],
    });
    expect(seq.status).toBe(201);
    const emails = Array.from({ length: 12 }, (_, i) => `pooled${i}@prospect.example`);
    const prospects = await sys.api('POST', '/v1/prospects', {
      prospects: emails.map((email, i) => ({ email, firstName: `P${i}` })),
    });
    const prospectIds: string[] = prospects.body.prospects.map((p: { id: string }) => p.id);
    // One prospect after the other, each thread (2 touches) done before the next, so
    // every pick sees the day so far. Enrolled through the smallest member: the pool,
    // not this, decides where first touches go.
    const enrolled: { id: string; prospectId: string }[] = [];
    for (const [i, prospectId] of prospectIds.entries()) {
      const res = await sys.api('POST', '/v1/enrollments', {
        sequenceId: seq.body.id,
        mailboxId: ids['small@pool.example'],
        prospectIds: [prospectId],
      });
      expect(res.status).toBe(201);
      enrolled.push(...res.body.enrolled);
      await waitFor(
        `both touches of prospect ${i}`,
        () => sys.sandbox.deliveries().filter((d) => d.to === emails[i]).length === 2,
      );
    }

    await waitFor('every enrollment to be exhausted', async () => {
      const s = (await sys.api('GET', `/v1/stats?sequenceId=${seq.body.id}`)).body;
      return s.byStatus.exhausted === 12;
    });
    const deliveries = sys.sandbox.deliveries().filter((d) => emails.includes(d.to));
    expect(deliveries).toHaveLength(24);
    const firstFrom = new Map(deliveries.filter((d) => d.step === 1).map((d) => [d.to, d.from]));
    for (const d of deliveries.filter((x) => x.step === 2)) expect(d.from).toBe(firstFrom.get(d.to));
    for (const e of enrolled) {
      const enrollment = (await sys.api('GET', `/v1/enrollments/${e.id}`)).body;
      const email = emails[prospectIds.indexOf(e.prospectId)] as string;
      expect(enrollment.mailboxId).toBe(ids[firstFrom.get(email) as string]);
    }
    const perMailbox = (address: string) => deliveries.filter((d) => d.from === address).length;
    for (const [address, day] of Object.entries(perDay)) expect(perMailbox(address)).toBeLessThanOrEqual(day);
    // Most room first: big alone until it is down to mid's room, then the two, then all
    // three in turn, until the 24 sends leave each with 4 of its day.
    expect({
      big: perMailbox('big@pool.example'),
      mid: perMailbox('mid@pool.example'),
      small: perMailbox('small@pool.example'),
    }).toEqual({
      big: 12,
      mid: 8,
      small: 4,
    });

    // The same prospect in another pooled sequence stays on the mailbox it already knows.
    const again = await sys.api('POST', '/v1/sequences', {
      name: 'pooled-2',
      mailboxPoolId: pool.body.id,
      steps: [{ subject: 'Again', body: 'Three', wait: '0s' }],
    });
    // One person in a second sequence: both opt out of exclusivity and the cooldown.
    for (const id of [again.body.id, seq.body.id]) {
      await sys.api('PATCH', `/v1/sequences/${id}/policies`, {
        contact: { exclusive: false, cooldownDays: 0 },
      });
    }
    await sys.api('POST', '/v1/enrollments', {
      sequenceId: again.body.id,
      mailboxId: ids['big@pool.example'],
      prospectIds: [prospectIds[0]],
    });
    const third = await waitFor('the second sequence touch', () =>
      sys.sandbox.deliveries().find((d) => d.to === emails[0] && d.subject === 'Again'),
    );
    expect(third.from).toBe(firstFrom.get(emails[0] as string));
  }, 60_000);
});
