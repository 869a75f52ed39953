import { randomUUID } from 'node:crypto';
import { type DoNotContactTable, refitDue, touchKey } from '@touchbase/core';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RepositoryFixture, repositoryFixture, testEvent } from './support/repository-fixture.js';

/**
 * An event that takes a graph edge places the next node as the sender places one:
 * in the recipient country's do-not-contact hours (COMPLIANCE_DO_NOT_CONTACT), with
 * the raw due time stored beside the fitted one, so a later window change re-fits it.
 * A soft bounce's resend keeps the country's hours the same way.
 */
describe('the next node of an edge an event takes (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;

  beforeAll(async () => {
    fixture = await repositoryFixture('edge_timing', 'sdr@edgetime.example');
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const graph = {
    nodes: [
      { id: 'first', action: 'email' as const, subject: 'Hello', body: 'First' },
      { id: 'opened-path', action: 'email' as const, subject: 'x', body: 'You opened it' },
      { id: 'replied-path', action: 'email' as const, subject: 'x', body: 'Thanks' },
      { id: 'timeout-path', action: 'email' as const, subject: 'x', body: 'No answer yet' },
      { id: 'end', action: 'end' as const },
    ],
    edges: [
      { from: 'first', to: 'opened-path', trigger: 'opened' as const },
      { from: 'first', to: 'replied-path', trigger: 'replied' as const, wait: '2h' },
      { from: 'first', to: 'timeout-path', trigger: 'no_reply' as const, wait: '3d' },
      { from: 'opened-path', to: 'end', trigger: 'always' as const, wait: '300d' },
      { from: 'replied-path', to: 'end', trigger: 'always' as const, wait: '300d' },
      { from: 'timeout-path', to: 'end', trigger: 'always' as const, wait: '300d' },
    ],
  };
  /** Germany: no contact before 14:00 local time. */
  const doNotContact: DoNotContactTable = { DE: { notBefore: '14:00', days: [], dates: [] } };
  /** A Wednesday, 10:00 UTC. */
  const now = new Date('2026-11-25T10:00:00.000Z');

  /** One person (UTC, in `country`) in the graph sequence (any day, any hour), waiting after `first`. */
  async function waitingAfterFirst(email: string, country: string) {
    const { repos, db } = fixture;
    const seq = await repos.sequences.create({ name: `graph ${randomUUID()}`, graph });
    await db.pool.query('UPDATE sequence SET sending_window = $2 WHERE id = $1', [
      seq.id,
      { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59' },
    ]);
    const [p] = await repos.prospects.upsertMany([{ email, timezone: 'UTC', attributes: { country } }]);
    const r = await repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId: fixture.mailboxId,
      prospectIds: [p!.id],
      firstTouchAt: () => now,
    });
    const id = r.enrolled[0]!.id;
    // As the sender leaves it once `first` was sent: its timeout's touch (node 4) pending.
    await db.pool.query(
      `UPDATE enrollment SET waiting_node = 1, current_step = 4, current_attempt = 1,
         next_touch_at = $2::timestamptz + interval '3 days' WHERE id = $1`,
      [id, now],
    );
    return id;
  }

  const pending = async (id: string) =>
    (
      await fixture.db.pool.query<{
        currentStep: number;
        nextTouchAt: Date;
        unfittedAt: Date | null;
        fittedAt: Date | null;
      }>(
        `SELECT current_step AS "currentStep", next_touch_at AS "nextTouchAt",
           next_touch_unfitted_at AS "unfittedAt", next_touch_fitted_at AS "fittedAt"
         FROM enrollment WHERE id = $1`,
        [id],
      )
    ).rows[0]!;

  /** An event of the enrollment, applied at `now` with the table. */
  const applied = (over: Parameters<typeof testEvent>[0]) =>
    recordAndApplyEvent(fixture.repos.events, testEvent(over), { now, doNotContact });

  it("an open's edge (no wait) is placed after the country's hours, its raw time (the open) kept", async () => {
    const id = await waitingAfterFirst('opened-de@edgetime.example', 'de');
    const r = await applied({ type: 'opened', enrollmentId: id });
    expect(r.outcome).toBe('edge_taken');
    const at = new Date('2026-11-25T14:00:00.000Z');
    expect(r.moved).toEqual([{ id, from: { step: 4, attempt: 1 }, to: { step: 2, attempt: 1, dueAt: at } }]);
    expect(await pending(id)).toEqual({ currentStep: 2, nextTouchAt: at, unfittedAt: now, fittedAt: at });
  });

  it("a reply's edge (2h) lands after the hours, and a window change re-fits it from the raw time", async () => {
    const id = await waitingAfterFirst('replied-de@edgetime.example', 'DE');
    const r = await applied({ type: 'reply', enrollmentId: id, classification: 'interested' });
    expect(r.outcome).toBe('edge_taken');
    const at = new Date('2026-11-25T14:00:00.000Z');
    const raw = new Date('2026-11-25T12:00:00.000Z');
    expect(r.moved.map((m) => m.to)).toEqual([{ step: 3, attempt: 1, dueAt: at }]);
    const row = await pending(id);
    expect(row).toEqual({ currentStep: 3, nextTouchAt: at, unfittedAt: raw, fittedAt: at });
    // The country's rule lifted (a wider window): re-timing moves it back to its raw time.
    expect(refitDue(row, { timeZone: 'UTC', window: null, timeScale: 1 })).toEqual(raw);
  });

  it('a prospect of a country without hours takes the edge at once', async () => {
    const id = await waitingAfterFirst('opened-fr@edgetime.example', 'FR');
    const r = await applied({ type: 'opened', enrollmentId: id });
    expect(r.moved.map((m) => m.to.dueAt)).toEqual([now]);
    expect(await pending(id)).toMatchObject({ nextTouchAt: now, unfittedAt: now, fittedAt: now });
  });

  it("a soft bounce's resend (one day later) keeps the country's hours too, its raw time kept", async () => {
    const { db, repos } = fixture;
    await db.pool.query('UPDATE sequence SET sending_window = $2 WHERE id = $1', [
      fixture.sequenceId,
      { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59' },
    ]);
    const [p] = await repos.prospects.upsertMany([
      { email: 'bounced-de@edgetime.example', timezone: 'UTC', attributes: { country: 'DE' } },
    ]);
    const r = await repos.enrollments.enroll({
      sequenceId: fixture.sequenceId,
      sequenceVersionId: fixture.versionId,
      mailboxId: fixture.mailboxId,
      prospectIds: [p!.id],
      firstTouchAt: () => now,
    });
    const id = r.enrolled[0]!.id;
    expect((await repos.touches.claim(id, 1, touchKey(id, 1, 1), p!.email, 0, 1)).kind).toBe('claimed');
    await repos.touches.recordSent({
      enrollmentId: id,
      step: 1,
      attempt: 1,
      messageId: 'et-m1',
      conversationId: 'et-c1',
      nextTouchAt: now,
    });
    const bounced = await applied({
      type: 'bounce',
      messageId: 'et-m1',
      bounce: { hard: false, status: '4.2.2' },
    });
    const at = new Date('2026-11-26T14:00:00.000Z');
    expect(bounced.retried).toMatchObject([{ id, step: 1, attempt: 2, nextTouchAt: at }]);
    expect(await pending(id)).toEqual({
      currentStep: 1,
      nextTouchAt: at,
      unfittedAt: new Date('2026-11-26T10:00:00.000Z'),
      fittedAt: at,
    });
  });
});
