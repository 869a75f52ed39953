import { placeInWindow, touchKey } from '@touchbase/core';
import { retimePendingTouches } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearOfTheHour, middayZone } from '../support/midday-zone.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

type Row = { id: string; next: Date; unfitted: Date | null; fitted: Date | null };

/**
 * Issues 12 and 19: a change of a mailbox's window, holidays or caps, or of a
 * sequence's window, re-times the pending touches now, from their unfitted due
 * time, in PostgreSQL and in the delayed BullMQ jobs alike; a touch in flight is
 * left alone; a second run moves nothing; a run that died between PostgreSQL and
 * Redis is completed by the next. Real PostgreSQL and Redis, real time (TIME_SCALE
 * 1: windows apply), no sender (nothing here is due before the test ends).
 */
// The suite reads the local clock once and expects 13:00 and 14:00 local still ahead.
await clearOfTheHour();

describe('re-timing pending touches after a settings change', () => {
  let sys: TestSystem;
  let n = 0;
  const clock = middayZone(Date.now());
  const window = (start: string, extra: Record<string, unknown> = {}) => ({
    windowDays: EVERY_DAY,
    windowStart: start,
    windowEnd: '17:00',
    timezone: clock.zone,
    ...extra,
  });
  let mailboxId: string;
  let sequenceId: string;
  let ids: string[];
  let inFlight: string;
  let enrolledAt: { before: number; after: number };

  beforeAll(async () => {
    sys = await startTestSystem('retime_pending', { TIME_SCALE: '1' }, { pacingMs: 0, withoutSender: true });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function rows(): Promise<Map<string, Row>> {
    const r = await sys.rt.db.pool.query<Row>(
      `SELECT id, next_touch_at AS next, next_touch_unfitted_at AS unfitted, next_touch_fitted_at AS fitted
       FROM enrollment WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(r.rows.map((x) => [x.id, x]));
  }
  const jobAt = (id: string) => sys.rt.touchQueue.delayedUntil(touchKey(id, 1));
  /** Every pending touch (but the one in flight) is due at `at`, in PostgreSQL and in its job. */
  async function expectDueAt(at: number, toleranceMs = 50) {
    const now = await rows();
    for (const id of ids) {
      if (id === inFlight) continue;
      expect(now.get(id)!.next.getTime(), id).toBe(at);
      expect(now.get(id)!.fitted?.getTime(), id).toBe(at);
      const job = await jobAt(id);
      expect(Math.abs(job! - at), `job of ${id} at ${job}, due ${at}`).toBeLessThanOrEqual(toleranceMs);
    }
  }

  it('enrolling stores the unfitted due time next to the fitted one, and the job follows the fitted one', async () => {
    const m = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: `sdr-${++n}@retime.example`,
      ...window('14:00'),
    });
    expect(m.status).toBe(201);
    mailboxId = m.body.id;
    const s = await sys.api('POST', '/v1/sequences', {
      name: `retime-${++n}`,
      steps: [{ subject: 'Hello', body: 'One', wait: '1d' }],
    });
    expect(s.status).toBe(201);
    sequenceId = s.body.id;
    const p = await sys.api('POST', '/v1/prospects', {
      prospects: Array.from({ length: 3 }, () => ({ email: `p${++n}@prospect.example` })),
    });
    const before = Date.now();
    const e = await sys.api('POST', '/v1/enrollments', {
      sequenceId,
      mailboxId,
      prospectIds: p.body.prospects.map((x: { id: string }) => x.id),
    });
    enrolledAt = { before, after: Date.now() };
    expect(e.status).toBe(201);
    ids = e.body.enrolled.map((x: { id: string }) => x.id);
    expect(ids).toHaveLength(3);

    const at14 = clock.at(0, '14:00');
    for (const row of (await rows()).values()) {
      expect(row.next.getTime()).toBe(at14);
      expect(row.fitted?.getTime()).toBe(at14);
      // The raw due time: the moment of enrolment (no pacing), before the window.
      expect(row.unfitted!.getTime()).toBeGreaterThanOrEqual(enrolledAt.before);
      expect(row.unfitted!.getTime()).toBeLessThanOrEqual(enrolledAt.after);
    }
    // One touch in flight: the sender claimed it (its touch row, 'sending').
    inFlight = ids[2]!;
    await sys.rt.db.pool.query(
      `INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, variant)
       VALUES (gen_random_uuid(), $1, 1, 1, 'sending', $2, 0)`,
      [inFlight, touchKey(inFlight, 1)],
    );
    // Enrolment computes the delay from its clock reading, BullMQ from a later one.
    await expectDueAt(at14, 1_000);
  });

  it('a wider mailbox window brings pending touches forward, re-fitted from the unfitted time', async () => {
    const r = await sys.api('PUT', `/v1/mailboxes/${mailboxId}/sending-window`, window('13:00'));
    expect(r.status).toBe(200);
    expect(r.body.retime).toEqual({ checked: 2, retimed: 2, dueMoved: 2, jobsMoved: 2, notRefittable: 0 });
    const at13 = clock.at(0, '13:00');
    await expectDueAt(at13);
    // Exact: fitting the fitted time (14:00, inside 13:00–17:00) again would have left it at 14:00.
    const fromFitted = placeInWindow(new Date(clock.at(0, '14:00')), {
      timeZone: clock.zone,
      window: { days: EVERY_DAY, start: '13:00', end: '17:00' },
      timeScale: 1,
    });
    expect(fromFitted.getTime()).toBe(clock.at(0, '14:00'));
    expect(fromFitted.getTime()).not.toBe(at13);
  });

  it('nothing in flight is touched', async () => {
    const row = (await rows()).get(inFlight)!;
    expect(row.next.getTime()).toBe(clock.at(0, '14:00'));
    expect(Math.abs((await jobAt(inFlight))! - clock.at(0, '14:00'))).toBeLessThanOrEqual(1_000);
  });

  it('the same change twice moves nothing the second time', async () => {
    const r = await sys.api('PUT', `/v1/mailboxes/${mailboxId}/sending-window`, window('13:00'));
    expect(r.status).toBe(200);
    expect(r.body.retime).toMatchObject({ checked: 2, retimed: 0, dueMoved: 0, jobsMoved: 0 });
    await expectDueAt(clock.at(0, '13:00'));
  });

  it('a narrower window pushes them back; a holiday to the next open day', async () => {
    const r = await sys.api('PUT', `/v1/mailboxes/${mailboxId}/sending-window`, window('15:00'));
    expect(r.body.retime).toMatchObject({ retimed: 2, dueMoved: 2, jobsMoved: 2 });
    await expectDueAt(clock.at(0, '15:00'));
    const h = await sys.api(
      'PUT',
      `/v1/mailboxes/${mailboxId}/sending-window`,
      window('15:00', { holidays: [clock.date(0)] }),
    );
    expect(h.body.retime).toMatchObject({ retimed: 2, dueMoved: 2 });
    await expectDueAt(clock.at(1, '15:00'));
    // Back to 14:00 without the holiday: where enrolment under that window put them.
    const back = await sys.api('PUT', `/v1/mailboxes/${mailboxId}/sending-window`, window('14:00'));
    expect(back.body.retime).toMatchObject({ retimed: 2 });
    await expectDueAt(clock.at(0, '14:00'));
  });

  it("a sequence's window re-times its pending touches, and removing it goes back to the mailbox's", async () => {
    const r = await sys.api('PUT', `/v1/sequences/${sequenceId}/sending-window`, {
      sendingWindow: { days: EVERY_DAY, start: '13:30', end: '17:00' },
    });
    expect(r.status).toBe(200);
    expect(r.body.retime).toMatchObject({ checked: 2, retimed: 2, dueMoved: 2 });
    await expectDueAt(clock.at(0, '13:30'));
    const off = await sys.api('PUT', `/v1/sequences/${sequenceId}/sending-window`, { sendingWindow: null });
    expect(off.body.retime).toMatchObject({ retimed: 2 });
    await expectDueAt(clock.at(0, '14:00'));
  });

  it('a run that died between PostgreSQL and Redis is completed by the next', async () => {
    await sys.rt.repos.mailboxes.setSendingWindow(mailboxId, {
      windowDays: EVERY_DAY,
      windowStart: '13:00',
      windowEnd: '17:00',
      holidays: [],
    });
    const deps = {
      pending: sys.rt.repos.pendingTouches,
      timeScale: 1,
      logger: sys.rt.logger,
    };
    const killed = retimePendingTouches(
      {
        ...deps,
        jobs: {
          retime: () => Promise.reject(new Error('killed between PostgreSQL and Redis')),
        },
      },
      { mailboxId },
    );
    await expect(killed).rejects.toThrow('killed');
    // PostgreSQL moved, the jobs did not.
    const at13 = clock.at(0, '13:00');
    for (const id of ids.filter((x) => x !== inFlight)) {
      expect((await rows()).get(id)!.next.getTime()).toBe(at13);
      expect(Math.abs((await jobAt(id))! - clock.at(0, '14:00'))).toBeLessThanOrEqual(50);
    }
    // The reconciler finds every job present (none was removed): nothing to repair.
    const present = await sys.rt.touchQueue.existing(ids.map((id) => touchKey(id, 1)));
    expect(present.size).toBe(3);
    const again = await retimePendingTouches({ ...deps, jobs: sys.rt.touchQueue }, { mailboxId });
    expect(again).toMatchObject({ checked: 2, retimed: 2, dueMoved: 0, jobsMoved: 2 });
    await expectDueAt(at13);
  });

  it('new caps bring back a job a throttle wait held past its due time', async () => {
    const held = ids[0]!;
    const job = await sys.rt.touchQueue.job(touchKey(held, 1));
    // As the sender's throttle wait does: the job moves, next_touch_at stays.
    await job!.changeDelay(clock.at(1, '16:00') - Date.now());
    const r = await sys.api('PATCH', `/v1/mailboxes/${mailboxId}/caps`, {
      perDay: 1000,
      reason: 'warm-up done',
    });
    expect(r.status).toBe(200);
    expect(r.body.retime).toMatchObject({ checked: 2, retimed: 1, dueMoved: 0, jobsMoved: 1 });
    await expectDueAt(clock.at(0, '13:00'));
  });

  it('every re-timing is audited with the counts', async () => {
    const audit = await sys.rt.db.pool.query<{ action: string; data: { cause: string; retimed: number } }>(
      `SELECT action, data FROM audit_log WHERE action LIKE '%touches_retimed' ORDER BY id`,
    );
    expect(audit.rows.map((a) => [a.action, a.data.cause, a.data.retimed])).toEqual([
      ['mailbox.touches_retimed', 'window', 2],
      ['mailbox.touches_retimed', 'window', 0],
      ['mailbox.touches_retimed', 'window', 2],
      ['mailbox.touches_retimed', 'window', 2],
      ['mailbox.touches_retimed', 'window', 2],
      ['sequence.touches_retimed', 'window', 2],
      ['sequence.touches_retimed', 'window', 2],
      ['mailbox.touches_retimed', 'caps', 1],
    ]);
  });
});
