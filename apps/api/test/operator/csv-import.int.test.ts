import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../support/api-fixture.js';

describe('streamed CSV import: good rows kept, bad rows reported (real PostgreSQL)', () => {
  let f: ApiFixture;
  let key: string;

  beforeAll(async () => {
    f = await apiFixture('csv-import');
    key = await f.key('write', 'csv-writer');
  });
  afterAll(async () => {
    await f?.close();
  });

  const post = async (payload: string | Readable) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/v1/prospects/import',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('reports a row with the wrong number of fields by line, and imports the rest', async () => {
    const res = await post('email,company\na@rows.example,A\nb@rows.example,B,extra\nc@rows.example,C\n');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 2, rejected: 1 });
    expect(res.body.errors).toEqual([{ line: 3, field: 'row', reason: expect.stringMatching(/length/i) }]);
  });

  it('streams thousands of rows across batches; an address twice is reported on its second line, never a 500', async () => {
    const n = 2_500;
    const lines = ['Email,First Name'];
    for (let i = 0; i < n; i++) lines.push(`p${i}@stream.example,P${i}`);
    // The same address again, in other case: that row is reported, the first one kept.
    lines.push('P7@Stream.example,Seven');
    const res = await post(Readable.from([`${lines.join('\n')}\n`]));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      imported: n,
      rejected: 1,
      errors: [{ line: n + 2, field: 'email', reason: 'repeats the address of line 9' }],
    });
    const { rows } = await f.db.pool.query(
      `SELECT count(*)::int AS n, max(first_name) FILTER (WHERE email = 'p7@stream.example') AS seven
       FROM prospect WHERE email LIKE '%@stream.example'`,
    );
    expect(rows[0]).toEqual({ n, seven: 'P7' });
  });

  it('an unclosed quote after good rows: 400 malformed_csv saying how many were imported before it', async () => {
    const res = await post('email,company\nok1@quote.example,A\nok2@quote.example,"B\n');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'malformed_csv' });
    expect(res.body.detail).toMatch(/1 row\(s\) before it were imported/);
  });

  it('an empty body or a header alone is 400 naming the body', async () => {
    for (const payload of ['', 'email,company\n']) {
      const res = await post(payload);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'body', message: 'no rows' }]);
    }
  });
});
