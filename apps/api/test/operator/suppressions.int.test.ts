import { addressHash } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../support/api-fixture.js';
import { allowSharedPeople, call, enrolled, hasJob, sequenceAndMailbox } from './operator-fixture.js';

describe('suppressions: add ends live enrollments at once, remove, check (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  let admin: string;
  let writer: string;

  beforeAll(async () => {
    f = await apiFixture('suppressions');
    admin = await f.key('admin', 'sup-admin');
    writer = await f.key('write', 'sup-writer');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('an address added ends that person’s live enrollments in every sequence, removes their jobs, and is audited', async () => {
    const a = await sequenceAndMailbox(f, admin, 'sup-a');
    const b = await sequenceAndMailbox(f, admin, 'sup-b');
    // Kim is in both at once: the two opt out of exclusivity.
    for (const s of [a, b]) await allowSharedPeople(f, admin, s.sequenceId);
    const [inA, other] = await enrolled(f, admin, a, [
      { email: 'kim@sup.example' },
      { email: 'lee@sup.example' },
    ]);
    const [inB] = await enrolled(f, admin, b, [{ email: 'kim@sup.example' }]);
    await call(f, writer, 'POST', `/v1/enrollments/${inB!.enrollmentId}/pause`, { reason: 'x' });

    const res = await call(f, writer, 'POST', '/v1/suppressions', {
      kind: 'email',
      value: ' Kim@Sup.example ',
      reason: 'asked on the phone',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: true, enrollmentsEnded: 2 });
    for (const id of [inA!.enrollmentId, inB!.enrollmentId]) {
      expect(await f.repos.enrollments.get(id)).toMatchObject({
        status: 'cancelled',
        stopReason: 'suppressed:email',
        nextTouchAt: null,
      });
      expect(await hasJob(f, id)).toBe(false);
    }
    expect((await f.repos.enrollments.get(other!.enrollmentId)).status).toBe('active');
    expect(await hasJob(f, other!.enrollmentId)).toBe(true);
    const audit = (await call(f, admin, 'GET', `/v1/audit?entityType=suppression&entityId=${res.body.id}`))
      .body.items;
    expect(audit).toMatchObject([
      {
        actor: 'sup-writer',
        action: 'suppression.added',
        data: { kind: 'email', reason: 'asked on the phone' },
      },
    ]);

    // The same entry again: 200, nothing more to end.
    const again = await call(f, writer, 'POST', '/v1/suppressions', {
      kind: 'email',
      value: 'kim@sup.example',
    });
    expect(again).toMatchObject({
      status: 200,
      body: { id: res.body.id, created: false, enrollmentsEnded: 0 },
    });
  });

  it('a domain ends every address there; a hash ends the address it is the hash of', async () => {
    const at = await sequenceAndMailbox(f, admin, 'sup-c');
    const ps = await enrolled(f, admin, at, [
      { email: 'x@dom.example' },
      { email: 'y@dom.example' },
      { email: 'z@hash.example' },
      { email: 'w@kept.example' },
    ]);
    const dom = await call(f, writer, 'POST', '/v1/suppressions', { kind: 'domain', value: 'DOM.example' });
    expect(dom.body.enrollmentsEnded).toBe(2);
    const hash = await call(f, writer, 'POST', '/v1/suppressions', {
      kind: 'hash',
      value: addressHash('z@hash.example'),
    });
    expect(hash.body.enrollmentsEnded).toBe(1);
    const statuses = await Promise.all(
      ps.map(async (p) => (await f.repos.enrollments.get(p.enrollmentId)).status),
    );
    expect(statuses).toEqual(['cancelled', 'cancelled', 'cancelled', 'active']);
  });

  it('refuses a value that is not of its kind, naming the field', async () => {
    for (const [kind, value] of [
      ['email', 'not-an-address'],
      ['domain', 'no spaces.example'],
      ['hash', 'abc'],
    ]) {
      const res = await call(f, writer, 'POST', '/v1/suppressions', { kind, value });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'value', message: expect.any(String) }]);
    }
  });

  it('checks an address, and a removed entry (admin, audited) no longer matches', async () => {
    const added = await call(f, writer, 'POST', '/v1/suppressions', {
      kind: 'email',
      value: 'mo@check.example',
    });
    const check = await call(f, writer, 'GET', '/v1/suppressions/check?email=MO@check.example');
    expect(check.body).toMatchObject({ suppressed: true, matches: [{ id: added.body.id, kind: 'email' }] });
    expect((await call(f, writer, 'GET', '/v1/suppressions/check?email=no@check.example')).body).toEqual({
      suppressed: false,
      matches: [],
    });

    expect((await call(f, writer, 'DELETE', `/v1/suppressions/${added.body.id}?reason=typo`)).status).toBe(
      403,
    );
    expect((await call(f, admin, 'DELETE', `/v1/suppressions/${added.body.id}`)).status).toBe(400);
    expect((await call(f, admin, 'DELETE', `/v1/suppressions/${added.body.id}?reason=typo`)).status).toBe(
      204,
    );
    expect((await call(f, admin, 'DELETE', `/v1/suppressions/${added.body.id}?reason=typo`)).status).toBe(
      404,
    );
    expect(
      (await call(f, writer, 'GET', '/v1/suppressions/check?email=mo@check.example')).body.suppressed,
    ).toBe(false);
    const audit = (await call(f, admin, 'GET', `/v1/audit?entityType=suppression&entityId=${added.body.id}`))
      .body.items;
    expect(audit.map((a: { actor: string; action: string }) => [a.actor, a.action])).toEqual([
      ['sup-writer', 'suppression.added'],
      ['sup-admin', 'suppression.removed'],
    ]);
  });
});
