import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../support/api-fixture.js';
import { call, hasJob, sequenceAndMailbox } from './operator-fixture.js';

async function csv(f: ApiFixture, key: string, body: string) {
  const res = await f.app.inject({
    method: 'POST',
    url: '/v1/prospects/import',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
    payload: body,
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON answers loosely
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

describe('one person across channels (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  let writer: string;

  beforeAll(async () => {
    f = await apiFixture('identities-api');
    writer = await f.key('write', 'ops-person');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('imports one person twice, by two addresses and one LinkedIn URL, as one prospect with every identity', async () => {
    const first = await call(f, writer, 'POST', '/v1/prospects', {
      prospects: [
        {
          email: 'Ada@Work.example',
          firstName: 'Ada',
          linkedinUrl: 'https://www.linkedin.com/in/ada-lovelace/',
          consent: 'yes',
          legalBasis: 'art. 6(1)(f)',
          consentAt: '2026-10-01T09:00:00Z',
        },
      ],
    });
    expect(first.status).toBe(200);
    const id = first.body.prospects[0].id as string;
    const second = await csv(
      f,
      writer,
      'email,last name,linkedin,phone\nada@home.example,Lovelace,fr.linkedin.com/in/Ada-Lovelace?trk=x,+44 20 7946 0958\n',
    );
    expect(second.status).toBe(200);
    expect(second.body.prospects).toEqual([{ id, email: 'ada@work.example' }]);

    const read = await call(f, writer, 'GET', `/v1/prospects/${id}`);
    expect(read.body).toMatchObject({
      email: 'ada@work.example',
      firstName: 'Ada',
      lastName: 'Lovelace',
      consent: 'granted',
      legalBasis: 'legitimate_interests',
      linkedinUrl: 'https://www.linkedin.com/in/ada-lovelace/',
      phone: '+442079460958',
    });
    expect(new Date(read.body.consentAt).toISOString()).toBe('2026-10-01T09:00:00.000Z');
    expect(read.body.identities).toEqual([
      { kind: 'email', value: 'ada@home.example' },
      { kind: 'email', value: 'ada@work.example' },
      { kind: 'linkedin', value: 'https://www.linkedin.com/in/ada-lovelace/' },
      { kind: 'phone', value: '+442079460958' },
    ]);
    const list = (await call(f, writer, 'GET', '/v1/prospects?limit=500')).body.items as { id: string }[];
    expect(list.filter((p) => p.id === id)).toHaveLength(1);
  });

  it('folds rows of one request that share an identity, and names rows joining two known prospects', async () => {
    const res = await call(f, writer, 'POST', '/v1/prospects', {
      prospects: [
        { email: 'x1@fold.example', phone: '+49 30 1234567' },
        { email: 'x2@fold.example', phone: '+49301234567', firstName: 'Xena' },
        { email: 'y@fold.example' },
      ],
    });
    const [a, b, c] = res.body.prospects as { id: string }[];
    expect(a!.id).toBe(b!.id);
    expect(c!.id).not.toBe(a!.id);
    expect(res.body.conflicts).toEqual([]);
    const joined = await call(f, writer, 'POST', '/v1/prospects', {
      prospects: [{ email: 'y@fold.example', otherEmails: ['x2@fold.example'] }],
    });
    expect(joined.body.conflicts).toEqual([{ index: 0, prospectId: c!.id, otherProspectIds: [a!.id] }]);
    // The identity held by the other stays with it.
    const x = await call(f, writer, 'GET', `/v1/prospects/${a!.id}`);
    expect(x.body.identities.map((i: { value: string }) => i.value)).toContain('x2@fold.example');
  });

  it('refuses identities that are not one, naming the field', async () => {
    const res = await call(f, writer, 'POST', '/v1/prospects', {
      prospects: [
        {
          email: 'bad@fields.example',
          phone: '030 1234567',
          linkedinUrl: 'https://www.linkedin.com/company/acme',
          legalBasis: 'because',
        },
      ],
    });
    expect(res.status).toBe(400);
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual([
      'body.prospects.0.legalBasis',
      'body.prospects.0.linkedinUrl',
      'body.prospects.0.phone',
    ]);
  });

  it('resolves events from any address, the LinkedIn URL and the HubSpot id to the person', async () => {
    const admin = await f.key('admin', 'resolver');
    const at = await sequenceAndMailbox(f, admin, 'resolve');
    const p = (
      await call(f, writer, 'POST', '/v1/prospects', {
        prospects: [
          {
            email: 'grace@navy.example',
            otherEmails: ['grace@home.example'],
            linkedinUrl: 'linkedin.com/in/grace-hopper',
            hubspotId: '9001',
          },
        ],
      })
    ).body.prospects[0];
    const resolve = (event: Record<string, unknown>) =>
      f.repos.events.resolveTarget({
        source: 'hubspot',
        externalId: 'x',
        type: 'reply',
        occurredAt: new Date(),
        channel: 'email',
        data: {},
        ...event,
      } as never);
    expect((await resolve({ email: 'GRACE@home.example' }))?.prospectId).toBe(p.id);
    expect(
      (await resolve({ linkedinUrl: 'https://m.linkedin.com/in/Grace-Hopper/details/' }))?.prospectId,
    ).toBe(p.id);
    expect((await resolve({ crmId: '9001' }))?.prospectId).toBe(p.id);
    expect((await resolve({ email: 'grace@home.example' }))?.email).toBe('grace@navy.example');
    expect(at.sequenceId).toBeTruthy();
  });

  it('POST /v1/prospects/:id/merge: enrollments, events, suppressions and identities follow; the later enrollment of a shared sequence is cancelled', async () => {
    const admin = await f.key('admin', 'merger-admin');
    const at = await sequenceAndMailbox(f, admin, 'merge');
    const other = await sequenceAndMailbox(f, admin, 'merge-other');
    // Two sequences a person may be in at once (exclusivity off), so the duplicate is in both.
    for (const s of [at, other]) {
      await call(f, writer, 'PATCH', `/v1/sequences/${s.sequenceId}/policies`, {
        contact: { exclusive: false },
      });
    }
    const people = (
      await call(f, writer, 'POST', '/v1/prospects', {
        prospects: [
          { email: 'kept@merge.example', firstName: 'Kim' },
          { email: 'dup@merge-home.example', lastName: 'Doe', hubspotId: '777' },
        ],
      })
    ).body.prospects as { id: string }[];
    const [kept, dup] = people as [{ id: string }, { id: string }];
    const e1 = (await call(f, writer, 'POST', '/v1/enrollments', { ...at, prospectIds: [kept.id] })).body
      .enrolled[0].id;
    const e2 = (await call(f, writer, 'POST', '/v1/enrollments', { ...at, prospectIds: [dup.id] })).body
      .enrolled[0].id;
    const e3 = (await call(f, writer, 'POST', '/v1/enrollments', { ...other, prospectIds: [dup.id] })).body
      .enrolled[0].id;
    expect(await hasJob(f, e2)).toBe(true);
    // An event of the duplicate (a CRM note), recorded against it.
    await f.repos.events.transaction(async (tx) => {
      await tx.insertEvent('00000000-0000-4000-8000-000000000001', {
        source: 'hubspot',
        externalId: 'note-1',
        type: 'delivered',
        occurredAt: new Date(),
        channel: 'email',
        data: {},
      } as never);
      await tx.finishEvent('00000000-0000-4000-8000-000000000001', 'no_effect' as never, dup.id, e3);
    });

    const reader = await f.key('read', 'merge-reader');
    expect(
      (await call(f, reader, 'POST', `/v1/prospects/${kept.id}/merge`, { from: dup.id, reason: 'x' })).status,
    ).toBe(403);
    const self = await call(f, writer, 'POST', `/v1/prospects/${kept.id}/merge`, {
      from: kept.id,
      reason: 'x',
    });
    expect(self.status).toBe(400);
    expect(self.body.errors).toEqual([{ field: 'from', message: 'a prospect cannot be merged into itself' }]);
    const missing = await call(f, writer, 'POST', `/v1/prospects/${kept.id}/merge`, {
      from: '00000000-0000-4000-8000-0000000000ff',
      reason: 'x',
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 404, code: 'not_found' });

    const res = await call(f, writer, 'POST', `/v1/prospects/${kept.id}/merge`, {
      from: dup.id,
      reason: 'same person, two addresses (ticket 42)',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      prospectId: kept.id,
      mergedFrom: dup.id,
      moved: [e3],
      leftBehind: [{ enrollmentId: e2, keptEnrollmentId: e1, sequenceId: at.sequenceId, cancelled: true }],
    });
    expect(await hasJob(f, e2)).toBe(false);
    expect(await hasJob(f, e1)).toBe(true);
    expect((await call(f, writer, 'GET', `/v1/enrollments/${e2}`)).body).toMatchObject({
      status: 'cancelled',
      stopReason: 'merged',
    });
    expect((await call(f, writer, 'GET', `/v1/enrollments/${e3}`)).body.prospectId).toBe(kept.id);
    expect((await call(f, writer, 'GET', `/v1/prospects/${dup.id}`)).status).toBe(404);
    const merged = (await call(f, writer, 'GET', `/v1/prospects/${kept.id}`)).body;
    expect(merged).toMatchObject({
      email: 'kept@merge.example',
      firstName: 'Kim',
      lastName: 'Doe',
      hubspotId: '777',
    });
    expect(merged.identities.map((i: { value: string }) => i.value).sort()).toEqual([
      '777',
      'dup@merge-home.example',
      'kept@merge.example',
    ]);
    const events = (await call(f, writer, 'GET', `/v1/events?prospectId=${kept.id}`)).body.items as {
      id: string;
    }[];
    expect(events.map((e) => e.id)).toContain('00000000-0000-4000-8000-000000000001');
    const audit = (await call(f, writer, 'GET', `/v1/audit?entityType=prospect&entityId=${kept.id}`)).body
      .items;
    expect(audit).toMatchObject([
      {
        actor: 'ops-person',
        action: 'prospect.merged',
        data: { from: dup.id, reason: 'same person, two addresses (ticket 42)' },
      },
    ]);
    // A reply to the cancelled enrollment's thread reaches the person.
    expect(
      (await f.repos.events.resolveTarget({ enrollmentId: e2, channel: 'linkedin' } as never))?.prospectId,
    ).toBe(kept.id);
  });

  it('a merged-in unsubscribe keeps the person out: the address touches go to is suppressed and live enrollments end', async () => {
    const admin = await f.key('admin', 'merge-sup');
    const at = await sequenceAndMailbox(f, admin, 'merge-sup');
    const [live, gone] = (
      await call(f, writer, 'POST', '/v1/prospects', {
        prospects: [{ email: 'live@sup.example' }, { email: 'gone@sup-home.example' }],
      })
    ).body.prospects as { id: string }[];
    const e = (await call(f, writer, 'POST', '/v1/enrollments', { ...at, prospectIds: [live!.id] })).body
      .enrolled[0].id;
    await call(f, admin, 'POST', '/v1/suppressions', {
      kind: 'email',
      value: 'gone@sup-home.example',
      reason: 'unsubscribe',
    });
    const res = await call(f, writer, 'POST', `/v1/prospects/${live!.id}/merge`, {
      from: gone!.id,
      reason: 'same',
    });
    expect(res.body.suppressionsFollowed).toBe(1);
    expect((await call(f, writer, 'GET', `/v1/enrollments/${e}`)).body.status).toBe('cancelled');
    expect(await hasJob(f, e)).toBe(false);
    const check = await call(f, admin, 'GET', '/v1/suppressions/check?email=live%40sup.example');
    expect(check.body.matches).toMatchObject([{ kind: 'email', value: 'live@sup.example' }]);
  });

  it('a merge that leaves the person live in two sequences, one exclusive, cancels the later one', async () => {
    const admin = await f.key('admin', 'merge-excl');
    const s1 = await sequenceAndMailbox(f, admin, 'merge-excl-1');
    const s2 = await sequenceAndMailbox(f, admin, 'merge-excl-2');
    const [one, two] = (
      await call(f, writer, 'POST', '/v1/prospects', {
        prospects: [{ email: 'one@excl.example' }, { email: 'two@excl-home.example' }],
      })
    ).body.prospects as { id: string }[];
    const e1 = (await call(f, writer, 'POST', '/v1/enrollments', { ...s1, prospectIds: [one!.id] })).body
      .enrolled[0].id;
    const e2 = (await call(f, writer, 'POST', '/v1/enrollments', { ...s2, prospectIds: [two!.id] })).body
      .enrolled[0].id;
    const res = await call(f, writer, 'POST', `/v1/prospects/${one!.id}/merge`, {
      from: two!.id,
      reason: 'same',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      moved: [e2],
      leftBehind: [],
      endedForExclusivity: [{ enrollmentId: e2, keptEnrollmentId: e1 }],
    });
    expect((await call(f, writer, 'GET', `/v1/enrollments/${e2}`)).body).toMatchObject({
      prospectId: one!.id,
      status: 'cancelled',
      stopReason: 'merged',
    });
    expect(await hasJob(f, e2)).toBe(false);
    expect((await call(f, writer, 'GET', `/v1/enrollments/${e1}`)).body.status).toBe('active');
  });
});
