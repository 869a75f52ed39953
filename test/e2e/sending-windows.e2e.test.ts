import { touchKey } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { middayZone } from '../support/midday-zone.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { enrollment } from './ingest-support.js';

/**
 * Issue 3, "A mailbox (or a sequence) has a sending window: days of the week and
 * hours, and holidays to skip", in real time (TIME_SCALE 1: a compressed day has no
 * business hours): the API takes windows and holidays on mailboxes and sequences,
 * the sequence's overrides the mailbox's, and nothing goes out outside the window,
 * not even a touch the token bucket made wait past its end.
 */
const DAY = 86_400_000;

describe('sending windows per sequence, with holidays', () => {
  let sys: TestSystem;
  let n = 0;

  beforeAll(async () => {
    sys = await startTestSystem('sending_windows', { TIME_SCALE: '1' }, { pacingMs: 0 });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function mailbox(body: Record<string, unknown> = {}) {
    const r = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: `sdr-${++n}@windows.example`,
      perMinute: 1000,
      perHour: 10_000,
      perDay: 100_000,
      windowDays: [],
      ...body,
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  }
  async function sequence(steps: number, sendingWindow?: unknown) {
    const r = await sys.api('POST', '/v1/sequences', {
      name: `windows-${++n}`,
      steps: Array.from({ length: steps }, (_, i) => ({
        subject: 'Hello',
        body: `Touch ${i + 1}`,
        wait: '1d',
      })),
      ...(sendingWindow === undefined ? {} : { sendingWindow }),
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  }
  async function enrollNew(sequenceId: string, mailboxId: string, count: number, timezone?: string) {
    const p = await sys.api('POST', '/v1/prospects', {
      prospects: Array.from({ length: count }, () => ({
        email: `p${++n}@prospect.example`,
        ...(timezone ? { timezone } : {}),
      })),
    });
    const r = await sys.api('POST', '/v1/enrollments', {
      sequenceId,
      mailboxId,
      prospectIds: p.body.prospects.map((x: { id: string }) => x.id),
    });
    expect(r.status).toBe(201);
    return r.body.enrolled.map((e: { id: string }) => e.id) as string[];
  }
  const delayedUntil = (key: string) => sys.rt.touchQueue.delayedUntil(key);
  /** A job's due time: never before `due`, and late only by the ms between computing and adding it. */
  const expectDueAt = (actual: number | null, due: number) => {
    expect(actual).toBeGreaterThanOrEqual(due);
    expect(actual).toBeLessThan(due + 1_000);
  };
  const delivered = (enrollmentId: string) =>
    sys.sandbox.deliveries().filter((d) => d.enrollmentId === enrollmentId);

  it('the API takes windows and holidays on mailboxes and sequences, and refuses bad ones', async () => {
    const bad = [
      { holidays: ['2026-13-01'] },
      { windowDays: [1, 2], windowStart: '18:00', windowEnd: '09:00' },
      { windowDays: [1, 1] },
    ];
    for (const body of bad) {
      const r = await sys.api('POST', '/v1/mailboxes', {
        provider: 'sandbox',
        address: `bad-${++n}@w.example`,
        ...body,
      });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('validation_failed');
    }
    const id = await mailbox({ windowDays: [1, 2, 3, 4, 5], holidays: ['2026-12-24', '2026-12-25'] });
    expect((await sys.api('GET', `/v1/mailboxes/${id}`)).body.holidays).toEqual(['2026-12-24', '2026-12-25']);
    const put = await sys.api('PUT', `/v1/mailboxes/${id}/sending-window`, {
      windowDays: [1, 2, 3],
      windowStart: '08:30',
      windowEnd: '16:00',
      holidays: ['2027-01-01'],
      timezone: 'Europe/Berlin',
    });
    expect(put.status).toBe(200);
    expect([put.body.windowDays, put.body.windowStart, put.body.holidays, put.body.timezone]).toEqual([
      [1, 2, 3],
      '08:30',
      ['2027-01-01'],
      'Europe/Berlin',
    ]);

    const refused = await sys.api('POST', '/v1/sequences', {
      name: 'bad window',
      steps: [{ subject: 'a', body: 'b' }],
      sendingWindow: { days: [1], start: '17:00', end: '09:00' },
    });
    expect(refused.status).toBe(400);
    const window = { days: [1, 2, 3, 4, 5], start: '10:00', end: '12:00', holidays: ['2026-12-31'] };
    const seq = await sequence(1, window);
    expect((await sys.api('GET', `/v1/sequences/${seq}`)).body.sendingWindow).toEqual(window);
    const cleared = await sys.api('PUT', `/v1/sequences/${seq}/sending-window`, { sendingWindow: null });
    expect(cleared.status).toBe(200);
    expect((await sys.api('GET', `/v1/sequences/${seq}`)).body.sendingWindow).toBeNull();
  });

  it("a first touch skips the mailbox's holidays, and the sequence's window overrides the mailbox's, in the prospect's zone", async () => {
    const z = middayZone(Date.now());
    // The mailbox sends all day every day, but not today (its own zone).
    const mb = await mailbox({
      windowDays: [1, 2, 3, 4, 5, 6, 7],
      windowStart: '00:00',
      windowEnd: '23:59',
      holidays: [z.date(0)],
      timezone: z.zone,
    });
    const plain = await sequence(1);
    const [onHoliday] = await enrollNew(plain, mb, 1);
    expect(Date.parse((await enrollment(sys, onHoliday!)).nextTouchAt!)).toBe(z.at(1, '00:00'));

    // The sequence's own window: 09:00–17:00 in the prospect's zone, today and tomorrow off.
    const own = await sequence(1, {
      days: [1, 2, 3, 4, 5, 6, 7],
      start: '09:00',
      end: '17:00',
      holidays: [z.date(0), z.date(1)],
    });
    const [e] = await enrollNew(own, await mailbox(), 1, z.zone);
    const due = z.at(2, '09:00');
    expect(Date.parse((await enrollment(sys, e!)).nextTouchAt!)).toBe(due);
    // Its job is due then too, and nothing went out.
    expectDueAt(await delayedUntil(touchKey(e!, 1)), due);
    expect(delivered(e!)).toEqual([]);
  });

  it("the next touch's wait lands in the sequence's window, skipping its holiday", async () => {
    const z = middayZone(Date.now());
    const own = await sequence(2, {
      days: [1, 2, 3, 4, 5, 6, 7],
      start: '08:00',
      end: '18:00',
      holidays: [z.date(1)],
    });
    // The mailbox's own window (weekdays 09:00–17:00 UTC) does not apply.
    const [e] = await enrollNew(own, await mailbox({ windowDays: [1, 2, 3, 4, 5] }), 1, z.zone);
    await waitFor('touch 1 sent', async () => (await enrollment(sys, e!)).currentStep === 2);
    // One day after today's touch is tomorrow, a holiday: the day after, at 08:00.
    expect(Date.parse((await enrollment(sys, e!)).nextTouchAt!)).toBe(z.at(2, '08:00'));
    expectDueAt(await delayedUntil(touchKey(e!, 2)), z.at(2, '08:00'));
  });

  it('a follow-up the sender scheduled keeps its raw due time, so a holiday added now re-times it at once, exactly', async () => {
    const z = middayZone(Date.now());
    const window = { days: [1, 2, 3, 4, 5, 6, 7], start: '08:00', end: '18:00' };
    const own = await sequence(2, window);
    const [e] = await enrollNew(own, await mailbox(), 1, z.zone);
    await waitFor('touch 1 sent', async () => (await enrollment(sys, e!)).currentStep === 2);
    const pending = async () =>
      (
        await sys.rt.db.pool.query<{ next: Date; unfitted: Date | null; fitted: Date | null; sent: Date }>(
          `SELECT e.next_touch_at AS next, e.next_touch_unfitted_at AS unfitted, e.next_touch_fitted_at AS fitted,
             t.sent_at AS sent
           FROM enrollment e JOIN touch t ON t.enrollment_id = e.id AND t.step = 1 WHERE e.id = $1`,
          [e],
        )
      ).rows[0]!;
    const before = await pending();
    // The raw due time is the wait after the send (a day: the zone has no DST), before the window.
    expect(before.unfitted).not.toBeNull();
    expect(Math.abs(before.unfitted!.getTime() - (before.sent.getTime() + DAY))).toBeLessThan(5_000);
    expect(before.fitted?.getTime()).toBe(before.next.getTime());

    // Tomorrow becomes a holiday: the follow-up moves now, to the opening of the day after.
    const r = await sys.api('PUT', `/v1/sequences/${own}/sending-window`, {
      sendingWindow: { ...window, holidays: [z.date(1)] },
    });
    expect(r.status).toBe(200);
    expect(r.body.retime).toMatchObject({
      checked: 1,
      retimed: 1,
      dueMoved: 1,
      jobsMoved: 1,
      notRefittable: 0,
    });
    const after = await pending();
    expect(after.next.getTime()).toBe(z.at(2, '08:00'));
    expect(after.unfitted).toEqual(before.unfitted);
    expectDueAt(await delayedUntil(touchKey(e!, 2)), after.next.getTime());
  });

  it('a touch the token bucket makes wait past the end of its window waits for the next slot instead', async () => {
    const z = middayZone(Date.now());
    // The window closes in three minutes; the mailbox may send once an hour.
    const own = await sequence(1, { days: [1, 2, 3, 4, 5, 6, 7], start: '08:00', end: z.time(3 * 60_000) });
    const mb = await mailbox({ perMinute: 1, perHour: 1 });
    const ids = await enrollNew(own, mb, 2, z.zone);
    const [waiting, retryAt] = await waitFor('one sent, the other waiting for a token', async () => {
      const sent = ids.filter((id) => delivered(id).length > 0);
      const left = ids.find((id) => delivered(id).length === 0);
      if (sent.length !== 1 || !left) return null;
      const until = await delayedUntil(touchKey(left, 1));
      return until !== null ? ([left, until] as const) : null;
    });
    // The token bucket's own answer is an hour from now, when the window has been shut for
    // most of it: the touch waits for tomorrow's slot instead.
    expectDueAt(retryAt, z.at(1, '08:00'));
    expect(delivered(waiting)).toEqual([]);
    expect((await enrollment(sys, waiting)).status).toBe('active');
  });

  it('a touch that comes due outside its window (a job re-created late) waits for the window to open', async () => {
    const z = middayZone(Date.now());
    // Open only in the small hours, and it is midday.
    const own = await sequence(1, { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '06:00' });
    const version = (await sys.api('GET', `/v1/sequences/${own}`)).body.versions[0].id;
    const [prospect] = (
      await sys.api('POST', '/v1/prospects', {
        prospects: [{ email: `late${++n}@prospect.example`, timezone: z.zone }],
      })
    ).body.prospects;
    const { enrolled } = await sys.rt.repos.enrollments.enroll({
      sequenceId: own,
      sequenceVersionId: version,
      mailboxId: await mailbox(),
      prospectIds: [prospect.id],
      firstTouchAt: () => new Date(),
    });
    const e = enrolled[0]!.id;
    await sys.rt.touchQueue.schedule([{ enrollmentId: e, step: 1, dueAt: new Date() }]);
    const until = await waitFor('the sender to hold it for the window', () => delayedUntil(touchKey(e, 1)));
    expectDueAt(until, z.at(1, '00:00'));
    expect(delivered(e)).toEqual([]);
  });
});
