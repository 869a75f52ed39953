import { randomUUID } from 'node:crypto';
import type { CanonicalEvent } from '@touchbase/core';
import { createDatabase, createRepositories, type Database, type Repositories } from '@touchbase/db';
import { createTestDatabase, type TestDatabase } from '@touchbase/testing';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftBounceRepository } from '../../packages/db/src/repositories/soft-bounce.repository.js';
import {
  enrollPeople,
  funnelViews,
  type Person,
  runRetentionCommand,
  sendTouch,
  withTriggersLifted,
} from './support/retention-fixture.js';

/**
 * `touchbase retention` on a real database: events recorded through the use case
 * ingest runs, then aged 200 days (as if recorded then), then retired with
 * `--older-than 180d`. What must not change: every funnel view, the stats, the domain
 * rollup, the soft-bounce streak; and a redelivered retired event stays a duplicate.
 */
describe('touchbase retention --older-than 180d', () => {
  let tdb: TestDatabase;
  let db: Database;
  let repos: Repositories;
  let sequenceId: string;
  let people: Record<'a' | 'b' | 'c', Person>;
  const retired: CanonicalEvent[] = [];
  let n = 0;

  const event = async (partial: Partial<CanonicalEvent> & Pick<CanonicalEvent, 'type'>) => {
    const e: CanonicalEvent = {
      source: 'prov',
      externalId: `ev-${++n}`,
      occurredAt: new Date(Date.now() - 200 * 86_400_000 + n * 1000),
      channel: 'email',
      data: {},
      ...partial,
    };
    const r = await recordAndApplyEvent(repos.events, e);
    expect(r.duplicate).toBe(false);
    return e;
  };
  const streak = async (prospectId: string) => {
    const client = await db.pool.connect();
    try {
      return await new SoftBounceRepository().inARow(client, prospectId);
    } finally {
      client.release();
    }
  };
  /** Everything retention must leave as it was. */
  const observed = async () => ({
    funnel: await funnelViews(repos, sequenceId),
    stats: await repos.enrollments.funnel(sequenceId),
    rollup: (await db.pool.query('SELECT * FROM domain_daily_stat ORDER BY domain_id, day')).rows,
    streakC: await streak(people.c.prospectId),
  });
  const run = (...args: string[]) => runRetentionCommand(tdb.url, ...args);
  const keys = (e: CanonicalEvent) =>
    db.pool
      .query('SELECT count(*)::int AS n FROM event WHERE source = $1 AND external_id = $2', [
        e.source,
        e.externalId,
      ])
      .then((r) => r.rows[0].n as number);

  beforeAll(async () => {
    tdb = await createTestDatabase('cli_retention');
    db = createDatabase(tdb.url, { poolSize: 4 });
    repos = createRepositories(db);
    ({ sequenceId, people } = await enrollPeople(repos, 'retention', ['a', 'b', 'c'] as const));
    const { a, b, c } = people;
    await sendTouch(repos, a, 1);
    await sendTouch(repos, a, 2);
    await sendTouch(repos, b, 1);
    await sendTouch(repos, c, 1);
    // a: every engagement type, then a positive reply (kept: it changed something).
    retired.push(await event({ type: 'sent', messageId: a.msg[1] }));
    retired.push(await event({ type: 'delivered', messageId: a.msg[1] }));
    retired.push(await event({ type: 'opened', messageId: a.msg[1] }));
    retired.push(await event({ type: 'clicked', messageId: a.msg[1] }));
    retired.push(await event({ type: 'delivered', messageId: a.msg[2] }));
    await event({ type: 'reply', messageId: a.msg[2], classification: 'interested', sentiment: 'positive' });
    // b: known by our enrollment id (the batched path), then by address only (tied to its last step).
    retired.push(await event({ type: 'delivered', enrollmentId: b.enrollmentId }));
    await event({ type: 'opened', email: b.email });
    // c: a soft-bounce streak; its latest breaker (delivered) is where the streak starts counting.
    retired.push(await event({ type: 'delivered', messageId: c.msg[1] }));
    await event({ type: 'bounce', messageId: c.msg[1], bounce: { hard: false, status: '4.2.2' } });
    await event({ type: 'delivered', messageId: c.msg[1] });
    await event({ type: 'bounce', messageId: c.msg[1], bounce: { hard: false, status: '4.2.2' } });
    // Someone we do not know.
    retired.push(await event({ type: 'opened', email: 'stranger@elsewhere.example' }));
    // As if all of it had arrived 200 days ago: arrival times are immutable (a trigger),
    // so the test lifts the triggers for this one statement of its own session.
    await withTriggersLifted(db, async (client) => {
      await client.query(`UPDATE event SET received_at = received_at - interval '200 days'`);
    });
  });
  afterAll(async () => {
    await db?.close();
    await tdb?.drop();
  });

  it('refuses a missing or too short retention, naming the option', async () => {
    expect((await run()).code).toBe(2);
    const short = await run('--older-than', '180m');
    expect(short.code).toBe(2);
    expect(short.err.join('\n')).toMatch(/--older-than: .*at least 7d/);
  });

  it('retires old engagement in batches; funnels, stats, rollup and streak read the same', async () => {
    const guard = () =>
      db.pool
        .query(`SELECT tgenabled AS e FROM pg_trigger WHERE tgname = 'event_not_retired'`)
        .then((r) => r.rows[0].e as string);
    // Off until retention is used: ingest pays no probe before.
    expect(await guard()).toBe('D');
    const before = await observed();
    expect(before.streakC).toBe(1);
    const recent = await event({ type: 'opened', messageId: people.a.msg[2], occurredAt: new Date() });
    const beforeWithRecent = await observed();

    const r = await run('--older-than', '180d', '--batch', '3');
    expect(r.code).toBe(0);
    // 10 retirable; b's address-only open and c's last delivered are their latest breakers.
    expect(r.report).toMatchObject({ retired: 8, archived: 7 });
    expect(r.report!.batches).toBeGreaterThan(3);
    expect(await guard()).toBe('O');
    expect(r.out.join('\n')).toMatch(/retired 8 events received before/);
    for (const e of retired) expect(await keys(e), e.externalId).toBe(0);
    expect(await keys(recent)).toBe(1);
    const left = await db.pool.query<{ type: string; n: number }>(
      'SELECT type, count(*)::int AS n FROM event GROUP BY type ORDER BY type',
    );
    expect(left.rows).toEqual([
      { type: 'bounce', n: 2 },
      { type: 'delivered', n: 1 },
      { type: 'opened', n: 2 },
      { type: 'reply', n: 1 },
    ]);
    expect(await observed()).toEqual(beforeWithRecent);
    expect(before.funnel).not.toEqual(beforeWithRecent.funnel);

    // A second run finds nothing more to retire.
    expect((await run('--older-than', '180d')).report).toMatchObject({ retired: 0, archived: 0 });
  });

  it('a redelivered retired event is still a duplicate, on every insert path', async () => {
    for (const e of retired) {
      const again = await recordAndApplyEvent(repos.events, e);
      expect(again.duplicate, e.externalId).toBe(true);
      expect(await keys(e)).toBe(0);
    }
    const fresh = await recordAndApplyEvent(repos.events, {
      source: 'prov',
      externalId: `ev-new-${randomUUID()}`,
      type: 'opened',
      occurredAt: new Date(),
      channel: 'email',
      data: {},
      messageId: people.a.msg[1],
    });
    expect(fresh.duplicate).toBe(false);
  });
});
