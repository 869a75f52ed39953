import { randomUUID } from 'node:crypto';
import type { CanonicalEvent } from '@touchbase/core';
import { type EventStore, recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Repositories } from '../src/index.js';
import { type RepositoryFixture, repositoryFixture, testEvent } from './support/repository-fixture.js';

/** As ingest runs by default: each sequence's reply actions and company-level stop on. */
const DEFAULTS = { replyActions: true, companyStops: true, notifyCrm: true };

/**
 * A reply naming our enrollment, with reply actions and company-level stop on, is
 * applied by the batched stop when the stored policies say it only ends the person
 * (a decline, by the defaults), and by the general transaction otherwise: the same
 * rows either way, and a policy changed a moment ago is obeyed.
 */
describe('replies on the batched stop under reply actions and company-level stop (real PostgreSQL)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let repos: Repositories;
  /** The event store, counting the general transactions it opens. */
  let store: EventStore;
  let transactions = 0;

  beforeAll(async () => {
    fixture = await repositoryFixture('reply_batch', 'sdr@reply-batch.example');
    ({ db, repos } = fixture);
    const events = repos.events;
    store = new Proxy(events, {
      get(target, key, receiver) {
        if (key === 'transaction') transactions++;
        const v = Reflect.get(target, key, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** A sequence of its own with these policies and the people enrolled in it; their enrollment ids. */
  async function sequenceWith(policies: unknown, emails: string[]) {
    const s = await repos.sequences.create({
      name: `reply batch ${randomUUID()}`,
      steps: [{ channel: 'email', subject: 'a', body: 'b', wait: '1d' }],
    });
    await repos.sequences.setPolicies(s.id, { contact: { exclusive: false }, ...(policies as object) });
    const prospects = await repos.prospects.upsertMany(emails.map((email) => ({ email })));
    const r = await repos.enrollments.enroll({
      sequenceId: s.id,
      sequenceVersionId: s.version.id,
      mailboxId: fixture.mailboxId,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    const byProspect = new Map(r.enrolled.map((e) => [e.prospectId, e.id]));
    return {
      sequenceId: s.id,
      people: prospects.map((p) => ({ ...p, enrollmentId: byProspect.get(p.id)! })),
    };
  }

  async function apply(event: CanonicalEvent) {
    const before = transactions;
    const result = await recordAndApplyEvent(store, event, { ...DEFAULTS, now: new Date() });
    return { result, general: transactions > before };
  }

  const statusOf = async (ids: string[]) =>
    (
      await db.pool.query<{ status: string; stopReason: string | null }>(
        `SELECT status::text, stop_reason AS "stopReason" FROM enrollment WHERE id = ANY($1::uuid[])
         ORDER BY array_position($1::uuid[], id)`,
        [ids],
      )
    ).rows;
  const alertsAbout = async (prospectId: string) =>
    (
      await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alert WHERE data->>'prospectId' = $1`,
        [prospectId],
      )
    ).rows[0]!.n;

  it('a decline by the defaults is batched and ends the person as the general path does (by address)', async () => {
    const { people } = await sequenceWith({}, ['named@decline.example', 'addressed@decline2.example']);
    const [named, addressed] = people;
    const decline = { type: 'reply' as const, classification: 'not_interested' };
    const a = await apply(testEvent({ ...decline, enrollmentId: named!.enrollmentId }));
    const b = await apply(testEvent({ ...decline, email: addressed!.email }));
    expect(a.general).toBe(false);
    expect(b.general).toBe(true);
    for (const [r, who] of [
      [a.result, named],
      [b.result, addressed],
    ] as const) {
      expect(r.outcome).toBe('applied');
      expect(r.stopped.map((s) => s.id)).toEqual([who!.enrollmentId]);
      expect(r.alertIds).toEqual([]);
    }
    expect(await statusOf([named!.enrollmentId, addressed!.enrollmentId])).toEqual([
      { status: 'replied', stopReason: 'reply:not_interested' },
      { status: 'replied', stopReason: 'reply:not_interested' },
    ]);
    const { rows } = await db.pool.query(
      `SELECT outcome, applied_at IS NOT NULL AS applied, enrollment_id IS NOT NULL AS named FROM event
       WHERE prospect_id = ANY($1::uuid[]) ORDER BY prospect_id = $2 DESC`,
      [[named!.id, addressed!.id], named!.id],
    );
    expect(rows).toEqual([
      { outcome: 'applied', applied: true, named: true },
      { outcome: 'applied', applied: true, named: false },
    ]);
  });

  it('a reply its sequence asks more of (a notification, a cooldown, going on) takes the general path', async () => {
    const { people } = await sequenceWith(
      {
        replyActions: {
          not_interested: { notify: true },
          stopOnReply: false,
          continueOn: ['neutral'],
          other: { cooldownMonths: 3 },
        },
      },
      ['notify@more.example', 'goes-on@more2.example', 'cooldown@more3.example'],
    );
    const [notify, goesOn, cooldown] = people;
    const n = await apply(
      testEvent({ type: 'reply', classification: 'not_interested', enrollmentId: notify!.enrollmentId }),
    );
    expect(n.general).toBe(true);
    expect(n.result.alertIds).toHaveLength(1);
    expect(await alertsAbout(notify!.id)).toBe(1);
    const g = await apply(
      testEvent({ type: 'reply', classification: 'neutral', enrollmentId: goesOn!.enrollmentId }),
    );
    expect(g.general).toBe(true);
    expect(g.result.stopped).toEqual([]);
    const c = await apply(
      testEvent({ type: 'reply', classification: 'unclassified', enrollmentId: cooldown!.enrollmentId }),
    );
    expect(c.general).toBe(true);
    const { rows } = await db.pool.query(
      'SELECT contact_after IS NOT NULL AS cooled FROM prospect WHERE id = $1',
      [cooldown!.id],
    );
    expect(rows).toEqual([{ cooled: true }]);
    expect(await statusOf(people.map((p) => p.enrollmentId))).toEqual([
      { status: 'replied', stopReason: 'reply:not_interested' },
      { status: 'active', stopReason: null },
      { status: 'replied', stopReason: 'reply:unclassified' },
    ]);
  });

  it('a person live in another sequence that asks more takes the general path for that sequence too', async () => {
    const plain = await sequenceWith({}, ['both@two-sequences.example']);
    const person = plain.people[0]!;
    const s = await repos.sequences.create({
      name: `notify ${randomUUID()}`,
      steps: [{ channel: 'email', subject: 'a', body: 'b', wait: '1d' }],
    });
    await repos.sequences.setPolicies(s.id, {
      contact: { exclusive: false },
      replyActions: { stopOnReply: false, continueOn: ['not_interested'] },
    });
    const other = await repos.enrollments.enroll({
      sequenceId: s.id,
      sequenceVersionId: s.version.id,
      mailboxId: fixture.mailboxId,
      prospectIds: [person.id],
      firstTouchAt: () => new Date(),
    });
    const r = await apply(
      testEvent({ type: 'reply', classification: 'not_interested', enrollmentId: person.enrollmentId }),
    );
    expect(r.general).toBe(true);
    expect(await statusOf([person.enrollmentId, other.enrolled[0]!.id])).toEqual([
      { status: 'replied', stopReason: 'reply:not_interested' },
      { status: 'active', stopReason: null },
    ]);
  });

  it('a colleague live in a sequence whose company stop acts on the reply sends it to the general path, which pauses them', async () => {
    const { people } = await sequenceWith(
      { companyStop: { onClasses: ['not_interested'], action: 'pause' } },
      ['one@acting-company.example', 'two@acting-company.example'],
    );
    const [one, two] = people;
    const r = await apply(
      testEvent({ type: 'reply', classification: 'not_interested', enrollmentId: one!.enrollmentId }),
    );
    expect(r.general).toBe(true);
    expect(await statusOf([one!.enrollmentId, two!.enrollmentId])).toEqual([
      { status: 'replied', stopReason: 'reply:not_interested' },
      { status: 'paused', stopReason: 'company_reply' },
    ]);
    // A colleague live only where the company stop does not act on a decline: batched.
    const quiet = await sequenceWith({}, ['three@quiet-company.example', 'four@quiet-company.example']);
    const q = await apply(
      testEvent({
        type: 'reply',
        classification: 'not_interested',
        enrollmentId: quiet.people[0]!.enrollmentId,
      }),
    );
    expect(q.general).toBe(false);
    expect((await statusOf([quiet.people[1]!.enrollmentId]))[0]!.status).toBe('active');
  });

  it('a policy changed a moment ago is obeyed: the statement checks the stored text, not the one read before', async () => {
    const { sequenceId, people } = await sequenceWith({}, [
      'before@changed.example',
      'after@changed2.example',
    ]);
    const [before, after] = people;
    // Warms the policy texts this process read: the plain one.
    const b = await apply(
      testEvent({ type: 'reply', classification: 'not_interested', enrollmentId: before!.enrollmentId }),
    );
    expect(b.general).toBe(false);
    await repos.sequences.setPolicies(sequenceId, {
      contact: { exclusive: false },
      replyActions: { not_interested: { notify: true } },
    });
    const a = await apply(
      testEvent({ type: 'reply', classification: 'not_interested', enrollmentId: after!.enrollmentId }),
    );
    expect(a.general).toBe(true);
    expect(a.result.alertIds).toHaveLength(1);
    expect(await alertsAbout(after!.id)).toBe(1);
  });

  it('replies arriving together share the batch; those that ask more leave it alone', async () => {
    const plain = await sequenceWith(
      {},
      Array.from({ length: 6 }, (_, i) => `p${i}@together-${i}.example`),
    );
    const loud = await sequenceWith({ replyActions: { not_interested: { notify: true } } }, [
      'loud@together-loud.example',
    ]);
    const before = transactions;
    const results = await Promise.all(
      [...plain.people, ...loud.people].map((p) =>
        recordAndApplyEvent(
          store,
          testEvent({ type: 'reply', classification: 'not_interested', enrollmentId: p.enrollmentId }),
          { ...DEFAULTS, now: new Date() },
        ),
      ),
    );
    expect(transactions - before).toBe(1);
    expect(results.map((r) => r.outcome)).toEqual(results.map(() => 'applied'));
    expect(results.at(-1)!.alertIds).toHaveLength(1);
    expect(
      (await statusOf([...plain.people, ...loud.people].map((p) => p.enrollmentId))).map((r) => r.status),
    ).toEqual(results.map(() => 'replied'));
  });
});
