import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  allowSharedPeople,
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  importProspects,
} from './ingest-support.js';

const DAY = 86_400_000;

/**
 * The contact policies of a sequence on the sandbox (issue 15): exclusivity,
 * cooldown, new people per day, the recipient-domain cap, and their routes. In real
 * time (TIME_SCALE 1, no sending window), so a hold is seen before it ends: under
 * TIME_SCALE the cooldown and the day are compressed (see the describe below).
 */
describe('contact policies', () => {
  let sys: TestSystem;
  let mailboxId: string;

  beforeAll(async () => {
    sys = await startTestSystem('contact_policies', { TIME_SCALE: '1' });
    mailboxId = await createMailbox(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const patch = (sequenceId: string, body: unknown) =>
    sys.api('PATCH', `/v1/sequences/${sequenceId}/policies`, body);
  const waiting = async (id: string) => (await sys.api('GET', `/v1/enrollments/${id}/waiting`)).body.waiting;
  const sent = async (id: string) => (await enrollment(sys, id)).currentStep > 1;

  it('GET returns the defaults filled in; PATCH merges, validates naming the field, and is audited', async () => {
    const sequenceId = await createSequence(sys, 1, '1d');
    const got = await sys.api('GET', `/v1/sequences/${sequenceId}/policies`);
    expect(got.status).toBe(200);
    expect(got.body.policies.contact).toEqual({
      exclusive: true,
      cooldownDays: 30,
      newPeoplePerDay: null,
      recipientDomainPerDay: null,
    });
    expect(got.body.policies.companyStop.action).toBe('pause');

    const r = await patch(sequenceId, { contact: { newPeoplePerDay: 50 } });
    expect(r.status).toBe(200);
    expect(r.body.policies.contact).toMatchObject({ exclusive: true, cooldownDays: 30, newPeoplePerDay: 50 });
    const back = await patch(sequenceId, { contact: { newPeoplePerDay: null } });
    expect(back.body.policies.contact.newPeoplePerDay).toBeNull();

    const bad = await patch(sequenceId, { contact: { cooldownDays: -3, typo: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain('body.contact.cooldownDays');
    const unknown = await patch(sequenceId, { contact: { typo: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'body.contact.typo', message: 'unknown policy field' }]);

    const missing = await sys.api('GET', '/v1/sequences/00000000-0000-4000-8000-000000000000/policies');
    expect(missing.status).toBe(404);

    const timeline = await sys.rt.repos.audit.list({ entityType: 'sequence', entityId: sequenceId }, 50);
    const set = timeline.filter((a: { action: string }) => a.action === 'sequence.policies_set');
    expect(set).toHaveLength(2);
  });

  it('exclusivity: a second live sequence is refused with 409 naming the one that holds the person; bulk reports the row', async () => {
    const first = await createSequence(sys, 3, '300d');
    const second = await createSequence(sys, 3, '300d');
    const [alice, bob] = await importProspects(sys, [
      { email: 'alice@exclusive.example' },
      { email: 'bob@exclusive.example' },
    ]);
    await enroll(sys, first, mailboxId, [alice!]);

    const one = await sys.api('POST', '/v1/enrollments', {
      sequenceId: second,
      mailboxId,
      prospectIds: [alice],
    });
    expect(one.status).toBe(409);
    expect(one.body.type).toBe('https://touchbase.dev/problems/in_other_sequence');
    expect(one.body.code).toBe('in_other_sequence');
    expect(one.body.sequenceId).toBe(first);

    const bulk = await sys.api('POST', '/v1/enrollments', {
      sequenceId: second,
      mailboxId,
      prospectIds: [alice, bob],
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body.enrolled.map((e: { prospectId: string }) => e.prospectId)).toEqual([bob]);
    expect(bulk.body.refused).toEqual([
      { prospectId: alice, reason: 'in_other_sequence', sequenceId: first },
    ]);
  });

  it('exclusivity is per sequence: two sequences that both opted out share a person', async () => {
    const a = await createSequence(sys, 1, '1d');
    const b = await createSequence(sys, 1, '1d');
    const [carol] = await importProspects(sys, [{ email: 'carol@shared.example' }]);
    await enroll(sys, a, mailboxId, [carol!]);
    // Only the new one opting out is not enough: the first still holds the person.
    await allowSharedPeople(sys, b);
    const refused = await sys.api('POST', '/v1/enrollments', {
      sequenceId: b,
      mailboxId,
      prospectIds: [carol],
    });
    expect(refused.status).toBe(409);
    await allowSharedPeople(sys, a);
    const ok = await sys.api('POST', '/v1/enrollments', { sequenceId: b, mailboxId, prospectIds: [carol] });
    expect(ok.status).toBe(201);
  });

  it('exclusivity is race-safe: the same person enrolled in two sequences at once is enrolled once', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await createSequence(sys, 3, '300d');
      const b = await createSequence(sys, 3, '300d');
      const [dave] = await importProspects(sys, [{ email: `dave${round}@race.example` }]);
      const [ra, rb] = await Promise.all([
        sys.api('POST', '/v1/enrollments', { sequenceId: a, mailboxId, prospectIds: [dave] }),
        sys.api('POST', '/v1/enrollments', { sequenceId: b, mailboxId, prospectIds: [dave] }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([201, 409]);
      const live = await sys.rt.repos.enrollments.list({ prospectId: dave! }, 10);
      expect(live).toHaveLength(1);
    }
  });

  it('cooldown: the first touch to a person another sequence touched waits out the days and says until when', async () => {
    const a = await createSequence(sys, 1, '1d');
    const b = await createSequence(sys, 2, '1d');
    await allowSharedPeople(sys, a);
    await patch(b, { contact: { exclusive: false } }); // cooldown left at its default, 30 days
    const [erin] = await importProspects(sys, [{ email: 'erin@cooldown.example' }]);
    const [ea] = await enroll(sys, a, mailboxId, [erin!]);
    await waitFor('the first sequence touched erin', () => sent(ea!.id));
    const [touch] = await sys.rt.repos.touches.forEnrollment(ea!.id);
    const lastContact = (touch?.sentAt ?? touch?.createdAt) as Date;

    const [eb] = await enroll(sys, b, mailboxId, [erin!]);
    const until = lastContact.getTime() + 30 * DAY;
    await waitFor(
      'the first touch held for the cooldown',
      async () => (await waiting(eb!.id))?.reason === 'cooldown',
    );
    const w = await waiting(eb!.id);
    expect(Date.parse(w.until)).toBe(until);
    const row = await enrollment(sys, eb!.id);
    expect(Date.parse(row.nextTouchAt!)).toBe(until);
    expect(row.currentStep).toBe(1);
    const list = await sys.api('GET', `/v1/enrollments?waiting=cooldown&sequenceId=${b}`);
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([eb!.id]);
  });

  it('new people per day: first touches beyond the cap wait for the next day and say why', async () => {
    const sequenceId = await createSequence(sys, 2, '300d');
    await patch(sequenceId, { contact: { newPeoplePerDay: 2 } });
    const people = await importProspects(
      sys,
      Array.from({ length: 4 }, (_, i) => ({ email: `p${i}@newpeople${i}.example` })),
    );
    const rows = await enroll(sys, sequenceId, mailboxId, people);
    await waitFor('two sent, two held', async () => {
      const states = await Promise.all(
        rows.map(async (r) => (await sent(r.id)) || (await waiting(r.id))?.reason),
      );
      return (
        states.filter((s) => s === true).length === 2 &&
        states.filter((s) => s === 'new_people_cap').length === 2
      );
    });
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0); // the sandbox mailbox's zone is UTC
    for (const r of rows) {
      if (await sent(r.id)) continue;
      const w = await waiting(r.id);
      expect(w).toEqual({ reason: 'new_people_cap', until: midnight.toISOString() });
    }
  });

  it('recipient-domain cap: at most N touches a day to one company; the rest wait and say why', async () => {
    const sequenceId = await createSequence(sys, 2, '300d');
    await patch(sequenceId, { contact: { recipientDomainPerDay: 2 } });
    const people = await importProspects(sys, [
      { email: 'a@capped-co.example' },
      { email: 'b@capped-co.example' },
      { email: 'c@capped-co.example' },
      { email: 'd@other-co.example' },
    ]);
    const rows = await enroll(sys, sequenceId, mailboxId, people);
    const byProspect = new Map(rows.map((r) => [r.prospectId, r.id]));
    await waitFor('three sent, one held', async () => {
      const states = await Promise.all(
        rows.map(async (r) => (await sent(r.id)) || (await waiting(r.id))?.reason),
      );
      return states.filter((s) => s === true).length === 3 && states.includes('recipient_domain_cap');
    });
    // The other company is not held by the first one's cap.
    expect(await sent(byProspect.get(people[3]!)!)).toBe(true);
    const held = (
      await Promise.all(people.slice(0, 3).map(async (p) => ({ p, w: await waiting(byProspect.get(p)!) })))
    ).filter((x) => x.w?.reason === 'recipient_domain_cap');
    expect(held).toHaveLength(1);
  });

  it('recipient-domain cap counts the touches of every sequence to the company, capped or not', async () => {
    const free = await createSequence(sys, 2, '300d');
    const capped = await createSequence(sys, 2, '300d');
    await patch(capped, { contact: { recipientDomainPerDay: 1 } });
    const [x, y] = await importProspects(sys, [
      { email: 'x@busy-co.example' },
      { email: 'y@busy-co.example' },
    ]);
    const [ex] = await enroll(sys, free, mailboxId, [x!]);
    await waitFor('the uncapped sequence touched the company', () => sent(ex!.id));
    const [ey] = await enroll(sys, capped, mailboxId, [y!]);
    await waitFor('held by the cap', async () => (await waiting(ey!.id))?.reason === 'recipient_domain_cap');
    expect(await sent(ey!.id)).toBe(false);
  });
});

/**
 * The same policies in compressed time (TIME_SCALE 288000: a day lasts 300 ms), as
 * the demo and the other e2e tests run: the cooldown of 30 days lasts 9 s and the
 * day caps open a new day every 300 ms, like the sequence's waits.
 */
describe('contact policies under TIME_SCALE', () => {
  let sys: TestSystem;
  let mailboxId: string;
  const SCALED_DAY = DAY / 288_000;

  beforeAll(async () => {
    sys = await startTestSystem('contact_policies_scaled');
    mailboxId = await createMailbox(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const patch = (sequenceId: string, body: unknown) =>
    sys.api('PATCH', `/v1/sequences/${sequenceId}/policies`, body);
  const sent = async (id: string) => (await enrollment(sys, id)).currentStep > 1;

  it('the cooldown is compressed: the first touch waits 30 compressed days after the last contact, then goes', async () => {
    const a = await createSequence(sys, 1, '1d');
    const b = await createSequence(sys, 2, '300d');
    await allowSharedPeople(sys, a);
    await patch(b, { contact: { exclusive: false } }); // cooldown left at its default, 30 days
    const [fay] = await importProspects(sys, [{ email: 'fay@scaled-cooldown.example' }]);
    const [ea] = await enroll(sys, a, mailboxId, [fay!]);
    await waitFor('the first sequence touched fay', () => sent(ea!.id));
    const [touch] = await sys.rt.repos.touches.forEnrollment(ea!.id);
    const lastContact = (touch?.sentAt ?? touch?.createdAt) as Date;
    const until = lastContact.getTime() + 30 * SCALED_DAY; // 9 s

    const [eb] = await enroll(sys, b, mailboxId, [fay!]);
    await waitFor('held for the cooldown', async () => {
      const row = await enrollment(sys, eb!.id);
      return row.nextTouchAt !== null && Date.parse(row.nextTouchAt) === until;
    });
    await waitFor('the first touch went after the cooldown', () => sent(eb!.id), { timeoutMs: 30_000 });
    const [first] = await sys.rt.repos.touches.forEnrollment(eb!.id);
    expect(first!.createdAt.getTime()).toBeGreaterThanOrEqual(until);
  });

  it('new people per day counts compressed days: one a day, the others go on the following days', async () => {
    const sequenceId = await createSequence(sys, 2, '300d');
    await patch(sequenceId, { contact: { newPeoplePerDay: 1 } });
    const people = await importProspects(
      sys,
      Array.from({ length: 3 }, (_, i) => ({ email: `q${i}@scaled-newpeople${i}.example` })),
    );
    const rows = await enroll(sys, sequenceId, mailboxId, people);
    await waitFor(
      'all three sent',
      async () => (await Promise.all(rows.map((r) => sent(r.id)))).every(Boolean),
      { timeoutMs: 30_000 },
    );
    // One slot of the cap a compressed day: three different days, each 300 ms long.
    const slots = await sys.rt.db.pool.query<{ day_start: Date }>(
      'SELECT day_start FROM contact_slot WHERE scope = $1 ORDER BY day_start',
      [`sequence:${sequenceId}`],
    );
    const days = slots.rows.map((r) => r.day_start.getTime());
    expect(days).toHaveLength(3);
    expect(new Set(days).size).toBe(3);
    for (const d of days) expect(d % SCALED_DAY).toBe(0);
  });
});
