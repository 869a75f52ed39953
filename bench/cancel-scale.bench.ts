import { randomUUID } from 'node:crypto';
import { standardWebhookHeaders } from '@touchbase/providers';
import { JOBS, touchJobId } from '@touchbase/queues';
import { Redis } from 'ioredis';
import { hasRedisServer, startPrivateRedis } from '../test/support/private-redis.js';
import { seed, startTestSystem, type TestSystem } from '../test/support/test-system.js';
import { check, finishBench, round, summarize } from './lib/index.js';

/**
 * Scale of cancel: the reply-to-cancel time (a signed reply webhook sent → its
 * enrollment's pending job removed and the enrollment ended) with 1,000,000
 * pending jobs in the touches queue against 10,000. Target: p99 at most 1.5 times.
 *
 * The measured enrollments are real (rows, first job through the API); the rest of
 * the pending jobs are background jobs added straight with addBulk, far in the
 * future, of the same name and options as real ones. 1M jobs take ~1 GB of Redis,
 * so the bench runs on a redis-server of its own (default settings) when one is
 * on PATH (BENCH_CANCEL_REDIS=shared uses REDIS_URL), and drops it afterwards.
 *
 * Sizes: BENCH_CANCEL_SMALL (10000), BENCH_CANCEL_LARGE (1000000), BENCH_CANCEL_REPLIES
 * (replies measured at each size, 1000), BENCH_CANCEL_IN_FLIGHT (pairs at once, 2).
 */
const SMALL = Number(process.env.BENCH_CANCEL_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_CANCEL_LARGE ?? 1_000_000);
const REPLIES = Number(process.env.BENCH_CANCEL_REPLIES ?? 1_000);
const IN_FLIGHT = Number(process.env.BENCH_CANCEL_IN_FLIGHT ?? 2);
const ADD_CHUNK = 5_000;

/** Adds background pending jobs until the queue holds `total`. */
async function fillTo(sys: TestSystem, total: number): Promise<number> {
  const queue = sys.rt.touchQueue.queue;
  const started = performance.now();
  let pending = await queue.getDelayedCount();
  const spec = JOBS['touch.send'];
  while (pending < total) {
    const n = Math.min(ADD_CHUNK, total - pending);
    await queue.addBulk(
      Array.from({ length: n }, (_, i) => {
        const e = randomUUID();
        return {
          name: 'touch.send' as const,
          data: { e, s: 1 },
          opts: { ...spec.options, jobId: touchJobId(`${e}-1`), delay: 30 * 86_400_000 + i },
        };
      }),
    );
    pending += n;
  }
  return (performance.now() - started) / 1000;
}

/** Enrolls `n` real prospects (rows and a first job each) and returns their enrollments. */
async function enrollReal(sys: TestSystem, tag: string, n: number) {
  const emails = Array.from({ length: n }, (_, i) => `${tag}${i}@cancel.example`);
  const ids = await seed(sys, { steps: 3, prospects: emails, wait: '3d' });
  const res = await sys.api('POST', '/v1/enrollments', {
    sequenceId: ids.sequenceId,
    mailboxId: ids.mailboxId,
    prospectIds: ids.prospectIds,
  });
  if (res.status !== 201) throw new Error(`enroll: ${res.status}`);
  const emailOf = new Map(ids.prospectIds.map((id, i) => [id, emails[i]!]));
  return (res.body.enrolled as { id: string; prospectId: string }[]).map((e) => ({
    id: e.id,
    email: emailOf.get(e.prospectId)!,
  }));
}

type Target = { sys: TestSystem; enrollment: { id: string; email: string } };

/** One reply webhook; its latency ends when the job is gone (the enrollment ends in the same commit). */
async function cancelOne({ sys, enrollment: e }: Target): Promise<number> {
  const payload = {
    id: `evt_${randomUUID()}`,
    type: 'reply',
    occurred_at: new Date().toISOString(),
    message_id: `<${e.id}@sandbox>`,
    email: e.email,
    enrollment_id: e.id,
    text: 'Thanks, but no thanks.',
  };
  const body = JSON.stringify(payload);
  const headers = {
    'content-type': 'application/json',
    ...standardWebhookHeaders(sys.rt.config.SANDBOX_WEBHOOK_SECRET, payload.id, body),
  };
  const t0 = performance.now();
  const res = await fetch(`${sys.ingestUrl}/webhooks/sandbox`, { method: 'POST', headers, body });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`webhook: ${res.status}`);
  // Ingest removes the job before answering today; should that move after the
  // answer, the time runs on until the job is seen gone.
  while ((await sys.rt.touchQueue.existing([`${e.id}-1`])).size > 0) {
    if (performance.now() - t0 > 10_000) throw new Error(`job of ${e.id} not removed`);
  }
  return performance.now() - t0;
}

