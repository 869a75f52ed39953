import { randomUUID } from 'node:crypto';
import { createDatabase, createRepositories, type Database, type Repositories } from '@touchbase/db';
import { createTestDatabase, type TestDatabase } from '@touchbase/testing';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enrollPeople,
  funnelViews,
  type Person,
  runRetentionCommand,
  sendTouch,
  withTriggersLifted,
} from './support/retention-fixture.js';

const KEYS = ['done', 'replied', 'bounced', 'endedLately', 'live', 'sending'] as const;
type Key = (typeof KEYS)[number];

/**
 * `touchbase retention` on the touch table, on a real database: touches recorded by the
 * sender's own repositories, then aged 200 days with their enrollments ended, then
 * moved to the archive by `--older-than 180d`. Only touches of enrollments that ended
 * before the cutoff go (not bounced ones, not live ones, not a touch still being sent),
 * and what reads ended enrollments' touches answers the same: every funnel view,
 * /v1/stats and the per-node funnel, and an event known only by our message id still
 * finds its enrollment.
 */
describe('touchbase retention: the touch table', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repos: Repositories;
  let sequenceId: string;
  let people: Record<Key, Person>;

  /** Everything the archive must leave as it was. */
  const observed = async () => ({
    funnel: await funnelViews(repos, sequenceId),
    stats: await repos.enrollments.funnel(sequenceId),
    nodes: await repos.enrollments.nodeFunnel(sequenceId),
  });
  const run = (...args: string[]) => runRetentionCommand(tdb.url, ...args);
  const live = (p: Person) =>
    db.pool
      .query<{ n: number }>('SELECT count(*)::int AS n FROM touch WHERE enrollment_id = $1', [p.enrollmentId])
      .then((r) => r.rows[0]!.n);
  const archived = (p: Person) =>
    db.pool
      .query<{ n: number }>('SELECT count(*)::int AS n FROM touch_archive WHERE enrollment_id = $1', [
        p.enrollmentId,
      ])
      .then((r) => r.rows[0]!.n);

  beforeAll(async () => {
    tdb = await createTestDatabase('cli_touch_retention');
    db = createDatabase(tdb.url, { poolSize: 4 });
    repos = createRepositories(db);
    ({ sequenceId, people } = await enrollPeople(repos, 'touch-retention', KEYS));
    await sendTouch(repos, people.done, 1);
    await sendTouch(repos, people.done, 2);
    await sendTouch(repos, people.replied, 1);
    await sendTouch(repos, people.bounced, 1);
    await sendTouch(repos, people.endedLately, 1);
    await sendTouch(repos, people.live, 1);
    await sendTouch(repos, people.sending, 1);
    // Claimed, never recorded: a touch being sent when its enrollment ended.
    await sendTouch(repos, people.sending, 2, false);
    // As if all of it had happened 200 days ago, and the enrollments had ended then (but
    // `endedLately`, which ended today). Arrival times are guarded by triggers, so the
    // test lifts them for its own statements.
    await withTriggersLifted(db, async (client) => {
      await client.query(
        `UPDATE touch SET created_at = created_at - interval '200 days', sent_at = sent_at - interval '200 days'`,
      );
      const end = (key: Key, status: string, lately = false) =>
        client.query(
          `UPDATE enrollment SET status = $2::"EnrollmentStatus",
             updated_at = now() - CASE WHEN $3 THEN interval '0 days' ELSE interval '199 days' END WHERE id = $1`,
          [people[key].enrollmentId, status, lately],
        );
      await end('done', 'exhausted');
      await end('replied', 'replied');
      await end('bounced', 'bounced');
      await end('endedLately', 'exhausted', true);
      await end('sending', 'cancelled');
      await client.query(`UPDATE enrollment SET updated_at = now() - interval '199 days' WHERE id = $1`, [
        people.live.enrollmentId,
      ]);
    });
  });
  afterAll(async () => {
    await db?.close();
    await tdb?.drop();
  });

  it('archives the touches of enrollments ended before the cutoff; funnels and stats read the same', async () => {
    const before = await observed();
    expect(before.stats.sentByStep).toEqual({ '1': 6, '2': 1 });

    const r = await run('--older-than', '180d', '--batch', '2');
    expect(r.code).toBe(0);
    // done's two, replied's one, and `sending`'s sent step 1 (cancelled); its step 2, still
    // being sent, stays for the sender's sweep.
    expect(r.report).toMatchObject({ touchesArchived: 4 });
    expect(r.out.join('\n')).toMatch(/archived 4 touches of enrollments ended before/);
    expect(await live(people.done)).toBe(0);
    expect(await archived(people.done)).toBe(2);
    expect(await live(people.replied)).toBe(0);
    expect(await live(people.sending)).toBe(1);
    expect(await archived(people.sending)).toBe(1);
    for (const kept of [people.bounced, people.endedLately, people.live]) {
      expect(await live(kept)).toBe(1);
      expect(await archived(kept)).toBe(0);
    }
    expect(await observed()).toEqual(before);

    // A second run finds nothing more.
    expect((await run('--older-than', '180d')).report).toMatchObject({ touchesArchived: 0 });
  });

  it('an event known only by the message id of an archived touch still finds its enrollment', async () => {
    const e = await recordAndApplyEvent(repos.events, {
      source: 'prov',
      externalId: `late-open-${randomUUID()}`,
      type: 'opened',
      occurredAt: new Date(),
      channel: 'email',
      data: {},
      messageId: people.done.msg[2] as string,
    });
    expect(e.duplicate).toBe(false);
    const { rows } = await db.pool.query<{ enrollment_id: string; prospect_id: string }>(
      `SELECT enrollment_id, prospect_id FROM event WHERE payload->>'messageId' = $1`,
      [people.done.msg[2]],
    );
    expect(rows).toEqual([{ enrollment_id: people.done.enrollmentId, prospect_id: people.done.prospectId }]);
  });

  it('an erasure takes the archived touches with the enrollment', async () => {
    await db.pool.query('DELETE FROM enrollment WHERE id = $1', [people.replied.enrollmentId]);
    expect(await archived(people.replied)).toBe(0);
  });
});
