import { type ContactCounts, contactHold, sequencePoliciesOf, touchKey } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactCheck, Database, Repositories } from '../src/index.js';
import { type RepositoryFixture, repositoryFixture } from './support/repository-fixture.js';

/**
 * Contact policies against real PostgreSQL: exclusivity holds under concurrent
 * enrollments (the prospect rows are locked), and a day cap holds under concurrent
 * touches (slots taken under an advisory lock of the scope).
 */
describe('contact policies (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let repos: Repositories;
  let mailboxId: string;

  beforeAll(async () => {
    fixture = await repositoryFixture('contact_policies', 'sdr@contact.example');
    ({ db, repos, mailboxId } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const steps = [{ channel: 'email' as const, subject: 'a', body: 'b', wait: '1d' }];
  async function sequence(contact: object = {}) {
    const s = await repos.sequences.create({ name: 's', steps });
    await repos.sequences.setPolicies(s.id, { contact });
    return { sequenceId: s.id, versionId: s.version.id };
  }
  const enroll = (s: { sequenceId: string; versionId: string }, prospectIds: string[]) =>
    repos.enrollments.enroll({
      sequenceId: s.sequenceId,
      sequenceVersionId: s.versionId,
      mailboxId,
      prospectIds,
      firstTouchAt: () => new Date(),
    });

  it('two concurrent enrollments of one person in two exclusive sequences: exactly one wins', async () => {
    for (let round = 0; round < 20; round++) {
      const [a, b] = [await sequence(), await sequence()];
      const [p] = await repos.prospects.upsertMany([{ email: `race${round}@contact.example` }]);
      const [ra, rb] = await Promise.all([enroll(a, [p!.id]), enroll(b, [p!.id])]);
      expect(ra.enrolled.length + rb.enrolled.length).toBe(1);
      const loser = ra.enrolled.length === 1 ? rb : ra;
      const winner = ra.enrolled.length === 1 ? a : b;
      expect(loser.refused).toEqual([
        { prospectId: p!.id, reason: 'in_other_sequence', sequenceId: winner.sequenceId },
      ]);
    }
  });

  it('an ended enrollment holds nobody; sequences that both opted out share the person', async () => {
    const [a, b] = [await sequence(), await sequence()];
    const [p] = await repos.prospects.upsertMany([{ email: 'ended@contact.example' }]);
    const [first] = (await enroll(a, [p!.id])).enrolled;
    expect((await enroll(b, [p!.id])).refused[0]?.reason).toBe('in_other_sequence');
    await repos.enrollments.stop(first!.id, 'cancelled', 'test');
    expect((await enroll(b, [p!.id])).enrolled).toHaveLength(1);

    const [c, d] = [await sequence({ exclusive: false }), await sequence({ exclusive: false })];
    const [q] = await repos.prospects.upsertMany([{ email: 'shared@contact.example' }]);
    expect((await enroll(c, [q!.id])).enrolled).toHaveLength(1);
    expect((await enroll(d, [q!.id])).enrolled).toHaveLength(1);
  });

  it('a day cap holds under concurrent touches: only N take a slot, the rest are held and moved', async () => {
    const s = await sequence({ newPeoplePerDay: 3, exclusive: false, cooldownDays: 0 });
    const policy = sequencePoliciesOf({ contact: { newPeoplePerDay: 3 } }).contact;
    const people = await repos.prospects.upsertMany(
      Array.from({ length: 12 }, (_, i) => ({ email: `cap${i}@cap${i}.example` })),
    );
    const { enrolled } = await enroll(
      s,
      people.map((p) => p.id),
    );
    const now = new Date();
    const dayStart = new Date(now);
    dayStart.setUTCHours(0, 0, 0, 0);
    const check = (e: { id: string; prospectId: string }): Promise<unknown> => {
      const input: ContactCheck = {
        enrollmentId: e.id,
        step: 1,
        attempt: 1,
        touchKey: touchKey(e.id, 1, 1),
        prospectId: e.prospectId,
        sequenceId: s.sequenceId,
        companyDomain: null,
        dayStart,
        needs: { lastContact: false, firstTouchesToday: true, domainTouchesToday: false },
      };
      return repos.contactPolicies.check(input, (counts: ContactCounts) =>
        contactHold(policy, { firstTouch: true, timeZone: 'UTC' }, counts, now),
      );
    };
    const holds = await Promise.all(enrolled.map(check));
    expect(holds.filter((h) => h === null)).toHaveLength(3);
    const tomorrow = new Date(dayStart.getTime() + 86_400_000);
    for (const h of holds.filter(Boolean)) expect(h).toEqual({ reason: 'new_people_cap', until: tomorrow });
    // A touch that took its slot and comes back (a throttle wait) keeps it.
    const goes = enrolled[holds.indexOf(null)]!;
    expect(await check(goes)).toBeNull();
    // The held ones wait for tomorrow, and say so.
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM enrollment WHERE sequence_id = $1 AND policy_hold = 'new_people_cap'
         AND next_touch_at = $2 AND policy_hold_until = $2`,
      [s.sequenceId, tomorrow],
    );
    expect(rows[0].n).toBe(9);

    // An erased person leaves no slot behind (its key names their enrollment).
    const client = await db.pool.connect();
    try {
      await repos.contactPolicies.forget(client, goes.prospectId);
    } finally {
      client.release();
    }
    const left = await db.pool.query('SELECT touch_key FROM contact_slot WHERE touch_key LIKE $1', [
      `${goes.id}%`,
    ]);
    expect(left.rows).toEqual([]);
    const others = await db.pool.query('SELECT count(*)::int AS n FROM contact_slot');
    expect(others.rows[0].n).toBe(2);
  });
});
