import { addressHash } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../support/api-fixture.js';
import { call, enrolled, hasJob, sequenceAndMailbox } from './operator-fixture.js';

/** Every text-like column of every table (ids included, read as text), and the rows holding a needle. */
async function databaseHits(f: ApiFixture, needles: string[]) {
  const { rows: columns } = await f.db.pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'uuid', 'ARRAY', 'USER-DEFINED')`,
  );
  const hits: { table: string; column: string; needle: string; value: string }[] = [];
  for (const c of columns) {
    for (const needle of needles) {
      const { rows } = await f.db.pool.query<{ v: string }>(
        `SELECT "${c.column_name}"::text AS v FROM "${c.table_name}" WHERE lower("${c.column_name}"::text) LIKE '%' || lower($1) || '%'`,
        [needle],
      );
      for (const r of rows) hits.push({ table: c.table_name, column: c.column_name, needle, value: r.v });
    }
  }
  return { hits, columns: columns.length };
}

/** Every key of the test's Redis prefix, with every value it holds, that names a needle. */
async function redisHits(f: ApiFixture, needles: string[]) {
  const keys = await f.redis.keys(`${f.prefix}*`);
  const hits: { key: string; needle: string }[] = [];
  for (const key of keys) {
    const type = await f.redis.type(key);
    let text = key;
    if (type === 'string') text += await f.redis.get(key);
    else if (type === 'hash') text += JSON.stringify(await f.redis.hgetall(key));
    else if (type === 'list') text += JSON.stringify(await f.redis.lrange(key, 0, -1));
    else if (type === 'set') text += JSON.stringify(await f.redis.smembers(key));
    else if (type === 'zset') text += JSON.stringify(await f.redis.zrange(key, 0, -1));
    else if (type === 'stream') text += JSON.stringify(await f.redis.xrange(key, '-', '+'));
    for (const needle of needles)
      if (text.toLowerCase().includes(needle.toLowerCase())) hits.push({ key, needle });
  }
  return { hits, keys: keys.length };
}

describe('erasure through the API (real PostgreSQL and Redis)', () => {
  let f: ApiFixture;
  let admin: string;

  beforeAll(async () => {
    f = await apiFixture('erasure-api');
    admin = await f.key('admin', 'privacy-officer');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('DELETE /v1/prospects/:id leaves only the hash of the address, in every table and every Redis key', async () => {
    const at = await sequenceAndMailbox(f, admin, 'erase');
    const [p, kept] = await enrolled(f, admin, at, [
      { email: 'Zelda.Quartermain@erase.example', firstName: 'Zelda', lastName: 'Quartermain' },
      { email: 'kept@erase.example', firstName: 'Kept' },
    ]);
    expect(await hasJob(f, p!.enrollmentId)).toBe(true);
    const writer = await f.key('write', 'erase-writer');
    expect((await call(f, writer, 'DELETE', `/v1/prospects/${p!.prospectId}?reason=x`)).status).toBe(403);

    // Another person's reply named her as the one to write to, spelt with other capitals (a
    // referral keeps its writer's spelling): erasing her erases that triage item too.
    await f.db.pool.query(
      `INSERT INTO triage_item (id, event_id, source, kind, email, classification, why)
       VALUES (gen_random_uuid(), gen_random_uuid(), 'sandbox', 'referral', 'ZELDA.Quartermain@Erase.example', 'wrong_person', '[]')`,
    );
    const res = await call(f, admin, 'DELETE', `/v1/prospects/${p!.prospectId}?reason=GDPR art. 17 request`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ erased: true, enrollmentsEnded: 1 });
    expect((await call(f, admin, 'GET', `/v1/prospects/${p!.prospectId}`)).status).toBe(404);
    expect(await hasJob(f, p!.enrollmentId)).toBe(false);
    expect(await hasJob(f, kept!.enrollmentId)).toBe(true);

    const hash = addressHash(p!.email);
    const check = await call(f, admin, 'GET', `/v1/suppressions/check?email=${encodeURIComponent(p!.email)}`);
    expect(check.body.matches).toMatchObject([{ kind: 'hash', value: hash }]);
    const audit = (await call(f, admin, 'GET', `/v1/audit?entityType=prospect&entityId=sha256:${hash}`)).body
      .items;
    expect(audit).toMatchObject([
      {
        actor: 'privacy-officer',
        action: 'prospect.erasure_requested',
        data: { reason: 'GDPR art. 17 request' },
      },
    ]);

    const needles = [p!.email, 'zelda', 'quartermain', p!.prospectId, p!.enrollmentId];
    const db = await databaseHits(f, needles);
    expect(db.columns).toBeGreaterThan(20);
    // The erasure's own audit entry names the prospect id (a random uuid, no longer linked to
    // anything: the row it named is gone), as the erasure_request event's has always done.
    expect(db.hits).toEqual([
      {
        table: 'audit_log',
        column: 'entity_id',
        needle: p!.prospectId,
        value: p!.prospectId,
      },
    ]);
    const redis = await redisHits(f, needles);
    expect(redis.keys).toBeGreaterThan(0);
    expect(redis.hits).toEqual([]);
  });

  it('erases every identity of a merged person: both addresses, the LinkedIn URL, the phone, the names, and what the merge left behind', async () => {
    const at = await sequenceAndMailbox(f, admin, 'erase-merged');
    const other = await sequenceAndMailbox(f, admin, 'erase-merged-2');
    for (const s of [at, other]) {
      await call(f, admin, 'PATCH', `/v1/sequences/${s.sequenceId}/policies`, {
        contact: { exclusive: false },
      });
    }
    const [work, home] = await enrolled(f, admin, at, [
      { email: 'Octavia.Ferncastle@corp-erase.example', firstName: 'Octavia', lastName: 'Ferncastle' },
      { email: 'tavi.f@home-erase.example', firstName: 'Tavi' },
    ]);
    // The home record also has the LinkedIn URL and a phone, and a second sequence.
    await call(f, admin, 'POST', '/v1/prospects', {
      prospects: [
        {
          email: 'tavi.f@home-erase.example',
          linkedinUrl: 'https://uk.linkedin.com/in/Octavia-Ferncastle-77?trk=x',
          phone: '+44 20 7946 0321',
          consent: 'granted',
        },
      ],
    });
    await call(f, admin, 'POST', '/v1/enrollments', { ...other, prospectIds: [home!.prospectId] });
    const merged = await call(f, admin, 'POST', `/v1/prospects/${work!.prospectId}/merge`, {
      from: home!.prospectId,
      reason: 'one person',
    });
    expect(merged.status).toBe(200);
    expect(merged.body.leftBehind).toHaveLength(1);
    expect(merged.body.leftBehindOn).toEqual(expect.any(String));

    const res = await call(f, admin, 'DELETE', `/v1/prospects/${work!.prospectId}?reason=erase all of me`);
    expect(res.status).toBe(200);
    expect(res.body.enrollmentsEnded).toBe(2);
    for (const email of [work!.email, home!.email]) {
      const check = await call(f, admin, 'GET', `/v1/suppressions/check?email=${encodeURIComponent(email)}`);
      expect(check.body.matches).toMatchObject([{ kind: 'hash', value: addressHash(email) }]);
    }
    expect(await hasJob(f, work!.enrollmentId)).toBe(false);

    const needles = [
      'octavia',
      'ferncastle',
      'tavi',
      'home-erase.example',
      'corp-erase.example',
      '79460321',
      merged.body.leftBehindOn as string,
    ];
    const db = await databaseHits(f, needles);
    // Only the merge's own audit entry names the record it left behind (a random uuid,
    // gone with the person by cascade): no address, URL, phone or name anywhere.
    expect(db.hits).toEqual([
      expect.objectContaining({ table: 'audit_log', column: 'data', needle: merged.body.leftBehindOn }),
    ]);
    const left = await f.db.pool.query('SELECT 1 FROM prospect WHERE id = $1', [merged.body.leftBehindOn]);
    expect(left.rowCount).toBe(0);
    const redis = await redisHits(f, needles);
    expect(redis.hits).toEqual([]);
  });
});
