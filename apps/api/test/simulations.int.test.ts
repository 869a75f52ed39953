import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const STEPS = [
  { channel: 'email' as const, subject: 'Hello {{firstName}}', body: 'First', wait: '3d' },
  { channel: 'email' as const, subject: 'Again', body: 'Second', wait: '4d' },
  { channel: 'email' as const, subject: 'Last', body: 'Third', wait: '0s' },
];

describe('POST /v1/simulations (real PostgreSQL)', () => {
  let f: ApiFixture;
  let readKey: string;
  let sequenceId: string;
  let mailboxIds: string[];

  beforeAll(async () => {
    f = await apiFixture('api-simulations');
    readKey = await f.key('read');
    // One after the other: two first mailboxes of a domain race on its row.
    const boxes = [];
    for (const name of ['ana', 'ben']) {
      boxes.push(
        await f.repos.mailboxes.create({
          provider: 'sandbox',
          address: `${name}@sim.example`,
          perDay: 30,
          perHour: 10,
          timezone: 'Europe/Berlin',
        }),
      );
    }
    mailboxIds = boxes.map((b) => b.id);
    const pool = await f.repos.mailboxes.createPool('sim-pool', mailboxIds);
    sequenceId = (await f.repos.sequences.create({ name: 'Simulated', steps: STEPS })).id;
    await f.repos.mailboxes.setSequencePool(sequenceId, pool.id);
  });
  afterAll(async () => {
    await f?.close();
  });

  const post = (body: unknown, query = '') =>
    f.app.inject({
      method: 'POST',
      url: `/v1/simulations${query}`,
      headers: { authorization: `Bearer ${readKey}` },
      payload: body as Record<string, unknown>,
    });

  it("runs an existing sequence on its pool's mailboxes with a read key, the same twice", async () => {
    const body = { sequenceId, start: '2026-12-01T07:00:00Z', seed: 3, prospects: { count: 120 } };
    const a = await post(body);
    expect(a.statusCode).toBe(200);
    const report = a.json();
    expect(report.input.steps).toBe(3);
    expect(report.input.mailboxes.map((m: { id: string }) => m.id)).toEqual([
      'ana@sim.example',
      'ben@sim.example',
    ]);
    expect(report.input.assignment).toBe('pool');
    expect(report.dailyCap).toBe(60);
    expect(report.binding.message).toMatch(/^mailbox caps bind/);
    const b = await post(body);
    expect(b.body).toBe(a.body);
    // Nothing was enrolled: a dry run writes nothing.
    const { rows } = await f.db.pool.query('SELECT count(*)::int AS n FROM enrollment');
    expect(rows[0].n).toBe(0);
  });

  it('adds the SVG picture when asked, for the console', async () => {
    const res = await post(
      { sequenceId, start: '2026-12-01T07:00:00Z', prospects: { count: 30 } },
      '?picture=svg',
    );
    expect(res.statusCode).toBe(200);
    const { picture } = res.json();
    expect(picture).toMatch(/^<svg /);
    expect(picture).toContain('daily caps 60');
  });

  it('answers 422 naming the field when neither a sequence nor mailboxes are given', async () => {
    const res = await post({ mailboxIds, start: '2026-12-01T07:00:00Z', prospects: { count: 5 } });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().field).toBe('sequence');
  });

  it('answers 400 naming the field of a bad odd', async () => {
    const res = await post({ sequenceId, prospects: { count: 5 }, odds: { reply: 2 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('body.odds.reply');
  });

  it('runs a sequence given as a graph as its graph: its branches, its nodes in the funnel', async () => {
    const mail = (id: string) => ({ id, action: 'email' as const, subject: 'Hi', body: id });
    const graph = {
      nodes: [
        mail('first'),
        mail('opened-it'),
        { id: 'call', action: 'manual_task' as const, title: 'Call' },
        { id: 'end', action: 'end' as const },
      ],
      edges: [
        { from: 'first', to: 'opened-it', trigger: 'opened' as const, wait: '1d' },
        { from: 'first', to: 'call', trigger: 'no_reply' as const, wait: '3d' },
        { from: 'opened-it', to: 'end', trigger: 'no_reply' as const, wait: '2d' },
        { from: 'call', to: 'end', trigger: 'always' as const, wait: '0s' },
      ],
    };
    const id = (await f.repos.sequences.create({ name: 'Branching', graph })).id;
    const res = await post({
      sequenceId: id,
      mailboxIds,
      start: '2026-12-01T07:00:00Z',
      prospects: { count: 200 },
      odds: { open: 0.5, reply: 0, bounce: 0, outOfOffice: 0 },
      horizonDays: 30,
    });
    expect(res.statusCode).toBe(200);
    const funnel = res.json().funnel as {
      node: string;
      reached: number;
      opened: number;
      edgesTaken: number;
    }[];
    expect(funnel.map((r) => r.node)).toEqual(['first', 'opened-it', 'call']);
    const [first, opened, call] = funnel;
    expect(first!.reached).toBe(200);
    expect(opened!.reached).toBe(first!.edgesTaken);
    expect(opened!.reached).toBe(first!.opened);
    expect(call!.reached).toBe(200 - opened!.reached);
  });

  it("holds a pool sequence's LinkedIn actions to the pool's active LinkedIn accounts' caps and window", async () => {
    const pool = await f.repos.mailboxes.createPool('sim-li-pool', mailboxIds);
    // Tuesdays and Thursdays, 09:00-17:00 in Tokyo (00:00-08:00 UTC the same day).
    await f.repos.linkedinAccounts.create({
      provider: 'sandbox',
      providerAccountId: 'sim-li-1',
      name: 'Grace (SDR)',
      invitationsPerDay: 7,
      invitationsPerWeek: 30,
      windowDays: [2, 4],
      timezone: 'Asia/Tokyo',
      poolIds: [pool.id],
    });
    const graph = {
      nodes: [
        { id: 'connect', action: 'linkedin_connect' as const },
        { id: 'end', action: 'end' as const },
      ],
      edges: [{ from: 'connect', to: 'end', trigger: 'not_accepted' as const, wait: '7d' }],
    };
    const id = (await f.repos.sequences.create({ name: 'Invitations', graph })).id;
    await f.repos.mailboxes.setSequencePool(id, pool.id);
    const res = await post(
      { sequenceId: id, start: '2026-12-01T07:00:00Z', prospects: { count: 60 } },
      '?picture=svg',
    );
    expect(res.statusCode).toBe(200);
    const report = res.json();
    // The account's own window and zone, not the mailboxes': invitations on its days only.
    for (const d of report.days) {
      if (d.byLinkedInAction.invitation === 0) continue;
      expect([2, 4]).toContain(new Date(`${d.date}T00:00:00Z`).getUTCDay());
      expect(d.byLinkedInAccount).toEqual({ 'Grace (SDR)': d.byLinkedInAction.invitation });
    }
    // The picture draws the account as a series with its invitation caps.
    expect(report.picture).toContain('>Grace (SDR)</text>');
    expect(report.picture).toContain('LinkedIn invitation caps 7');
    expect(report.linkedin.accounts).toEqual([
      expect.objectContaining({
        id: 'Grace (SDR)',
        invitationsPerDay: 7,
        invitationsPerWeek: 30,
        sends: { invitation: 60, message: 0, profile_visit: 0 },
        busiestDay: { invitation: 7, message: 0, profile_visit: 0 },
      }),
    ]);
    for (const d of report.days) expect(d.byLinkedInAction.invitation).toBeLessThanOrEqual(7);
    expect(report.binding.constraint).toBe('linkedin_caps');
    expect(report.binding.message).toMatch(/^LinkedIn invitation caps bind: /);
  });

  it('answers 404 for a sequence that does not exist', async () => {
    const res = await post({ sequenceId: '00000000-0000-4000-8000-000000000000', prospects: { count: 5 } });
    expect(res.statusCode).toBe(404);
  });
  it('refuses, as enrolling would, people held by an exclusive sequence, listed twice or live in it already; and writes nothing', async () => {
    const other = await f.repos.sequences.create({ name: 'Other', steps: STEPS });
    const people = await f.repos.prospects.upsertMany(
      ['held', 'free', 'here'].map((name) => ({ email: `${name}@people.example` })),
    );
    const [held, free, here] = people.map((p) => p.id);
    const live = async (prospectId: string, seq: { id: string; version: { id: string } }) =>
      f.db.pool.query(
        `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, 'active')`,
        [prospectId, seq.id, seq.version.id, mailboxIds[0]],
      );
    await live(held!, other);
    const mine = await f.repos.sequences.get(sequenceId);
    const [version] = (
      await f.db.pool.query<{ id: string }>('SELECT id FROM sequence_version WHERE sequence_id = $1', [
        sequenceId,
      ])
    ).rows;
    await live(here!, { id: mine.id, version: version! });
    const count = async () =>
      (await f.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM enrollment')).rows[0]!.n;
    const before = await count();
    const body = {
      sequenceId,
      start: '2026-12-01T07:00:00Z',
      prospects: { list: [{ id: held }, { id: free }, { id: free }, { id: here }] },
    };
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toMatchObject({
      enrolled: 1,
      refused: { alreadyEnrolled: 2, inOtherSequence: 1 },
    });
    // Neither sequence exclusive: the person live in the other one may join.
    await f.repos.sequences.setPolicies(other.id, { contact: { exclusive: false } });
    await f.repos.sequences.setPolicies(sequenceId, { contact: { exclusive: false } });
    const shared = await post(body);
    expect(shared.json().summary).toMatchObject({
      enrolled: 2,
      refused: { alreadyEnrolled: 2, inOtherSequence: 0 },
    });
    await f.repos.sequences.setPolicies(sequenceId, {});
    expect(await count()).toBe(before);
  });
  it('refuses, as enrolling does, a person whose enrollment in the sequence has ended; a draft does not know them', async () => {
    const seq = await f.repos.sequences.create({ name: 'Enrolled once', steps: STEPS });
    const [ended, fresh] = (
      await f.repos.prospects.upsertMany(['ended', 'fresh'].map((n) => ({ email: `${n}@once.example` })))
    ).map((p) => p.id);
    await f.db.pool.query(
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, 'exhausted')`,
      [ended, seq.id, seq.version.id, mailboxIds[0]],
    );
    const prospects = { list: [{ id: ended }, { id: fresh }] };
    const res = await post({ sequenceId: seq.id, mailboxIds, start: '2026-12-01T07:00:00Z', prospects });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toMatchObject({ enrolled: 1, refused: { alreadyEnrolled: 1 } });
    // A draft is no sequence yet: nobody was enrolled in it.
    const draft = await post({
      sequence: { steps: [{}] },
      mailboxIds,
      start: '2026-12-01T07:00:00Z',
      prospects,
    });
    expect(draft.json().summary).toMatchObject({ enrolled: 2, refused: { alreadyEnrolled: 0 } });
    // The live enrollment refuses the same person for the same reason.
    const live = await f.repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId: mailboxIds[0]!,
      prospectIds: [ended!, fresh!],
      firstTouchAt: () => new Date('2026-12-01T09:00:00Z'),
    });
    expect(live.enrolled.map((e) => e.prospectId)).toEqual([fresh]);
    expect(live.refused).toEqual([{ prospectId: ended, reason: 'already_enrolled' }]);
  });
  it('runs the version asked for (by number or id), the latest by default; 404 naming a version it lacks', async () => {
    const v2 = await f.repos.sequences.addVersion(sequenceId, [STEPS[0]!]);
    const steps = async (extra: object) => {
      const res = await post({
        sequenceId,
        start: '2026-12-01T07:00:00Z',
        prospects: { count: 5 },
        ...extra,
      });
      expect(res.statusCode).toBe(200);
      return res.json().input.steps;
    };
    expect(await steps({})).toBe(1);
    expect(await steps({ version: 1 })).toBe(3);
    expect(await steps({ version: v2.id })).toBe(1);
    const missing = await post({ sequenceId, version: 9, prospects: { count: 5 } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      field: 'version',
      detail: expect.stringContaining('no version 9'),
    });
    const orphan = await post({ version: 1, mailboxIds, sequence: { steps: [{}] }, prospects: { count: 5 } });
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json().field).toBe('version');
  });
  it("holds first touches to the sequence's campaign start, and refuses a campaign that has ended, as enrolling does", async () => {
    const dated = (await f.repos.sequences.create({ name: 'Dated', steps: STEPS })).id;
    await f.repos.sequences.setPolicies(dated, { startsAt: '2026-12-10T09:00:00Z' });
    const body = { sequenceId: dated, mailboxIds, start: '2026-12-01T07:00:00Z', prospects: { count: 20 } };
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report.input.start).toBe('2026-12-10T09:00:00.000Z');
    const firstSendDay = report.days.find((d: { total: number }) => d.total > 0).date;
    expect(firstSendDay >= '2026-12-10').toBe(true);
    await f.repos.sequences.setPolicies(dated, { endsAt: '2026-11-30T00:00:00Z' });
    const ended = await post(body);
    expect(ended.statusCode).toBe(422);
    expect(ended.json().field).toBe('start');
  });
  it('refuses suppressed and cooling-off people as enrolling does, reading the suppression list without writing', async () => {
    const people = await f.repos.prospects.upsertMany(
      ['sup@listed.example', 'dom@blocked.example', 'cool@listed.example', 'ok@listed.example'].map(
        (email) => ({ email }),
      ),
    );
    const [sup, dom, cool, ok] = people.map((p) => p.id);
    await f.repos.suppressions.add('email', 'sup@listed.example', 'unsubscribed');
    await f.repos.suppressions.add('domain', 'blocked.example', 'do not contact');
    await f.db.pool.query(`UPDATE prospect SET contact_after = '2027-06-01T00:00:00Z' WHERE id = $1`, [cool]);
    const counts = async () =>
      (
        await f.db.pool.query<{ e: number; s: number }>(
          'SELECT (SELECT count(*)::int FROM enrollment) AS e, (SELECT count(*)::int FROM suppression) AS s',
        )
      ).rows[0]!;
    const before = await counts();
    const res = await post({
      sequenceId,
      start: '2026-12-01T07:00:00Z',
      // An address that is no prospect is matched by the list too (by its domain here).
      prospects: {
        list: [{ id: sup }, { id: dom }, { id: cool }, { id: ok }, { email: 'Nobody@Blocked.example' }],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toMatchObject({
      enrolled: 1,
      refused: { alreadyEnrolled: 0, inOtherSequence: 0, suppressed: 3, coolingOff: 1 },
    });
    // A CSV is matched by its addresses the same way.
    const csv = await post({
      sequenceId,
      start: '2026-12-01T07:00:00Z',
      prospects: {
        csv: 'email,timezone\nSUP@listed.example,\nok@listed.example,Europe/Paris\nx@blocked.example,\n',
      },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.json().summary).toMatchObject({ enrolled: 1, refused: { suppressed: 2, coolingOff: 0 } });
    expect(await counts()).toEqual(before);
    // The live enrollment refuses the same people for the same reasons.
    const seq = await f.repos.sequences.create({ name: 'Suppressed check', steps: STEPS });
    const enrolled = await f.repos.enrollments.enroll({
      sequenceId: seq.id,
      sequenceVersionId: seq.version.id,
      mailboxId: mailboxIds[0]!,
      prospectIds: [sup!, dom!, cool!, ok!],
      firstTouchAt: () => new Date('2026-12-01T09:00:00Z'),
    });
    expect(enrolled.enrolled.map((e) => e.prospectId)).toEqual([ok]);
    expect(Object.fromEntries(enrolled.refused.map((r) => [r.prospectId, r.reason]))).toEqual({
      [sup!]: 'suppressed',
      [dom!]: 'suppressed',
      [cool!]: 'cooling_off',
    });
  });
  it("starts the day caps from today's touches, as the sender counts them: a new-people cap already reached today waits for tomorrow", async () => {
    const capped = await f.repos.sequences.create({ name: 'Capped today', steps: [STEPS[2]!] });
    await f.repos.sequences.setPolicies(capped.id, { contact: { newPeoplePerDay: 2 } });
    const [sent1, sent2, ...fresh] = (
      await f.repos.prospects.upsertMany(
        ['s1', 's2', 'n1', 'n2'].map((n) => ({ email: `${n}@today${n}.example` })),
      )
    ).map((p) => p.id);
    // Two first touches sent earlier today (Berlin, the mailbox's day): the cap of 2 is reached.
    for (const prospectId of [sent1!, sent2!]) {
      const enrollment = (
        await f.db.pool.query<{ id: string }>(
          `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status)
           VALUES (gen_random_uuid(), $1, $2, $3, $4, 'exhausted') RETURNING id`,
          [prospectId, capped.id, capped.version.id, mailboxIds[0]],
        )
      ).rows[0]!.id;
      await f.db.pool.query(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, sent_at)
         VALUES (gen_random_uuid(), $1, 1, 'sent', $2, '2026-12-01T08:00:00Z')`,
        [enrollment, `${enrollment}-1-1`],
      );
    }
    const count = async () =>
      (await f.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contact_slot')).rows[0]!.n;
    const before = await count();
    const res = await post({
      sequenceId: capped.id,
      mailboxIds: [mailboxIds[0]],
      start: '2026-12-01T09:00:00Z',
      prospects: { list: fresh.map((id) => ({ id })) },
    });
    expect(res.statusCode).toBe(200);
    const report = res.json();
    const sendDays = report.days.filter((d: { total: number }) => d.total > 0);
    expect(sendDays.map((d: { date: string; total: number }) => [d.date, d.total])).toEqual([
      ['2026-12-02', 2],
    ]);
    expect(report.delays.byContactPolicy.holds.new_people_cap).toBeGreaterThanOrEqual(2);
    // Read, not written: no slot taken.
    expect(await count()).toBe(before);
  });
  it("holds touches to the sequence's contact policies: a recipient-domain cap of 1 a day spreads a company over days", async () => {
    const capped = (await f.repos.sequences.create({ name: 'Capped', steps: [STEPS[2]!] })).id;
    await f.repos.sequences.setPolicies(capped, { contact: { recipientDomainPerDay: 1 } });
    const people = await f.repos.prospects.upsertMany(
      ['a', 'b', 'c'].map((n) => ({ email: `${n}@onecompany.example` })),
    );
    const res = await post({
      sequenceId: capped,
      mailboxIds: [mailboxIds[0]],
      start: '2026-12-01T07:00:00Z',
      prospects: { list: people.map((p) => ({ id: p.id })) },
    });
    expect(res.statusCode).toBe(200);
    const report = res.json();
    const sendDays = report.days
      .filter((d: { total: number }) => d.total > 0)
      .map((d: { total: number }) => d.total);
    expect(sendDays).toEqual([1, 1, 1]);
    expect(report.delays.byContactPolicy.holds.recipient_domain_cap).toBeGreaterThanOrEqual(2);
    expect(report.binding.constraint).toBe('contact_policy');
  });
});
