import { DEFAULT_LINKEDIN_CAPS } from '@touchbase/core';
import { linkedInCapsOf } from '@touchbase/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const TOKEN = 'linkedin-admin-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}` };

describe('/v1/linkedin-accounts', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await apiFixture('linkedin_accounts', { adminToken: TOKEN });
  });
  afterAll(async () => {
    await f?.close();
  });

  const post = async (payload: object, h: Record<string, string> = headers) => {
    const res = await f.app.inject({ method: 'POST', url: '/v1/linkedin-accounts', headers: h, payload });
    return { status: res.statusCode, body: res.json() };
  };

  it('creates an account with caps defaulted near LinkedIn safe limits and its URL normalised', async () => {
    const r = await post({
      provider: 'unipile',
      providerAccountId: 'acc_grace',
      name: 'Grace (SDR)',
      profileUrl: 'https://fr.linkedin.com/in/Grace-Hopper?trk=x',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      provider: 'unipile',
      providerAccountId: 'acc_grace',
      profileUrl: 'https://www.linkedin.com/in/grace-hopper/',
      status: 'active',
      windowDays: [1, 2, 3, 4, 5],
      pools: [],
    });
    expect(linkedInCapsOf(r.body)).toEqual(DEFAULT_LINKEDIN_CAPS);
    const one = await f.app.inject({ method: 'GET', url: `/v1/linkedin-accounts/${r.body.id}`, headers });
    expect(one.json().id).toBe(r.body.id);
  });

  it('joins the pools given, beside their mailboxes; lists a page at a time', async () => {
    const mailbox = await f.app.inject({
      method: 'POST',
      url: '/v1/mailboxes',
      headers,
      payload: { provider: 'sandbox', address: 'sdr@li-pool.example' },
    });
    const pool = await f.app.inject({
      method: 'POST',
      url: '/v1/mailbox-pools',
      headers,
      payload: { name: 'two-channel', mailboxIds: [mailbox.json().id] },
    });
    expect(pool.statusCode).toBe(201);
    const r = await post({
      provider: 'sandbox',
      providerAccountId: 'acc_pool',
      name: 'Pool SDR',
      invitationsPerDay: 10,
      invitationsPerWeek: 50,
      poolIds: [pool.json().id],
    });
    expect(r.status).toBe(201);
    expect(r.body.pools).toEqual([{ poolId: pool.json().id }]);
    expect(await f.repos.linkedinAccounts.activeInPool(pool.json().id)).toHaveLength(1);
    const list = await f.app.inject({ method: 'GET', url: '/v1/linkedin-accounts?limit=1', headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toHaveLength(1);
    expect(list.json().next).toBeTruthy();
  });

  it('refuses bad input naming the field, a second row for one provider account, an unknown pool', async () => {
    const bad = await post({ provider: 'linkedin-magic', providerAccountId: 'a', name: 'x' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.errors)).toContain('provider');
    const url = await post({
      provider: 'sandbox',
      providerAccountId: 'b',
      name: 'x',
      profileUrl: 'https://x.io/in/a',
    });
    expect(url.status).toBe(400);
    expect(JSON.stringify(url.body.errors)).toContain('profileUrl');
    const caps = await post({
      provider: 'sandbox',
      providerAccountId: 'c',
      name: 'x',
      invitationsPerDay: 5000,
    });
    expect(caps.status).toBe(400);
    expect(JSON.stringify(caps.body.errors)).toContain('invitationsPerDay');
    const week = await post({
      provider: 'sandbox',
      providerAccountId: 'd',
      name: 'x',
      invitationsPerDay: 30,
      invitationsPerWeek: 20,
    });
    expect(week.status).toBe(400);
    const twice = await post({ provider: 'unipile', providerAccountId: 'acc_grace', name: 'again' });
    expect(twice.status).toBe(409);
    const pool = await post({
      provider: 'sandbox',
      providerAccountId: 'e',
      name: 'x',
      poolIds: ['0b9f1c1e-6a3e-4b8e-9a57-2f0f3d1f6a11'],
    });
    expect(pool.status).toBe(404);
    // Nothing half-written: the refused account is not there.
    const list = await f.app.inject({ method: 'GET', url: '/v1/linkedin-accounts?limit=100', headers });
    expect(
      list
        .json()
        .items.map((a: { providerAccountId: string }) => a.providerAccountId)
        .sort(),
    ).toEqual(['acc_grace', 'acc_pool']);
  });

  it('a read key lists but cannot create; no key is refused', async () => {
    const read = await f.key('read');
    const h = { authorization: `Bearer ${read}` };
    expect((await f.app.inject({ method: 'GET', url: '/v1/linkedin-accounts', headers: h })).statusCode).toBe(
      200,
    );
    expect((await post({ provider: 'sandbox', providerAccountId: 'f', name: 'x' }, h)).status).toBe(403);
    expect((await post({ provider: 'sandbox', providerAccountId: 'g', name: 'x' }, {})).status).toBe(401);
  });
});
