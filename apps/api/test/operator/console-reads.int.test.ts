import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from '../support/api-fixture.js';
import { call, enrolled, sequenceAndMailbox } from './operator-fixture.js';

// The public reads the console needed and the API lacked: a prospect search and each mailbox's cap usage.
describe('prospect search and mailbox cap usage (real PostgreSQL)', () => {
  let f: ApiFixture;
  let reader: string;
  let writer: string;

  beforeAll(async () => {
    f = await apiFixture('console-reads');
    reader = await f.key('read', 'console-reader');
    writer = await f.key('write', 'console-writer');
    await call(f, writer, 'POST', '/v1/prospects', {
      prospects: [
        {
          email: 'ada.lovelace@analytical.example',
          firstName: 'Ada',
          lastName: 'Lovelace',
          company: 'Engines',
        },
        { email: 'grace@navy.example', firstName: 'Grace', lastName: 'Hopper', company: 'US Navy' },
        { email: 'percent@odd.example', firstName: '100%', company: 'Under_score' },
      ],
    });
  });
  afterAll(async () => {
    await f?.close();
  });

  const search = async (q: string) =>
    (
      (await call(f, reader, 'GET', `/v1/prospects?q=${encodeURIComponent(q)}`)).body.items as {
        email: string;
      }[]
    )
      .map((p) => p.email)
      .sort();

  it('finds by part of an address, a name, both names in either order, or a company, in any case', async () => {
    expect(await search('LOVELACE@')).toEqual(['ada.lovelace@analytical.example']);
    expect(await search('grace')).toEqual(['grace@navy.example']);
    expect(await search('Grace Hopper')).toEqual(['grace@navy.example']);
    expect(await search('hopper grace')).toEqual(['grace@navy.example']);
    expect(await search('navy')).toEqual(['grace@navy.example']);
    expect(await search('nobody')).toEqual([]);
  });

  it("takes LIKE's wildcards literally, and refuses a query of one character naming the field", async () => {
    expect(await search('%%')).toEqual([]);
    expect(await search('0%')).toEqual(['percent@odd.example']);
    expect(await search('r_s')).toEqual(['percent@odd.example']);
    expect(await search('__')).toEqual([]);
    const short = await call(f, reader, 'GET', '/v1/prospects?q=a');
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain('querystring.q');
  });

  it('pages a search by id', async () => {
    const first = await call(f, reader, 'GET', '/v1/prospects?q=example&limit=2');
    expect(first.body.items).toHaveLength(2);
    const rest = await call(f, reader, 'GET', `/v1/prospects?q=example&limit=2&after=${first.body.next}`);
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.next).toBeNull();
  });

  it("counts each mailbox's sends in its minute, hour and day windows against its caps, with why it is paused", async () => {
    const at = await sequenceAndMailbox(f, writer, 'usage');
    const [one, two] = await enrolled(f, writer, at, [
      { email: 'u1@usage.example' },
      { email: 'u2@usage.example' },
    ]);
    // Two sends as the sender records them: one a minute ago, one two hours ago; a failed one is not a send.
    await f.db.pool.query(
      `INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, created_at, sent_at)
       VALUES (gen_random_uuid(), $1, 1, 1, 'sent', 'k-1', now() - interval '30 seconds', now() - interval '30 seconds'),
              (gen_random_uuid(), $2, 1, 1, 'sent', 'k-2', now() - interval '2 hours', now() - interval '2 hours'),
              (gen_random_uuid(), $2, 2, 1, 'failed', 'k-3', now(), null)`,
      [one!.enrollmentId, two!.enrollmentId],
    );
    await call(f, writer, 'POST', `/v1/mailboxes/${at.mailboxId}/pause`, { reason: 'DMARC failing' });
    const usage = await call(f, reader, 'GET', '/v1/mailboxes/usage');
    expect(usage.status).toBe(200);
    const row = (usage.body.items as { id: string; sentToday: number }[]).find((m) => m.id === at.mailboxId)!;
    expect(row).toMatchObject({
      address: 'sdr@usage.example',
      domain: 'usage.example',
      status: 'paused',
      statusReason: 'operator: DMARC failing',
      caps: { perMinute: 5, perHour: 60, perDay: 300 },
      used: { minute: 1, hour: 1, day: 2 },
    });
    // Today: since midnight in the mailbox's zone (UTC here); the send two hours ago counts when it was today.
    const midnight = new Date(new Date().toISOString().slice(0, 10)).getTime();
    expect(row.sentToday).toBe(Date.now() - 2 * 3_600_000 >= midnight ? 2 : 1);
    expect((await call(f, reader, 'GET', '/v1/mailboxes/usage?after=nope')).status).toBe(400);
  });
});