/**
 * Cancels in pairs, one at each size, alternating which goes first, IN_FLIGHT pairs
 * at once: whatever else the machine does weighs on both sizes alike.
 */
async function measurePairs(small: Target[], large: Target[]) {
  const out = { small: [] as number[], large: [] as number[] };
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < small.length) {
        const i = next++;
        if (i % 2 === 0) {
          out.small.push(await cancelOne(small[i]!));
          out.large.push(await cancelOne(large[i]!));
        } else {
          out.large.push(await cancelOne(large[i]!));
          out.small.push(await cancelOne(small[i]!));
        }
      }
    }),
  );
  return out;
}

async function notReplied(sys: TestSystem, targets: Target[]): Promise<number> {
  const { rows } = await sys.rt.db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM enrollment WHERE id = ANY($1::uuid[]) AND status <> 'replied'",
    [targets.map((t) => t.enrollment.id)],
  );
  return rows[0]!.n;
}

const usePrivate = process.env.BENCH_CANCEL_REDIS !== 'shared' && hasRedisServer();
const priv = usePrivate ? await startPrivateRedis() : null;
// Two systems on the same Redis and PostgreSQL servers, one queue of each size.
const systems: TestSystem[] = [];
const start = (label: string) =>
  startTestSystem(
    label,
    { TIME_SCALE: '1', DATABASE_POOL_SIZE: '10' },
    { withoutSender: true, pacingMs: 1_000, ...(priv ? { redisUrl: priv.url } : {}) },
  ).then((s) => {
    systems.push(s);
    return s;
  });
let small: ReturnType<typeof summarize>;
let large: ReturnType<typeof summarize>;
let notEnded = 0;
let fillSeconds = 0;
let pending = { small: 0, large: 0 };
try {
  const sysSmall = await start('bench_cancel_10k');
  const sysLarge = await start('bench_cancel_1m');
  const targets = async (sys: TestSystem, tag: string, n: number) =>
    (await enrollReal(sys, tag, n)).map((enrollment) => ({ sys, enrollment }));
  const warm = Math.min(300, REPLIES);
  const warmSmall = await targets(sysSmall, 'w', warm);
  const warmLarge = await targets(sysLarge, 'w', warm);
  const measuredSmall = await targets(sysSmall, 'm', REPLIES);
  const measuredLarge = await targets(sysLarge, 'm', REPLIES);
  await fillTo(sysSmall, SMALL);
  fillSeconds = await fillTo(sysLarge, LARGE);
  pending = {
    small: await sysSmall.rt.touchQueue.queue.getDelayedCount(),
    large: await sysLarge.rt.touchQueue.queue.getDelayedCount(),
  };
  process.stdout.write(
    `filled in ${Math.round(fillSeconds)} s; measuring ${REPLIES} cancels at each of ${pending.small} and ${pending.large} pending\n`,
  );
  // Warm-up (JIT, pools, plans), not measured.
  await measurePairs(warmSmall, warmLarge);
  const measured = await measurePairs(measuredSmall, measuredLarge);
  small = summarize(measured.small);
  large = summarize(measured.large);
  notEnded = (await notReplied(sysSmall, measuredSmall)) + (await notReplied(sysLarge, measuredLarge));
} finally {
  // On our own server the million keys go with one FLUSHALL; never on the shared one.
  if (priv) {
    const r = new Redis(priv.url);
    await r.flushall();
    r.disconnect();
  }
  for (const s of systems) await s.stop();
  await priv?.stop();
}

const ratio = (large.p99 ?? Number.NaN) / (small.p99 ?? Number.NaN);
await finishBench({
  name: 'cancel-scale',
  figures: {
    pendingJobs: pending.large,
    replies: REPLIES,
    pairsInFlight: IN_FLIGHT,
    p50Ms: large.p50,
    p90Ms: large.p90,
    p99Ms: large.p99,
    maxMs: large.max,
    notEnded,
    backgroundFillSeconds: round(fillSeconds),
    redis: priv ? 'private redis-server, default settings' : 'REDIS_URL',
  },
  baseline: {
    pendingJobs: pending.small,
    p50Ms: small.p50,
    p90Ms: small.p90,
    p99Ms: small.p99,
    maxMs: small.max,
  },
  ratio: round(ratio),
  checks: [
    check(
      `p99 with ${LARGE.toLocaleString('en-US')} pending over p99 with ${SMALL.toLocaleString('en-US')}`,
      ratio,
      '<=',
      1.5,
    ),
  ],
  notes: [
    'latency: signed reply webhook sent → 200 received and the pending job seen gone (ingest ends the enrollment in the same commit)',
    'measured in pairs (one cancel at each size, alternating order) on two systems sharing the Redis and PostgreSQL servers, so machine noise weighs on both alike',
  ],
});
if (notEnded > 0) {
  process.stderr.write(`${notEnded} enrollments not replied after their webhook\n`);
  process.exitCode = 1;
}
