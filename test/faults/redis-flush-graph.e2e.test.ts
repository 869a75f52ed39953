import { waitFor } from '@touchbase/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailbox, enroll, importProspects } from '../e2e/ingest-support.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/** Deletes every key of the prefix at one instant (see redis-flush.e2e.test.ts); never FLUSHALL: the Redis is shared. */
const FLUSH_PREFIX = `
local keys = redis.call('KEYS', ARGV[1] .. ':*')
for i = 1, #keys, 1000 do redis.call('DEL', unpack(keys, i, math.min(i + 999, #keys))) end
return #keys`;

/** Two channels: connect; accepted → message on LinkedIn; not accepted within 7 days → e-mail. */
const GRAPH = {
  nodes: [
    { id: 'connect', action: 'linkedin_connect' },
    { id: 'dm', action: 'linkedin_message', body: 'Thanks for connecting' },
    { id: 'mail', action: 'email', subject: 'Hello', body: 'By e-mail' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'connect', to: 'dm', trigger: 'connection_accepted' },
    { from: 'connect', to: 'mail', trigger: 'not_accepted', wait: '7d' },
    { from: 'dm', to: 'end', trigger: 'no_reply', wait: '3d' },
    { from: 'mail', to: 'end', trigger: 'no_reply', wait: '3d' },
  ],
};

/**
 * Invariant 3 on a branching, two-channel sequence: Redis loses every key (the
 * schedule, the LinkedIn and mailbox buckets) while enrollments wait on both
 * branches; the reconciler rebuilds the jobs from PostgreSQL (the node each
 * enrollment sits at), the buckets are re-seeded from the touches recorded. Every
 * enrollment still takes exactly one branch, no action or e-mail goes out twice.
 */
describe('Redis loses its data while a branching sequence runs', () => {
  let sys: TestSystem;
  let redis: Redis;
  beforeAll(async () => {
    sys = await startTestSystem('redisflush_graph', {
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
      SANDBOX_LINKEDIN_ACCEPT_RATE: '0.5',
      // 6 hours of a member's life: about 75 ms here.
      SANDBOX_LINKEDIN_ACCEPT_DELAY_MS: '21600000',
      SANDBOX_LINKEDIN_REPLY_RATE: '0',
    });
    redis = new Redis(sys.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await sys?.stop();
  });

  it('every enrollment takes one branch and ends; nothing twice', async () => {
    const N = 60;
    const mailboxId = await createMailbox(sys);
    const pool = await sys.api('POST', '/v1/mailbox-pools', { name: 'two-channel', mailboxIds: [mailboxId] });
    const account = await sys.api('POST', '/v1/linkedin-accounts', {
      provider: 'sandbox',
      providerAccountId: 'acc_flush',
      name: 'SDR',
      windowDays: [],
      invitationsPerDay: 200,
      invitationsPerWeek: 1_000,
      messagesPerDay: 500,
      perHour: 500,
      minSpacingMs: 0,
      poolIds: [pool.body.id],
    });
    expect(account.status).toBe(201);
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'flush',
      graph: GRAPH,
      mailboxPoolId: pool.body.id,
    });
    expect(seq.status).toBe(201);
    const people = Array.from({ length: N }, (_, i) => ({
      email: `branch-${i}@flush.example`,
      linkedinUrl: `https://www.linkedin.com/in/branch-member-${i}/`,
    }));
    const ids = await importProspects(sys, people);
    const enrolled = await enroll(sys, seq.body.id, mailboxId, ids);
    expect(enrolled).toHaveLength(N);
    const ours = new Set(enrolled.map((e) => e.id));

    // Flush once every invitation is out: enrollments wait for acceptances, messages and e-mails.
    await waitFor('every invitation', () => sys.sandbox.linkedin.actions().length >= N, {
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    const deleted = (await redis.eval(FLUSH_PREFIX, 0, sys.env.REDIS_PREFIX!)) as number;

    const statuses = await waitFor(
      'every enrollment exhausted',
      async () => {
        const { rows } = await sys.rt.db.pool.query<{ status: string; n: number }>(
          'SELECT status::text, count(*)::int AS n FROM enrollment WHERE sequence_id = $1 GROUP BY status',
          [seq.body.id],
        );
        return rows.length === 1 && rows[0]!.status === 'exhausted' && rows[0]!.n === N ? rows : null;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(statuses).toEqual([{ status: 'exhausted', n: N }]);

    const actions = sys.sandbox.linkedin.actions();
    const mails = sys.sandbox.deliveries().filter((d) => ours.has(d.enrollmentId));
    const actionKeys = actions.map((a) => a.idempotencyKey);
    expect(new Set(actionKeys).size).toBe(actionKeys.length);
    expect(new Set(mails.map((m) => m.idempotencyKey)).size).toBe(mails.length);
    const { rows: touches } = await sys.rt.db.pool.query<{ eid: string; step: number; status: string }>(
      `SELECT t.enrollment_id AS eid, t.step, t.status::text FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE e.sequence_id = $1`,
      [seq.body.id],
    );
    const branches = new Map<string, number[]>();
    for (const t of touches) branches.set(t.eid, [...(branches.get(t.eid) ?? []), t.step].sort());
    // Each enrollment: the invitation, then the message (accepted) or the e-mail, never both.
    for (const id of ours)
      expect([
        [1, 2],
        [1, 3],
      ]).toContainEqual(branches.get(id));
    const dm = [...branches.values()].filter((b) => b[1] === 2).length;
    expect(actions.filter((a) => a.kind === 'invitation')).toHaveLength(N);
    expect(actions.filter((a) => a.kind === 'message')).toHaveLength(dm);
    expect(mails).toHaveLength(N - dm);
    console.log(
      JSON.stringify({ test: 'redis-flush-graph', keysDeleted: deleted, messaged: dm, mailed: N - dm }),
    );
  }, 120_000);
});
