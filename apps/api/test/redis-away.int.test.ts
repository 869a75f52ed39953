import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const TOKEN = 'redis-away-admin-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };

/**
 * Redis goes away under the API (its producer connection closes). A route that
 * needs Redis before anything is done answers 503 problem+json with Retry-After; an
 * enrollment, committed in PostgreSQL first, is kept (201) and its first touch is
 * left to the reconciler; reads of PostgreSQL go on. Never a 500.
 */
describe('Redis away', () => {
  let f: ApiFixture;
  let ids: { sequenceId: string; mailboxId: string; prospectId: string };
  beforeAll(async () => {
    f = await apiFixture('redis_away', { adminToken: TOKEN });
    const post = async (url: string, payload: unknown) =>
      (await f.app.inject({ method: 'POST', url, headers, payload: payload as object })).json();
    const mailbox = await post('/v1/mailboxes', { provider: 'sandbox', address: 'sdr@away.example' });
    const sequence = await post('/v1/sequences', { name: 's', steps: [{ subject: 'Hi', body: 'Hello' }] });
    const prospects = await post('/v1/prospects', { prospects: [{ email: 'p@away.example' }] });
    ids = { sequenceId: sequence.id, mailboxId: mailbox.id, prospectId: prospects.prospects[0].id };
    f.redis.disconnect();
  });
  afterAll(async () => {
    await f?.close();
  });

  it('a route that needs Redis first answers 503 problem+json with Retry-After', async () => {
    const res = await f.app.inject({ method: 'POST', url: '/v1/domains/health/run?wait=0', headers });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toMatchObject({ status: 503, code: 'redis_unavailable' });
  });

  it('an enrollment is kept (PostgreSQL first) and answered 201; reads go on', async () => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/v1/enrollments',
      headers,
      payload: { sequenceId: ids.sequenceId, mailboxId: ids.mailboxId, prospectIds: [ids.prospectId] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().enrolled).toHaveLength(1);
    const list = await f.app.inject({ method: 'GET', url: '/v1/enrollments', headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toHaveLength(1);
  });
});
