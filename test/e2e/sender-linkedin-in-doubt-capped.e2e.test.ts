import { createServer } from 'node:http';
import { touchKey } from '@touchbase/core';
import { linkedInCapsOf } from '@touchbase/db';
import { LinkedInThrottle, linkedInBucketId, MailboxThrottle } from '@touchbase/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { expectRecordedUnknownAtOnce } from './in-doubt-support.js';
import { createMailbox } from './ingest-support.js';

/**
 * A sender killed after it handed a LinkedIn invitation to Unipile leaves the touch
 * 'sending' (in doubt) and the account's token spent; the re-run job asks for a new
 * token as another throttle member. On an account whose day cap that dead grant used
 * up, the token is refused: the touch gets the decision its claim would make at once,
 * instead of waiting a day in doubt. Unipile takes no idempotency key and cannot say
 * what it did, so the touch is recorded unknown and never acted on again.
 */
describe('a LinkedIn action in doubt on an account whose day cap is used up (whole system)', () => {
  let sys: TestSystem;
  // The fake Unipile: every request it is sent. It answers none with success.
  const calls: string[] = [];
  const unipile = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' }).end('{}');
  });

  beforeAll(async () => {
    await new Promise<void>((r) => unipile.listen(0, '127.0.0.1', r));
    const port = (unipile.address() as { port: number }).port;
    sys = await startTestSystem(
      'sender_li_in_doubt_capped',
      { TIME_SCALE: '1', UNIPILE_URL: `http://127.0.0.1:${port}`, UNIPILE_API_KEY: 'unipile-test-key' },
      { pacingMs: 0 },
    );
  });
  afterAll(async () => {
    await sys?.stop();
    await new Promise<void>((r) => unipile.close(() => r()));
  });

  it('Unipile (no idempotency key): recorded unknown at once, not delayed a day, no second action, no second grant', async () => {
    const prefix = sys.env.REDIS_PREFIX as string;
    const throttle = new MailboxThrottle(sys.rt.redis.producer, { prefix, timeScale: 1 });
    const mailboxId = await createMailbox(sys);
    const pool = await sys.api('POST', '/v1/mailbox-pools', { name: 'li_doubt', mailboxIds: [mailboxId] });
    expect(pool.status).toBe(201);
    const acc = await sys.api('POST', '/v1/linkedin-accounts', {
      provider: 'unipile',
      providerAccountId: 'acc_li_doubt',
      name: 'SDR',
      windowDays: [],
      windowStart: '00:00',
      windowEnd: '23:59',
      invitationsPerDay: 1,
      invitationsPerWeek: 5,
      minSpacingMs: 0,
      poolIds: [pool.body.id],
    });
    expect(acc.status).toBe(201);
    const accountId = acc.body.id as string;
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'li in doubt',
      graph: {
        nodes: [
          { id: 'invite', action: 'linkedin_connect' },
          { id: 'end', action: 'end' },
        ],
        edges: [{ from: 'invite', to: 'end', trigger: 'always', wait: '1d' }],
      },
      mailboxPoolId: pool.body.id,
    });
    expect(seq.status).toBe(201);
    const email = 'ines@li-doubt.example';
    const p = await sys.api('POST', '/v1/prospects', {
      prospects: [{ email, linkedinUrl: 'https://www.linkedin.com/in/ines-li-doubt/' }],
    });
    expect(p.status).toBe(200);

    // What the dead sender left: the enrollment on the account, the touch claimed
    // ('sending'), the day's only invitation granted to its member. No job yet.
    const { enrolled } = await sys.rt.repos.enrollments.enroll({
      sequenceId: seq.body.id,
      sequenceVersionId: seq.body.version.id,
      mailboxId,
      prospectIds: [p.body.prospects[0].id],
      firstTouchAt: () => new Date(),
    });
    const enrollmentId = enrolled[0]!.id;
    const key = touchKey(enrollmentId, 1);
    expect(await sys.rt.repos.linkedinAccounts.assignToEnrollment(enrollmentId, accountId)).toBe(accountId);
    expect((await sys.rt.repos.touches.claim(enrollmentId, 1, key, email)).kind).toBe('claimed');
    const row = await sys.rt.repos.linkedinAccounts.get(accountId);
    const account = { id: row.id, caps: linkedInCapsOf(row) };
    expect((await new LinkedInThrottle(throttle).take(account, 'invitation', `${key}.dead`)).granted).toBe(
      true,
    );
    await sys.rt.touchQueue.schedule([{ enrollmentId, step: 1, dueAt: new Date() }]);

    // Recorded unknown and on to the end node, a day away, as after the claim's own decision.
    await expectRecordedUnknownAtOnce(sys, enrollmentId);
    expect(calls).toEqual([]);
    expect(await throttle.grants(linkedInBucketId(accountId, 'invitation'))).toHaveLength(1);
  }, 30_000);
});
