import { touchKey } from '@touchbase/core';
import { linkedInCapsOf } from '@touchbase/db';
import { LinkedInThrottle, linkedInBucketId, MailboxThrottle } from '@touchbase/providers';
import { createRedis } from '@touchbase/queues';
import { buildSender } from '@touchbase/sender';
import { waitFor } from '@touchbase/testing';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createMailbox, enroll } from './ingest-support.js';

/**
 * A LinkedIn touch the account's bucket refuses comes back after the wait, in the
 * recipient's window with the country's do-not-contact hours on top, exactly as an
 * e-mail does; when that pushes it past the slot the bucket gave it, the slot is
 * given up instead of standing empty against the caps. The sender's clock is set
 * to a Saturday noon in Berlin; the account's one invitation a day is taken, so the
 * bucket answers "in about 24 hours": a Sunday, which Germany forbids here.
 */
describe('a LinkedIn touch back from a throttle wait (real PostgreSQL and Redis)', () => {
  let sys: TestSystem;
  let sender: Worker | undefined;
  let workerRedis: Redis;
  const SATURDAY_NOON_BERLIN = new Date('2026-11-28T11:00:00Z');
  const MONDAY_MIDNIGHT_BERLIN = Date.parse('2026-11-29T23:00:00Z');

  /** One sender for the file, its clock on Saturday noon in Berlin, Germany's Sundays off limits. */
  const startSender = (throttle: MailboxThrottle) => {
    sender ??= buildSender({
      repos: sys.rt.repos,
      touchQueue: sys.rt.touchQueue,
      providers: sys.rt.providers,
      connection: workerRedis,
      prefix: sys.env.REDIS_PREFIX as string,
      logger: sys.rt.logger,
      metrics: sys.rt.metrics,
      concurrency: 2,
      timeScale: 1,
      clock: () => SATURDAY_NOON_BERLIN,
      throttle,
      linkedInSenders: sys.rt.linkedInSenders,
      doNotContact: { DE: { days: [7], dates: [] } },
    });
  };

  /**
   * A pool with a fresh always-open mailbox and one LinkedIn account (`account`'s fields),
   * and a one-action sequence on it (`action`, then the end a day later).
   */
  const linkedInCampaign = async (
    name: string,
    action: 'linkedin_connect' | 'linkedin_visit',
    account: Record<string, unknown>,
  ) => {
    const mailboxId = await createMailbox(sys);
    const pool = await sys.api('POST', '/v1/mailbox-pools', { name, mailboxIds: [mailboxId] });
    expect(pool.status).toBe(201);
    const acc = await sys.api('POST', '/v1/linkedin-accounts', {
      provider: 'sandbox',
      providerAccountId: `acc_${name}`,
      minSpacingMs: 0,
      poolIds: [pool.body.id],
      ...account,
    });
    expect(acc.status).toBe(201);
    const seq = await sys.api('POST', '/v1/sequences', {
      name,
      graph: {
        nodes: [
          { id: 'act', action },
          { id: 'end', action: 'end' },
        ],
        edges: [{ from: 'act', to: 'end', trigger: 'always', wait: '1d' }],
      },
      mailboxPoolId: pool.body.id,
    });
    expect(seq.status).toBe(201);
    return { mailboxId, accountId: acc.body.id as string, sequenceId: seq.body.id as string };
  };

  beforeAll(async () => {
    sys = await startTestSystem(
      'sender_li_throttle',
      { TIME_SCALE: '1' },
      { withoutSender: true, pacingMs: 0 },
    );
    workerRedis = createRedis(sys.env.REDIS_URL as string, 'worker');
  });
  afterAll(async () => {
    await sender?.close();
    await workerRedis?.quit();
    await sys?.stop();
  });

  it('waits out the do-not-contact Sunday and gives up the slot it did not use', async () => {
    const prefix = sys.env.REDIS_PREFIX as string;
    const throttle = new MailboxThrottle(sys.rt.redis.producer, { prefix });
    const { mailboxId, accountId, sequenceId } = await linkedInCampaign('li_dnc', 'linkedin_connect', {
      name: 'SDR',
      windowDays: [],
      invitationsPerDay: 1,
      invitationsPerWeek: 5,
    });
    // Today's one invitation is gone already.
    const row = await sys.rt.repos.linkedinAccounts.get(accountId);
    const first = await new LinkedInThrottle(throttle).take(
      { id: row.id, caps: linkedInCapsOf(row) },
      'invitation',
      'an-earlier-invitation',
    );
    expect(first.granted).toBe(true);

    const p = await sys.api('POST', '/v1/prospects', {
      prospects: [
        {
          email: 'lena@li-dnc.example',
          firstName: 'Lena',
          timezone: 'Europe/Berlin',
          linkedinUrl: 'https://www.linkedin.com/in/lena-li-dnc/',
          attributes: { country: 'DE' },
        },
      ],
    });
    expect(p.status).toBe(200);
    const [enrolled] = await enroll(sys, sequenceId, mailboxId, [p.body.prospects[0].id]);
    const key = touchKey(enrolled!.id, 1);

    startSender(throttle);

    const due = await waitFor('the refused touch to wait', async () => {
      const at = await sys.rt.touchQueue.delayedUntil(key);
      return at !== null && at > Date.now() + 3_600_000 ? at : null;
    });
    // Not Sunday noon (the wait alone, what the LinkedIn path used to give) but the first
    // minute Germany allows: Monday 00:00 in Berlin.
    expect(due).toBe(MONDAY_MIDNIGHT_BERLIN);
    // The slot the bucket held for it (about Sunday noon) is free for another touch.
    const log = await sys.rt.redis.producer.zrange(
      `${prefix}:throttle:{${linkedInBucketId(row.id, 'invitation')}}`,
      0,
      -1,
    );
    expect(log.filter((m) => m.startsWith('h:'))).toEqual([]);
    expect(log).toEqual(['g:an-earlier-invitation']);
    expect(sys.sandbox.linkedin.actions()).toEqual([]);
  }, 30_000);

  /**
   * The mailbox sends at any hour; the LinkedIn account only on Mondays 09:00-10:00 in
   * Tokyo, and the prospect has no zone, so the account's zone is theirs (core's
   * `timingSourceFor`). On Saturday noon in Berlin the visit waits for the account's
   * window (Monday 09:00 in Tokyo, Monday 00:00Z) instead of going out at once by the
   * mailbox's.
   */
  it("waits for the LinkedIn account's window and zone, not the mailbox's", async () => {
    const prefix = sys.env.REDIS_PREFIX as string;
    const { mailboxId, sequenceId } = await linkedInCampaign('li_window', 'linkedin_visit', {
      name: 'SDR Tokyo',
      windowDays: [1],
      windowStart: '09:00',
      windowEnd: '10:00',
      timezone: 'Asia/Tokyo',
    });
    const p = await sys.api('POST', '/v1/prospects', {
      prospects: [
        { email: 'kai@li-window.example', linkedinUrl: 'https://www.linkedin.com/in/kai-li-window/' },
      ],
    });
    expect(p.status).toBe(200);
    const [enrolled] = await enroll(sys, sequenceId, mailboxId, [p.body.prospects[0].id]);
    const key = touchKey(enrolled!.id, 1);
    startSender(new MailboxThrottle(sys.rt.redis.producer, { prefix }));

    const due = await waitFor('the visit to wait for its window', async () => {
      const at = await sys.rt.touchQueue.delayedUntil(key);
      return at !== null && at > Date.now() + 3_600_000 ? at : null;
    });
    expect(new Date(due).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(sys.sandbox.linkedin.actions()).toEqual([]);
  }, 30_000);
});
