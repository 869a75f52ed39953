import { randomUUID } from 'node:crypto';
import { touchKey } from '@touchbase/core';
import { createDatabase, createRepositories } from '@touchbase/db';
import { buildIngest } from '@touchbase/ingest';
import { httpWebhookProvider, standardWebhookHeaders } from '@touchbase/providers';
import { createRedis, TouchQueue, touchJobId } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix } from '@touchbase/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { check, cpuPerUnit, finishBench, machineInfo, round, startCpuMeter, summarize } from './lib/index.js';

/**
 * Webhook intake: signed webhooks accepted per second (Standard Webhooks signature
 * checked over the raw body, event recorded once in PostgreSQL), and the latency
 * from a reply webhook's arrival to its enrollment's pending job being gone from
 * Redis, with 100,000 pending jobs there. The baseline is a bare Fastify route in
 * the same process, driven by the same client with the same signed bodies.
 *
 * The replies arrive at a steady BENCH_REPLY_RATE (1000 a second), each sent at its
 * own time whatever the ones before it are doing (an open loop, as a provider
 * sends), and the latency counts from that time, so a slow answer cannot hide the
 * wait of the requests behind it.
 *
 * Own database and Redis prefix. Sizes: BENCH_PENDING_JOBS (100000),
 * BENCH_DURATION_MS per throughput run (8000), BENCH_CONCURRENCY (32 requests in
 * flight), BENCH_REPLIES (3000), BENCH_REPLY_RATE (1000 a second).
 */
