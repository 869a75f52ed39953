import { randomUUID } from 'node:crypto';
import type { SequenceGraph } from '@touchbase/core';
import { FIELD_EXAMPLE_GRAPH } from '@touchbase/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/**
 * What the sender rebuilds a token bucket from when Redis lost it, and what the API
 * shows as a mailbox's cap usage: the touches sent (or perhaps sent) in each window.
 */
describe('touches counted in the windows of a sending account (real PostgreSQL)', () => {
  let f: RepositoryFixture;
  /** The database's now: the windows are counted back from it. */
  let now: number;
  const at = new Map<string, number>();

  async function enrolled(count: number, sequenceId: string, versionId: string) {
    const prospects = await f.repos.prospects.upsertMany(
      Array.from({ length: count }, () => ({ email: `${randomUUID()}@windows.example` })),
    );
    const r = await f.repos.enrollments.enroll({
      sequenceId,
      sequenceVersionId: versionId,
      mailboxId: f.mailboxId,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    return r.enrolled.map((e) => e.id);
  }
  /** A touch of `step` whose send time (sent_at, else created_at) lies `agoMs` before now. */
  async function touch(enrollmentId: string, step: number, status: string, agoMs: number, sent = true) {
    const time = new Date(now - agoMs);
    await f.db.pool.query(
      `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, created_at, sent_at)
       VALUES ($1, $2, $3, $4::"TouchStatus", $5, $6, $7)`,
      [randomUUID(), enrollmentId, step, status, randomUUID(), time, sent ? time : null],
    );
    at.set(`${enrollmentId}-${step}`, time.getTime());
  }

  beforeAll(async () => {
    f = await repositoryFixture('touch_windows', 'sdr@windows.example');
  });
  beforeEach(async () => {
    now = (await f.db.pool.query<{ now: Date }>('SELECT now()')).rows[0]!.now.getTime();
  });
  afterAll(async () => {
    await f?.close();
  });

  it("counts a mailbox's e-mails sending, sent or in doubt, by window, and gives the newest", async () => {
    const [a, b, c, d, e] = await enrolled(5, f.sequenceId, f.versionId);
    await touch(a!, 1, 'sent', 30_000);
    await touch(a!, 2, 'sent', 5_000);
    await touch(b!, 1, 'sending', 10 * MINUTE, false);
    await touch(c!, 1, 'unknown', 2 * HOUR);
    await touch(d!, 1, 'sent', 2 * DAY);
    await touch(e!, 1, 'failed', 1_000);

    const counts = await f.repos.touchWindows.countsInWindows(f.mailboxId, [MINUTE, HOUR, DAY]);
    expect(counts.minute).toBe(2);
    expect(counts.hour).toBe(3);
    expect(counts.day).toBe(4);
    expect(counts.lastAt).toBe(now - 5_000);

    // The usage of the API counts them the same way, and those since midnight (UTC, its zone).
    const midnight = new Date(now).setUTCHours(0, 0, 0, 0);
    const today = [5_000, 30_000, 10 * MINUTE, 2 * HOUR, 2 * DAY].filter((ago) => now - ago >= midnight);
    const usage = await f.repos.touchWindows.usage([MINUTE, HOUR, DAY], 10);
    expect(usage).toEqual([
      expect.objectContaining({
        id: f.mailboxId,
        address: 'sdr@windows.example',
        used: { minute: 2, hour: 3, day: 4 },
        sentToday: today.length,
        lastSentAt: new Date(now - 5_000),
      }),
    ]);
  });

  it("counts a LinkedIn account's touches at the nodes of one action, the week too", async () => {
    const account = await f.repos.linkedinAccounts.create({
      provider: 'sandbox',
      providerAccountId: 'li-windows',
      name: 'windows',
    });
    const seq = await f.repos.sequences.create({
      name: 'two channels',
      graph: FIELD_EXAMPLE_GRAPH as SequenceGraph,
    });
    const [a, b, c] = await enrolled(3, seq.id, seq.version.id);
    await f.db.pool.query('UPDATE enrollment SET linkedin_account_id = $1 WHERE id = ANY($2::uuid[])', [
      account.id,
      [a, b, c],
    ]);
    // Node 1 is the invitation, node 2 the message, node 3 an e-mail (the mailbox's).
    await touch(a!, 1, 'sent', 20_000);
    await touch(b!, 1, 'sending', 3 * HOUR, false);
    await touch(c!, 1, 'sent', 3 * DAY);
    await touch(a!, 2, 'sent', 10_000);
    await touch(b!, 3, 'sent', 1_000);

    const invitations = await f.repos.touchWindows.linkedInCountsInWindows(account.id, 'invitation', [
      MINUTE,
      HOUR,
      DAY,
      WEEK,
    ]);
    expect(invitations).toEqual({ minute: 1, hour: 1, day: 2, week: 3, lastAt: now - 20_000 });
    const messages = await f.repos.touchWindows.linkedInCountsInWindows(account.id, 'message', [
      MINUTE,
      HOUR,
      DAY,
    ]);
    expect(messages).toEqual({ minute: 1, hour: 1, day: 1, lastAt: now - 10_000 });
    // The e-mail node counts for the mailbox, not the account.
    expect((await f.repos.touchWindows.countsInWindows(f.mailboxId, [MINUTE, HOUR, DAY])).minute).toBe(3);
  });
});
