import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../support/api-fixture.js';
import { call } from './operator-fixture.js';

describe('mailbox caps, pause and resume, pools deleted, events by time, pages (real PostgreSQL)', () => {
  let f: ApiFixture;
  let admin: string;
  let writer: string;

  beforeAll(async () => {
    f = await apiFixture('mailbox-settings');
    admin = await f.key('admin', 'mb-admin');
    writer = await f.key('write', 'mb-writer');
  });
  afterAll(async () => {
    await f?.close();
  });

  const mailbox = async (address: string) =>
    (await call(f, writer, 'POST', '/v1/mailboxes', { provider: 'sandbox', address })).body.id as string;

  it('changes caps, audited with before, after and the reason; refuses a body with no cap', async () => {
    const id = await mailbox('caps@mb.example');
    const res = await call(f, writer, 'PATCH', `/v1/mailboxes/${id}/caps`, {
      perHour: 20,
      minSpacingMs: 90_000,
      reason: 'warming up',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ perHour: 20, minSpacingMs: 90_000 });
    expect((await call(f, writer, 'PATCH', `/v1/mailboxes/${id}/caps`, { reason: 'x' })).status).toBe(400);
    const audit = (await call(f, admin, 'GET', `/v1/audit?entityType=mailbox&entityId=${id}`)).body.items;
    expect(audit.at(-2)).toMatchObject({
      actor: 'mb-writer',
      action: 'mailbox.caps_set',
      data: { reason: 'warming up', after: { perHour: 20, minSpacingMs: 90_000 } },
    });
    // Then the pending touches under the new caps: none here.
    expect(res.body.retime).toMatchObject({ checked: 0, retimed: 0 });
    expect(audit.at(-1)).toMatchObject({
      actor: 'mb-writer',
      action: 'mailbox.touches_retimed',
      data: { cause: 'caps', retimed: 0 },
    });
  });

  it('pauses and resumes a mailbox with a reason; a second pause is 409', async () => {
    const id = await mailbox('pause@mb.example');
    const paused = await call(f, writer, 'POST', `/v1/mailboxes/${id}/pause`, { reason: 'spam complaints' });
    expect(paused.body).toMatchObject({ status: 'paused', statusReason: 'operator: spam complaints' });
    expect((await call(f, writer, 'POST', `/v1/mailboxes/${id}/pause`, { reason: 'x' })).status).toBe(409);
    const resumed = await call(f, writer, 'POST', `/v1/mailboxes/${id}/resume`, { reason: 'fixed DMARC' });
    expect(resumed.body).toMatchObject({ status: 'active', statusReason: null });
    const audit = (await call(f, admin, 'GET', `/v1/audit?entityType=mailbox&entityId=${id}`)).body.items;
    expect(
      audit.map((a: { action: string; data: { reason?: string } }) => [a.action, a.data.reason]),
    ).toEqual([
      ['mailbox.created', undefined],
      ['mailbox.paused', 'spam complaints'],
      ['mailbox.resumed', 'fixed DMARC'],
    ]);
  });

  it('deletes a pool no sequence sends from (admin); one in use is 409', async () => {
    const a = await mailbox('pool-a@mb.example');
    const free = (await call(f, writer, 'POST', '/v1/mailbox-pools', { name: 'free', mailboxIds: [a] })).body
      .id;
    const used = (await call(f, writer, 'POST', '/v1/mailbox-pools', { name: 'used', mailboxIds: [a] })).body
      .id;
    const seq = await call(f, writer, 'POST', '/v1/sequences', {
      name: 'pooled',
      steps: [{ subject: 's', body: 'b', wait: '1d' }],
    });
    expect(
      (await call(f, writer, 'PUT', `/v1/sequences/${seq.body.id}/mailbox-pool`, { mailboxPoolId: used }))
        .status,
    ).toBeLessThan(300);
    expect((await call(f, writer, 'DELETE', `/v1/mailbox-pools/${free}?reason=unused`)).status).toBe(403);
    expect((await call(f, admin, 'DELETE', `/v1/mailbox-pools/${free}?reason=unused`)).status).toBe(204);
    expect((await call(f, admin, 'GET', `/v1/mailbox-pools/${free}`)).status).toBe(404);
    const inUse = await call(f, admin, 'DELETE', `/v1/mailbox-pools/${used}?reason=unused`);
    expect(inUse.status).toBe(409);
  });

  it('pages mailboxes with a cursor', async () => {
    for (let i = 0; i < 3; i++) await mailbox(`page${i}@mb.example`);
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const res = await call(f, writer, 'GET', `/v1/mailboxes?limit=2${next ? `&after=${next}` : ''}`);
      seen.push(...res.body.items.map((m: { id: string }) => m.id));
      next = res.body.next;
    } while (next);
    const all = (await call(f, writer, 'GET', '/v1/mailboxes?limit=500')).body.items.map(
      (m: { id: string }) => m.id,
    );
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('lists events received within a time range', async () => {
    const insert = (at: string) =>
      f.db.pool.query(
        `INSERT INTO event (id, source, external_id, type, payload, received_at) VALUES ($1, 'test', $2, 'opened', '{}', $3)`,
        [randomUUID(), randomUUID(), at],
      );
    await insert('2026-01-01T10:00:00Z');
    await insert('2026-01-02T10:00:00Z');
    await insert('2026-01-03T10:00:00Z');
    const res = await call(f, writer, 'GET', '/v1/events?from=2026-01-02T00:00:00Z&to=2026-01-03T10:00:00Z');
    expect(res.body.items.map((e: { receivedAt: string }) => e.receivedAt)).toEqual([
      '2026-01-02T10:00:00.000Z',
    ]);
  });
});
