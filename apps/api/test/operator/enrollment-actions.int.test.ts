import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../support/api-fixture.js';
import { call, enrolled, hasJob, sequenceAndMailbox } from './operator-fixture.js';

describe('enrollment actions: pause, resume, cancel, one or in bulk, audited (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  let admin: string;
  let writer: string;

  beforeAll(async () => {
    f = await apiFixture('enrollment-actions');
    admin = await f.key('admin', 'ops-admin');
    writer = await f.key('write', 'ops-writer');
  });
  afterAll(async () => {
    await f?.close();
  });

  const auditOf = async (enrollmentId: string) =>
    (await call(f, admin, 'GET', `/v1/audit?entityType=enrollment&entityId=${enrollmentId}`)).body.items as {
      actor: string;
      action: string;
      data: Record<string, unknown>;
    }[];

  it('pauses and resumes one enrollment: its job goes and comes back, each audited with who and why', async () => {
    const at = await sequenceAndMailbox(f, admin, 'one');
    const [p] = await enrolled(f, admin, at, [{ email: 'ann@one.example', firstName: 'Ann' }]);
    expect(await hasJob(f, p!.enrollmentId)).toBe(true);

    const paused = await call(f, writer, 'POST', `/v1/enrollments/${p!.enrollmentId}/pause`, {
      reason: 'asked by the AE',
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', stopReason: 'manual_pause' });
    expect(await hasJob(f, p!.enrollmentId)).toBe(false);

    // Paused twice: the state machine has no paused → paused, so 409 naming the status.
    const again = await call(f, writer, 'POST', `/v1/enrollments/${p!.enrollmentId}/pause`, { reason: 'x' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');

    const resumed = await call(f, writer, 'POST', `/v1/enrollments/${p!.enrollmentId}/resume`, {
      reason: 'AE done',
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'active', stopReason: null });
    expect(await hasJob(f, p!.enrollmentId)).toBe(true);

    const audit = await auditOf(p!.enrollmentId);
    expect(audit.map((a) => [a.actor, a.action, a.data.reason])).toEqual([
      ['ops-writer', 'enrollment.paused', 'asked by the AE'],
      ['ops-writer', 'enrollment.resumed', 'AE done'],
    ]);
  });

  it('a pause until a date is resumed by the reconciler pass that resumes out-of-office pauses', async () => {
    const at = await sequenceAndMailbox(f, admin, 'until');
    const [p] = await enrolled(f, admin, at, [{ email: 'bo@until.example' }]);
    const until = new Date(Date.now() + 3_600_000);
    const paused = await call(f, writer, 'POST', `/v1/enrollments/${p!.enrollmentId}/pause`, {
      reason: 'holiday',
      until: until.toISOString(),
    });
    expect(paused.body).toMatchObject({ status: 'paused', stopReason: 'manual_pause_until' });
    expect(new Date(paused.body.nextTouchAt).getTime()).toBe(until.getTime());

    expect(await f.repos.events.resumeExpiredPauses(new Date())).toEqual([]);
    const resumed = await f.repos.events.resumeExpiredPauses(new Date(until.getTime() + 1));
    expect(resumed.map((r) => r.id)).toEqual([p!.enrollmentId]);
    expect((await f.repos.enrollments.get(p!.enrollmentId)).status).toBe('active');
  });

  it('resumes, in bulk, the enrollments the sender paused for a missing variable once it is filled', async () => {
    const at = await sequenceAndMailbox(f, admin, 'missing');
    const ps = await enrolled(f, admin, at, [
      { email: 'cy@missing.example' },
      { email: 'di@missing.example' },
      { email: 'ed@missing.example', firstName: 'Ed' },
    ]);
    // What the sender does on a missing variable (touch-progress `pause`).
    for (const p of ps.slice(0, 2)) {
      expect(await f.repos.touches.pause(p.enrollmentId, 1, 'missing_variable:firstName')).toBe(true);
      await f.touchQueue.cancel([{ enrollmentId: p.enrollmentId, step: 1 }]);
    }
    await call(f, writer, 'POST', `/v1/enrollments/${ps[2]!.enrollmentId}/pause`, { reason: 'manual' });

    // Bulk is admin.
    const body = {
      filter: { sequenceId: at.sequenceId, pausedFor: 'missing_variable' },
      reason: 'filled firstName',
    };
    expect((await call(f, writer, 'POST', '/v1/enrollments/bulk/resume', body)).status).toBe(403);
    const res = await call(f, admin, 'POST', '/v1/enrollments/bulk/resume', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matched: 2, changed: 2, capped: false });
    for (const p of ps.slice(0, 2)) {
      expect((await f.repos.enrollments.get(p.enrollmentId)).status).toBe('active');
      expect(await hasJob(f, p.enrollmentId)).toBe(true);
    }
    // The manual pause is not a missing variable's: left paused.
    expect((await f.repos.enrollments.get(ps[2]!.enrollmentId)).status).toBe('paused');
  });

  it('bulk actions take at most the limit, answer with counts, and refuse an empty filter', async () => {
    const at = await sequenceAndMailbox(f, admin, 'bulk');
    const ps = await enrolled(f, admin, at, [
      { email: 'a@bulk.example' },
      { email: 'b@bulk.example' },
      { email: 'c@bulk.example' },
    ]);
    const empty = await call(f, admin, 'POST', '/v1/enrollments/bulk/cancel', { filter: {}, reason: 'x' });
    expect(empty.status).toBe(400);

    const paused = await call(f, admin, 'POST', '/v1/enrollments/bulk/pause', {
      filter: { mailboxId: at.mailboxId, status: 'active' },
      reason: 'mailbox warming',
      limit: 2,
    });
    expect(paused.body).toMatchObject({ matched: 3, changed: 2, capped: true });

    const cancelled = await call(f, admin, 'POST', '/v1/enrollments/bulk/cancel', {
      filter: { sequenceId: at.sequenceId },
      reason: 'campaign over',
    });
    expect(cancelled.body).toMatchObject({ matched: 3, changed: 3, capped: false });
    for (const p of ps) {
      const e = await f.repos.enrollments.get(p.enrollmentId);
      expect(e).toMatchObject({ status: 'cancelled', stopReason: 'manual:campaign over', nextTouchAt: null });
      expect(await hasJob(f, p.enrollmentId)).toBe(false);
      expect((await auditOf(p.enrollmentId)).at(-1)).toMatchObject({
        actor: 'ops-admin',
        action: 'enrollment.cancelled',
        data: { reason: 'campaign over' },
      });
    }
    // Ended for good: nothing left to cancel or resume.
    const none = await call(f, admin, 'POST', '/v1/enrollments/bulk/resume', {
      filter: { sequenceId: at.sequenceId },
      reason: 'x',
    });
    expect(none.body).toMatchObject({ matched: 0, changed: 0 });
  });
});
