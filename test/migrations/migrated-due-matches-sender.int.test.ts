import { randomUUID } from 'node:crypto';
import { type DoNotContactTable, touchKey } from '@touchbase/core';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../../apps/api/test/support/api-fixture.js';
import { nextDue } from '../../apps/sender/src/use-cases/touch-timing.js';

const TOKEN = 'migrated-due-admin-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };
// France: no contact on Wednesdays nor before 10:00, on top of the mailbox's window.
const DO_NOT_CONTACT: DoNotContactTable = { FR: { days: [3], notBefore: '10:00', dates: [] } };
const steps = (waits: string[]) =>
  waits.map((wait, i) => ({ subject: `Hi ${i + 1}`, body: `copy ${i + 1}`, wait }));

/**
 * A moved enrollment's due time is the one the sender would have scheduled: the
 * sender's own `nextDue` (its timing: the prospect's zone, the mailbox's window and
 * holidays, the recipient country's do-not-contact rule) from the last touch, with
 * the new version's wait; and its raw time is kept so a window change re-fits it.
 */
describe('a migrated enrollment is due when the sender would have scheduled it (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await f.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const q = <T extends object>(sql: string, values: unknown[] = []) =>
    f.db.pool.query<T & import('pg').QueryResultRow>(sql, values).then((r) => r.rows);

  beforeAll(async () => {
    f = await apiFixture('migrated_due', { adminToken: TOKEN, doNotContact: DO_NOT_CONTACT });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('for prospects in other zones, countries and windows', async () => {
    const mailbox = await call('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'sdr@due.example',
      windowDays: [1, 2, 3, 4, 5],
      windowStart: '08:30',
      windowEnd: '16:15',
      timezone: 'America/New_York',
      holidays: ['2031-01-01'],
    });
    expect(mailbox.status).toBe(201);
    const seq = await call('POST', '/v1/sequences', {
      name: `due-${randomUUID()}`,
      steps: steps(['2d', '1d']),
    });
    const people = [
      { email: `fr-${randomUUID()}@people.example`, timezone: 'Europe/Paris', attributes: { country: 'fr' } },
      { email: `ny-${randomUUID()}@people.example`, timezone: 'America/New_York' },
      { email: `nz-${randomUUID()}@people.example`, timezone: 'Pacific/Chatham' },
      { email: `none-${randomUUID()}@people.example` },
    ];
    const prospects = await call('POST', '/v1/prospects', { prospects: people });
    expect(prospects.status).toBe(200);
    const enrolled = await call('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId: mailbox.body.id,
      prospectIds: prospects.body.prospects.map((p: { id: string }) => p.id),
    });
    const ids = (enrolled.body.enrolled as { id: string }[]).map((e) => e.id);
    // Each has its first touch sent some hours ago, at different times, and waits at node 2.
    const sentAt = ids.map((_, i) => new Date(Date.now() - (i * 7 + 1) * 3_600_000));
    for (const [i, id] of ids.entries()) {
      await q(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, sent_at) VALUES ($1, $2, 1, 'sent', $3, $4)`,
        [randomUUID(), id, touchKey(id, 1), sentAt[i]],
      );
      await q('UPDATE enrollment SET current_step = 2 WHERE id = $1', [id]);
    }
    // The new version waits 5 days and 4 hours after the first touch instead of 2 days.
    const v2 = await call('POST', `/v1/sequences/${seq.body.id}/versions`, { steps: steps(['5d4h', '1d']) });
    expect(v2.status).toBe(201);
    const plan = await call('POST', `/v1/sequences/${seq.body.id}/migrations`, {
      from: 1,
      to: 2,
      mapping: { 'step-1': 'step-1', 'step-2': 'step-2' },
      reason: 'longer wait',
    });
    expect(plan.status).toBe(201);
    await call('POST', `/v1/sequences/${seq.body.id}/migrations`, { planId: plan.body.planId });
    await waitFor('the migration to complete', async () => {
      const m = await call('GET', `/v1/sequences/${seq.body.id}/migrations/${plan.body.planId}`);
      return m.body.status === 'completed' ? m.body : null;
    });

    for (const [i, id] of ids.entries()) {
      const [row] = await q<{
        next_touch_at: Date;
        next_touch_unfitted_at: Date;
        next_touch_fitted_at: Date;
      }>('SELECT next_touch_at, next_touch_unfitted_at, next_touch_fitted_at FROM enrollment WHERE id = $1', [
        id,
      ]);
      const ctx = await f.repos.touches.loadForSend(id);
      expect(ctx).not.toBeNull();
      const sender = nextDue(ctx!, '5d4h', sentAt[i]!, 1, undefined, DO_NOT_CONTACT);
      expect({
        at: row!.next_touch_at,
        raw: row!.next_touch_unfitted_at,
        fitted: row!.next_touch_fitted_at,
      }).toEqual({
        at: sender.at,
        raw: sender.unfittedAt,
        fitted: sender.at,
      });
    }
  });
});