const JOBS = Number(process.env.BENCH_PENDING_JOBS ?? 100_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const REPLIES = Number(process.env.BENCH_REPLIES ?? 3_000);
const REPLY_RATE = Number(process.env.BENCH_REPLY_RATE ?? 1_000);
const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;

const log = (line: string) => process.stdout.write(`${line}\n`);
const machine = await machineInfo();
log(
  `machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb} GB, ${machine.platform}, node ${machine.node}, redis ${machine.redis}, postgres ${machine.postgres}`,
);

const tdb = await createTestDatabase('bench_intake');
const redisPrefix = await createTestRedisPrefix('bench-intake');
const db = createDatabase(tdb.url, { poolSize: 20 });
const repos = createRepositories(db);
const redis = createRedis(redisPrefix.url, 'producer');
const touchQueue = new TouchQueue(redis, redisPrefix.prefix);
const metrics = new Metrics({ defaultMetrics: false });
const logger = createLogger({ name: 'bench', level: 'silent' });

let ingest: FastifyInstance | null = null;
let bare: FastifyInstance | null = null;
try {
  // Seed: 100,000 active enrollments in PostgreSQL, each with its delayed job in Redis.
  const started = performance.now();
  const mailbox = await repos.mailboxes.create({ provider: 'sandbox', address: 'sdr@bench-intake.example' });
  const sequence = await repos.sequences.create({
    name: 'bench',
    steps: [{ channel: 'email', subject: 'Hello', body: 'Touch', wait: '3d' }],
  });
  await db.pool.query(
    `INSERT INTO prospect (id, email) SELECT gen_random_uuid(), 'bench-' || g || '@intake.example' FROM generate_series(1, $1) g`,
    [JOBS],
  );
  await db.pool.query(
    `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step, next_touch_at)
     SELECT gen_random_uuid(), id, $1, $2, $3, 'active', 1, now() + interval '1 day' FROM prospect`,
    [sequence.id, sequence.version.id, mailbox.id],
  );
  // A running database has planner statistics; a table filled a moment ago has none
  // until autovacuum's next round (up to a minute), and plans made blind are slower.
  await db.pool.query('ANALYZE');
  const { rows: enrollments } = await db.pool.query<{ id: string }>('SELECT id FROM enrollment ORDER BY id');
  const due = new Date(Date.now() + 86_400_000);
  for (let i = 0; i < enrollments.length; i += 2_000) {
    await touchQueue.schedule(
      enrollments.slice(i, i + 2_000).map((e) => ({ enrollmentId: e.id, step: 1, dueAt: due })),
    );
  }
  const pendingJobs = await touchQueue.queue.getDelayedCount();
  const seedSeconds = (performance.now() - started) / 1000;
  log(
    `seeded ${enrollments.length} enrollments and ${pendingJobs} pending jobs in ${seedSeconds.toFixed(1)} s`,
  );

  ingest = await buildIngest({
    events: repos.events,
    touchQueue,
    logger,
    metrics,
    providers: [httpWebhookProvider({ secret: SECRET })],
    checks: [],
  });
  const ingestUrl = await ingest.listen({ host: '127.0.0.1', port: 0 });
  bare = Fastify({ logger: false });
  bare.post('/bare', async () => ({ received: true }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  /** Posts one webhook signed as a provider signs it (a fresh message id); whether it was accepted. */
  async function postSigned(client: Pool, path: string, body: object): Promise<boolean> {
    const raw = JSON.stringify(body);
    const res = await client.request({
      method: 'POST',
      path,
      headers: {
        'content-type': 'application/json',
        ...standardWebhookHeaders(SECRET, `msg_${randomUUID()}`, raw),
      },
      body: raw,
    });
    await res.body.text();
    return res.statusCode === 200;
  }

  /** Posts signed webhooks for `ms` with `concurrency` in flight; every request signs its body like a provider. */
  async function drive(
    url: string,
    path: string,
    body: (i: number) => object,
    opts: { ms?: number; count?: number; concurrency: number; after?: (i: number) => Promise<void> },
  ) {
    const client = new Pool(url, { connections: opts.concurrency, pipelining: 1 });
    const latencies: number[] = [];
    let sent = 0;
    let ok = 0;
    let failed = 0;
    const until = performance.now() + (opts.ms ?? Number.POSITIVE_INFINITY);
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (performance.now() < until && sent < (opts.count ?? Number.POSITIVE_INFINITY)) {
          const i = sent++;
          const start = performance.now();
          if (await postSigned(client, path, body(i))) ok++;
          else failed++;
          if (opts.after) await opts.after(i);
          latencies.push(performance.now() - start);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await client.close();
    return { perSecond: ok / seconds, ok, failed, seconds, latency: summarize(latencies, 3) };
  }

  /**
   * Posts `count` signed webhooks at `rate` a second, each at its own scheduled time
   * (an open loop); latency runs from that time to the 2xx and `after`. The first
   * `warm` of them open the client's connections and the server's prepared statements
   * and are not counted (a running ingest has both).
   */
  async function driveAtRate(
    url: string,
    path: string,
    body: (i: number) => object,
    opts: { count: number; rate: number; warm?: number; after?: (i: number) => Promise<void> },
  ) {
    const client = new Pool(url, { connections: 64, pipelining: 1 });
    const latencies: number[] = [];
    let ok = 0;
    let failed = 0;
    const t0 = performance.now() + 50;
    const one = async (i: number) => {
      const due = t0 + (i * 1000) / opts.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (await postSigned(client, path, body(i))) ok++;
      else failed++;
      if (opts.after) await opts.after(i);
      if (i >= (opts.warm ?? 0)) latencies.push(performance.now() - due);
    };
    await Promise.all(Array.from({ length: opts.count }, (_, i) => one(i)));
    const seconds = (performance.now() - t0) / 1000;
    await client.close();
    return { perSecond: ok / seconds, ok, failed, seconds, latency: summarize(latencies, 3) };
  }

  const opened = (i: number) => ({
    type: 'opened',
    occurred_at: new Date().toISOString(),
    enrollment_id: enrollments[(i * 7919) % enrollments.length]!.id,
  });

  // Warm both up (JIT, pools) before measuring.
  await drive(ingestUrl, '/webhooks/http', opened, { count: 500, concurrency: 8 });
  await drive(bareUrl, '/bare', opened, { count: 500, concurrency: 8 });

  log(`throughput: ${CONCURRENCY} in flight for ${DURATION_MS} ms each`);
  // What each webhook costs the machine: this process (ingest and the load generator,
  // or the bare route and the same generator), PostgreSQL and Redis.
  let meter = await startCpuMeter();
  const accepted = await drive(ingestUrl, '/webhooks/http', opened, {
    ms: DURATION_MS,
    concurrency: CONCURRENCY,
  });
  const acceptedCpu = cpuPerUnit('accept', await meter.stop(), accepted.ok, machine.cores);
  meter = await startCpuMeter();
  const baseline = await drive(bareUrl, '/bare', opened, { ms: DURATION_MS, concurrency: CONCURRENCY });
  const bareCpu = cpuPerUnit('bare', await meter.stop(), baseline.ok, machine.cores);
  const { rows: recorded } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM event WHERE type = 'opened'`,
  );

  // Reply → pending job gone: ingest removes the job before its 2xx; the check after
  // the response proves it, and waits if it were not so.
  // A second of replies first, not counted (see driveAtRate), then REPLIES measured.
  const warm = Math.min(REPLY_RATE, 1_000);
  log(
    `reply latency: ${REPLIES} replies at ${REPLY_RATE} a second (after ${warm} not counted), over ${pendingJobs} pending jobs`,
  );
  const replyTargets = enrollments.slice(0, warm + REPLIES);
  let stillPendingAtAck = 0;
  // The check after each 2xx: is the job's hash gone (BullMQ removes it with the job).
  // A plain connection: one EXISTS, where a BullMQ connection's pipeline would copy
  // its scripts first, on the CPU this process shares with ingest.
  const checker = new Redis(redisPrefix.url);
  meter = await startCpuMeter();
  const replies = await driveAtRate(
    ingestUrl,
    '/webhooks/http',
    (i) => ({
      type: 'reply',
      occurred_at: new Date().toISOString(),
      enrollment_id: replyTargets[i]!.id,
      text: 'No thanks, not interested.',
    }),
    {
      count: replyTargets.length,
      rate: REPLY_RATE,
      warm,
      after: async (i) => {
        const jobKey = touchQueue.queue.toKey(touchJobId(touchKey(replyTargets[i]!.id, 1)));
        if ((await checker.exists(jobKey)) === 0) return;
        stillPendingAtAck++;
        while ((await checker.exists(jobKey)) > 0) await new Promise((r) => setTimeout(r, 1));
      },
    },
  );
  const replyCpu = cpuPerUnit('reply', await meter.stop(), replies.ok, machine.cores);
  checker.disconnect();
  const bareLatency = await driveAtRate(bareUrl, '/bare', opened, {
    count: replyTargets.length,
    rate: REPLY_RATE,
    warm,
  });
  const remaining = await touchQueue.queue.getDelayedCount();
  const { rows: stopped } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM enrollment WHERE status = 'replied'`,
  );

  const ratio = accepted.perSecond / baseline.perSecond;
  await finishBench({
    name: 'webhook-intake',
    figures: {
      acceptedPerSecond: round(accepted.perSecond),
      acceptedOk: accepted.ok,
      acceptedFailed: accepted.failed,
      eventsRecorded: recorded[0]!.n,
      acceptLatencyMsP50: accepted.latency.p50,
      acceptLatencyMsP99: accepted.latency.p99,
      replyToJobGoneMsP50: replies.latency.p50,
      replyToJobGoneMsP99: replies.latency.p99,
      replyToJobGoneMsMax: replies.latency.max,
      replyRatePerSecond: REPLY_RATE,
      repliesPerSecond: round(replies.perSecond),
      repliesStopped: stopped[0]!.n,
      jobsStillPendingAtAck: stillPendingAtAck,
      pendingJobsBefore: pendingJobs,
      pendingJobsAfter: remaining,
      concurrency: CONCURRENCY,
      seedSeconds: round(seedSeconds),
      ...acceptedCpu,
      ...replyCpu,
    },
    baseline: {
      bareRoutePerSecond: round(baseline.perSecond),
      bareLatencyMsP50: baseline.latency.p50,
      bareLatencyMsP99: baseline.latency.p99,
      bareLatencyMsP50AtReplyRate: bareLatency.latency.p50,
      bareLatencyMsP99AtReplyRate: bareLatency.latency.p99,
      ...bareCpu,
    },
    ratio: round(ratio),
    checks: [
      check('signed webhooks accepted per second', accepted.perSecond, '>=', 5_000),
      check(
        `reply → pending job gone and enrollment ended, p99 at ${REPLY_RATE}/s (ms)`,
        replies.latency.p99 ?? Number.POSITIVE_INFINITY,
        '<',
        15,
      ),
      check('every reply stopped its enrollment', stopped[0]!.n, '>=', replyTargets.length),
      check('jobs still pending after the 2xx', stillPendingAtAck, '<=', 0),
    ],
    notes: [
      `${machine.cores} cores (${machine.cpuModel}); ingest, the bare route and the load generator share one Node process; PostgreSQL and Redis run beside it`,
      'accepted = 200 after the Standard Webhooks signature check and the event recorded (type opened: recorded, no effect)',
      'cpuUs* = CPU microseconds per webhook during that run, by part (Node = this process: ingest or the bare route, plus the load generator; other = the rest of the machine, kernel included); CpuBoundPerSecond = cores × 1 s / cpuUsTotal, the rate at which that cost fills every core (a ceiling)',
      `reply latency = the reply's scheduled arrival (open loop, ${REPLY_RATE}/s) → 2xx with the pending job already removed and the enrollment ended (checked after each response); the first second of replies warms connections and prepared statements and is not counted`,
    ],
  });
  if (stopped[0]!.n < replyTargets.length || accepted.failed > 0) process.exitCode = 1;
} finally {
  await ingest?.close();
  await bare?.close();
  await touchQueue.close();
  redis.disconnect();
  await db.close();
  await redisPrefix.cleanup();
  await tdb.drop();
}
