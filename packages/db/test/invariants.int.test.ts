import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Repositories } from '../src/index.js';
import {
  enrollOne as enrollProspect,
  type RepositoryFixture,
  repositoryFixture,
} from './support/repository-fixture.js';

describe('repositories hold the invariants of the touch (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let repos: Repositories;

  beforeAll(async () => {
    fixture = await repositoryFixture('invariants', 'sdr@inv.example');
    ({ db, repos } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  const enrollOne = (email: string) => enrollProspect(fixture, email);

  it('invariant 1: a claim after the reply is committed is fenced; a claim that won holds the row until it commits', async () => {
    const { prospect, enrollmentId } = await enrollOne('fence@inv.example');
    await repos.enrollments.stopForProspect(db.pool, prospect.id, 'replied', 'reply');
    expect((await repos.touches.claim(enrollmentId, 1, touchKey(enrollmentId, 1), prospect.email)).kind).toBe(
      'fenced',
    );

    // The other order: a sender's claim in flight blocks ingest's UPDATE until it commits.
    const second = await enrollOne('fence2@inv.example');
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `UPDATE enrollment SET updated_at = now() WHERE id = $1 AND status = 'active' AND current_step = 1`,
        [second.enrollmentId],
      );
      let stopped = false;
      const stop = repos.enrollments
        .stopForProspect(db.pool, second.prospect.id, 'replied', 'reply')
        .then((r) => {
          stopped = true;
          return r;
        });
      await new Promise((r) => setTimeout(r, 200));
      expect(stopped).toBe(false);
      await client.query('COMMIT');
      expect((await stop).map((s) => s.id)).toEqual([second.enrollmentId]);
    } finally {
      client.release();
    }
  });

  it('invariant 2: one touch row per (enrollment, step); a second claim finds it in doubt, after the send it is fenced', async () => {
    const { prospect, enrollmentId } = await enrollOne('once@inv.example');
    const key = touchKey(enrollmentId, 1);
    const [a, b] = await Promise.all([
      repos.touches.claim(enrollmentId, 1, key, prospect.email),
      repos.touches.claim(enrollmentId, 1, key, prospect.email),
    ]);
    expect([a.kind, b.kind].sort()).toEqual(['claimed', 'in_doubt']);
    await repos.touches.recordSent({
      enrollmentId,
      step: 1,
      messageId: 'm1',
      conversationId: 'c1',
      nextTouchAt: new Date(),
    });
    expect((await repos.touches.claim(enrollmentId, 1, key, prospect.email)).kind).toBe('fenced');
    await expect(
      db.pool.query(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key) VALUES ($1, $2, 1, 'sending', $3)`,
        [randomUUID(), enrollmentId, `${key}-x`],
      ),
    ).rejects.toThrow(/unique/);
  });

  it('invariant 2 with resends: one touch row per (enrollment, step, attempt), each with its own key; a soft bounce sends the enrollment back, stale attempts are fenced, never a fourth attempt', async () => {
    const { prospect, enrollmentId: e } = await enrollOne('resend@inv.example');
    const now = new Date();
    const bounce = (externalId: string, messageId: string) =>
      recordAndApplyEvent(
        repos.events,
        {
          source: 'test',
          externalId,
          type: 'bounce',
          occurredAt: now,
          messageId,
          channel: 'email',
          bounce: { hard: false, status: '4.2.2' },
          data: {},
        },
        { now, timeScale: 1 },
      );
    const delivered = (externalId: string, messageId: string) =>
      recordAndApplyEvent(repos.events, {
        source: 'test',
        externalId,
        type: 'delivered',
        occurredAt: now,
        messageId,
        channel: 'email',
        data: {},
      });
    const send = async (attempt: number, messageId: string) => {
      const key = touchKey(e, 1, attempt);
      const [a, b] = await Promise.all([
        repos.touches.claim(e, 1, key, prospect.email, 0, attempt),
        repos.touches.claim(e, 1, key, prospect.email, 0, attempt),
      ]);
      expect([a.kind, b.kind].sort()).toEqual(['claimed', 'in_doubt']);
      const advanced = await repos.touches.recordSent({
        enrollmentId: e,
        step: 1,
        attempt,
        messageId,
        conversationId: 'c1',
        nextTouchAt: now,
      });
      expect(advanced).toBe(true);
    };

    await send(1, 'rs-m1');
    const first = await bounce('sb-1', 'rs-m1');
    expect(first.outcome).toBe('soft_bounce');
    expect(first.retried).toEqual([
      { id: e, step: 1, attempt: 2, nextTouchAt: expect.any(Date), replaces: { step: 2, attempt: 1 } },
    ]);
    // A day later at least (then moved into the mailbox's window).
    expect(first.retried[0]!.nextTouchAt.getTime()).toBeGreaterThanOrEqual(now.getTime() + 86_400_000);
    const back = await repos.enrollments.get(e);
    expect([back.status, back.currentStep, back.currentAttempt]).toEqual(['active', 1, 2]);
    // The first thread never arrived: the resend starts a new one.
    expect(back.conversationId).toBeNull();
    // The job of step 2 and the first attempt's job are stale now.
    expect((await repos.touches.claim(e, 2, touchKey(e, 2), prospect.email)).kind).toBe('fenced');
    expect((await repos.touches.claim(e, 1, touchKey(e, 1), prospect.email)).kind).toBe('fenced');
    // The same bounce told again (another event id) resends nothing more.
    expect((await bounce('sb-1-again', 'rs-m1')).retried).toEqual([]);

    await send(2, 'rs-m2');
    await delivered('d-2', 'rs-m2'); // the address works again: the count of soft bounces in a row restarts
    expect((await bounce('sb-2', 'rs-m2')).retried).toMatchObject([{ step: 1, attempt: 3 }]);
    await send(3, 'rs-m3');
    await delivered('d-3', 'rs-m3');
    // The third attempt bounced: there is no fourth.
    const last = await bounce('sb-3', 'rs-m3');
    expect([last.outcome, last.retried]).toEqual(['soft_bounce', []]);
    const after = await repos.enrollments.get(e);
    expect([after.status, after.currentStep, after.currentAttempt]).toEqual(['active', 2, 1]);

    const touches = await repos.touches.forEnrollment(e);
    expect(touches.map((t) => [t.step, t.attempt, t.idempotencyKey, t.status])).toEqual([
      [1, 1, `${e}-1`, 'sent'],
      [1, 2, `${e}-1-2`, 'sent'],
      [1, 3, `${e}-1-3`, 'sent'],
    ]);
    const insert = (attempt: number, key: string) =>
      db.pool.query(
        `INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key) VALUES ($1, $2, 1, $3, 'sending', $4)`,
        [randomUUID(), e, attempt, key],
      );
    await expect(insert(2, `${e}-1-2-x`)).rejects.toThrow(/unique/);
    await expect(insert(4, `${e}-1-4`)).rejects.toThrow(/touch_attempt_range/);
  });

  it('a soft bounce resends only the current touch: not once the next touch is claimed, and it wins over a record of the send that comes after it', async () => {
    // The next touch was claimed before the bounce: it is going out, the bounced one is not resent.
    const one = await enrollOne('moved-on@inv.example');
    await repos.touches.claim(one.enrollmentId, 1, touchKey(one.enrollmentId, 1), one.prospect.email);
    await repos.touches.recordSent({
      enrollmentId: one.enrollmentId,
      step: 1,
      messageId: 'rs-mo1',
      conversationId: 'c',
      nextTouchAt: new Date(),
    });
    const claimed = await repos.touches.claim(
      one.enrollmentId,
      2,
      touchKey(one.enrollmentId, 2),
      one.prospect.email,
    );
    expect(claimed.kind).toBe('claimed');
    const late = await recordAndApplyEvent(repos.events, {
      source: 'test',
      externalId: 'sb-moved-on',
      type: 'bounce',
      occurredAt: new Date(),
      messageId: 'rs-mo1',
      channel: 'email',
      bounce: { hard: false },
      data: {},
    });
    expect([late.outcome, late.retried]).toEqual(['soft_bounce', []]);
    expect((await repos.enrollments.get(one.enrollmentId)).currentStep).toBe(2);

    // The bounce beat the sender's record of the send (named by enrollment and address):
    // the record then does not advance the enrollment, the resend stays due.
    const two = await enrollOne('early-bounce@inv.example');
    await repos.touches.claim(two.enrollmentId, 1, touchKey(two.enrollmentId, 1), two.prospect.email);
    const early = await recordAndApplyEvent(repos.events, {
      source: 'test',
      externalId: 'sb-early',
      type: 'bounce',
      occurredAt: new Date(),
      enrollmentId: two.enrollmentId,
      email: two.prospect.email,
      channel: 'email',
      bounce: { hard: false },
      data: {},
    });
    expect(early.retried).toMatchObject([{ id: two.enrollmentId, step: 1, attempt: 2, replaces: null }]);
    const advanced = await repos.touches.recordSent({
      enrollmentId: two.enrollmentId,
      step: 1,
      messageId: 'rs-eb1',
      conversationId: 'c',
      nextTouchAt: new Date(),
    });
    expect(advanced).toBe(false);
    const e2 = await repos.enrollments.get(two.enrollmentId);
    expect([e2.currentStep, e2.currentAttempt]).toEqual([1, 2]);

    // An event that names only the address resends nothing: when in doubt, do not resend.
    const three = await enrollOne('address-only@inv.example');
    await repos.touches.claim(three.enrollmentId, 1, touchKey(three.enrollmentId, 1), three.prospect.email);
    await repos.touches.recordSent({
      enrollmentId: three.enrollmentId,
      step: 1,
      messageId: 'rs-ao1',
      conversationId: 'c',
      nextTouchAt: new Date(),
    });
    const vague = await recordAndApplyEvent(repos.events, {
      source: 'test',
      externalId: 'sb-address-only',
      type: 'bounce',
      occurredAt: new Date(),
      email: three.prospect.email,
      channel: 'email',
      bounce: { hard: false },
      data: {},
    });
    expect([vague.outcome, vague.retried]).toEqual(['soft_bounce', []]);
  });
});
