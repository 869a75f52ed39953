import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

// TIME_SCALE 1440: a day lasts 60 s, so "room left today" lasts the whole test.
describe('mailbox pools', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    // Campaign pacing spreads first touches 50 ms apart, so each pick sees the sends before it.
    sys = await startTestSystem('sender_pools', { TIME_SCALE: '1440' }, { pacingMs: 50 });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('first touches go to the members with room, each thread stays on its first mailbox, and no member passes its day', async () => {
    const perDay: Record<string, number> = { 'big@pool.example': 16, 'small@pool.example': 8, 'mid@pool.example': 12 };
    const ids: Record<string, string> = {};
    for (const [address, day] of Object.entries(perDay)) {
      const m = await sys.api('POST', '/v1/mailboxes', { provider: 'sandbox', address, perMinute: 100, perHour: 100, perDay: day, windowDays: [] });
      expect(m.status).toBe(201);
      ids[address] = m.body.id;
    }
    const pool = await sys.api('POST', '/v1/mailbox-pools', { name: 'sdr-team', mailboxIds: Object.values(ids) });
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
    const prospects = await sys.api('POST', '/v1/prospects', { prospects: emails.map((email, i) => ({ email, firstName: `P${i}` })) });
    const prospectIds = prospects.body.prospects.map((p: { id: string }) => p.id);
    // Enrolled through the smallest member: the pool, not this, decides where first touches go.
    const res = await sys.api('POST', '/v1/enrollments', { sequenceId: seq.body.id, mailboxId: ids['small@pool.example'], prospectIds });
    expect(res.body.enrolled).toHaveLength(12);

    await waitFor('every enrollment to be exhausted', async () => {
      const s = (await sys.api('GET', `/v1/stats?sequenceId=${seq.body.id}`)).body;
      return s.byStatus.exhausted === 12;
    });
    const deliveries = sys.sandbox.deliveries().filter((d) => emails.includes(d.to));
    expect(deliveries).toHaveLength(24);
    const firstFrom = new Map(deliveries.filter((d) => d.step === 1).map((d) => [d.to, d.from]));
    for (const d of deliveries.filter((x) => x.step === 2)) expect(d.from).toBe(firstFrom.get(d.to));
    for (const e of res.body.enrolled as { id: string; prospectId: string }[]) {
      const enrollment = (await sys.api('GET', `/v1/enrollments/${e.id}`)).body;
      const email = emails[prospectIds.indexOf(e.prospectId)] as string;
      expect(enrollment.mailboxId).toBe(ids[firstFrom.get(email) as string]);
    }
    const perMailbox = (address: string) => deliveries.filter((d) => d.from === address).length;
    for (const [address, day] of Object.entries(perDay)) expect(perMailbox(address)).toBeLessThanOrEqual(day);
    // Most room first: the big mailbox took the most prospects, the small one the fewest.
    expect(perMailbox('big@pool.example')).toBeGreaterThan(perMailbox('small@pool.example'));
    expect(perMailbox('small@pool.example')).toBeGreaterThan(0);

    // The same prospect in another pooled sequence stays on the mailbox it already knows.
    const again = await sys.api('POST', '/v1/sequences', { name: 'pooled-2', mailboxPoolId: pool.body.id, steps: [{ subject: 'Again', body: 'Three', wait: '0s' }] });
    await sys.api('POST', '/v1/enrollments', { sequenceId: again.body.id, mailboxId: ids['big@pool.example'], prospectIds: [prospectIds[0]] });
    const third = await waitFor('the second sequence touch', () => sys.sandbox.deliveries().find((d) => d.to === emails[0] && d.subject === 'Again'));
    expect(third.from).toBe(firstFrom.get(emails[0] as string));
  }, 60_000);
});
