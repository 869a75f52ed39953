import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const TOKEN = 'hostile-admin-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };

/**
 * The kinds of hostile input an independent fuzz run found answered with 500, each
 * now a 400 naming the field: cursors of the wrong shape, NUL and lone surrogates in
 * text, the same address twice in one request or one CSV file.
 */
describe('hostile input gets a 400 naming the field, never a 500', () => {
  let f: ApiFixture;
  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, type?: string) =>
    f.app.inject({
      method,
      url,
      headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
      ...(payload !== undefined ? { payload: payload as string } : {}),
    });
  const expectRefused = (res: Awaited<ReturnType<typeof inject>>, field: string | RegExp) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const fields = (res.json().errors as { field: string }[]).map((e) => e.field);
    expect(
      fields.some((x) => (typeof field === 'string' ? x === field : field.test(x))),
      fields.join(),
    ).toBe(true);
  };

  // The CSV import keeps the good rows and reports each bad one by line and field.
  const expectRowReported = (res: Awaited<ReturnType<typeof inject>>, line: number, field: string) => {
    expect(res.statusCode, res.body).toBe(200);
    const errors = res.json().errors as { line: number; field: string }[];
    expect(
      errors.some((e) => e.line === line && e.field === field),
      JSON.stringify(errors),
    ).toBe(true);
  };

  beforeAll(async () => {
    f = await apiFixture('hostile_input', { adminToken: TOKEN });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('a paging cursor of the wrong shape, on every list', async () => {
    for (const url of [
      '/v1/sequences',
      '/v1/prospects',
      '/v1/enrollments',
      '/v1/suppressions',
      '/v1/triage',
      '/v1/events',
      '/v1/audit',
      '/v1/alerts',
    ]) {
      for (const after of ['not-a-cursor', '%00', '99999999999999999999999', '1e5', '-1']) {
        const res = await inject('GET', `${url}?after=${after}`);
        expectRefused(res, 'querystring.after');
      }
    }
    expectRefused(await inject('GET', '/v1/domains?after=%00'), 'querystring.after');
    // The shapes each list gives back still work.
    expect((await inject('GET', '/v1/events?after=0')).statusCode).toBe(200);
    expect((await inject('GET', '/v1/audit?after=12')).statusCode).toBe(200);
    expect((await inject('GET', '/v1/domains?after=example.com')).statusCode).toBe(200);
    expect((await inject('GET', `/v1/sequences?after=${crypto.randomUUID()}`)).statusCode).toBe(200);
    expect(
      (await inject('GET', `/v1/alerts?after=2026-01-01T00:00:00.000Z|${crypto.randomUUID()}`)).statusCode,
    ).toBe(200);
  });

  it('NUL and lone surrogates in text fields, bodies and query filters', async () => {
    for (const bad of ['a\u0000b', 'a\ud800b', '\udc00']) {
      expectRefused(
        await inject('POST', '/v1/prospects', { prospects: [{ email: 'a@b.example', firstName: bad }] }),
        'body.prospects.0.firstName',
      );
      expectRefused(
        await inject('POST', '/v1/prospects', {
          prospects: [{ email: 'a@b.example', attributes: { x: bad } }],
        }),
        'body.prospects.0.attributes.x',
      );
      expectRefused(
        await inject('POST', '/v1/sequences', { name: bad, steps: [{ subject: 's', body: 'b' }] }),
        'body.name',
      );
      expectRefused(
        await inject('POST', '/v1/sequences', { name: 'n', steps: [{ subject: 's', body: `hi ${bad}` }] }),
        'body.steps.0.body',
      );
      expectRefused(await inject('POST', '/v1/suppressions', { kind: 'email', value: bad }), 'body.value');
      expectRefused(
        await inject('POST', '/v1/mailboxes', {
          provider: 'sandbox',
          address: 'm@b.example',
          providerConfig: { campaignId: bad },
        }),
        'body.providerConfig.campaignId',
      );
      expectRefused(
        await inject('POST', `/v1/enrollments/${crypto.randomUUID()}/cancel`, { reason: bad }),
        'body.reason',
      );
    }
    expectRefused(await inject('GET', '/v1/events?type=a%00b'), 'querystring.type');
    expectRefused(await inject('GET', '/v1/audit?entityId=%00'), 'querystring.entityId');
    // The UTF-8 bytes of a lone surrogate (CESU-8) and a cut sequence decode to U+FFFD.
    for (const bad of ['%ED%A0%80', '%F0%9F']) {
      expect((await inject('GET', `/v1/events?type=${bad}`)).statusCode).toBeLessThan(500);
      expect((await inject('GET', `/v1/audit?entityId=${bad}`)).statusCode).toBeLessThan(500);
    }
    const csv = 'email,first_name\nok@b.example,A\u0000B\n';
    expectRefused(await inject('POST', '/v1/prospects/import', csv, 'text/csv'), 'row 2.firstName');
  });

  it('the same address twice in one request, or in one CSV file, names the repeat', async () => {
    expectRefused(
      await inject('POST', '/v1/prospects', {
        prospects: [{ email: 'twice@b.example' }, { email: 'other@b.example' }, { email: 'Twice@B.example' }],
      }),
      'body.prospects.2.email',
    );
    const csv = 'email\ntwice@b.example\nTWICE@b.example\n';
    expectRowReported(await inject('POST', '/v1/prospects/import', csv, 'text/csv'), 3, 'email');
    const id = crypto.randomUUID();
    expectRefused(
      await inject('POST', '/v1/enrollments', {
        sequenceId: id,
        mailboxId: id,
        prospectIds: [id, id.toUpperCase()],
      }),
      'body.prospectIds.1',
    );
    expectRefused(
      await inject('POST', '/v1/mailbox-pools', { name: 'p', mailboxIds: [id, id] }),
      'body.mailboxIds.1',
    );
    // Only the CSV's first row is kept (a streamed import keeps the good rows); the
    // refused requests wrote nothing.
    const { rows } = await f.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM prospect WHERE email <> 'twice@b.example'`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
