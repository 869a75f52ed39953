import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { touchKey } from '@touchbase/core';
import { touchJobId } from '@touchbase/queues';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { hasRedisServer } from '../test/support/private-redis.js';
import { ReplicaFleet } from '../test/support/replica-fleet.js';
import { check, finishBench, machineInfo, round, summarize } from './lib/index.js';
import { measureMachineUnit, runLoad } from './lib/load.js';
import {
  mergePartSplits,
  type PartPids,
  type PartSplit,
  partsPerUnit,
  postgresBackends,
  redisServerPid,
  startPartMeter,
  withApplicationName,
} from './lib/part-meter.js';
import { replyWebhook, seedPendingEnrollments, startReplyRig } from './lib/reply-seed.js';

/**
 * Webhook intake, touchbase's ingest in a process of its own (`apps/ingest/src/main.ts`,
 * as `npm start` runs it), on its own database and a private redis-server:
 *
 *  - throughput: signed `opened` webhooks accepted per second (Standard Webhooks
 *    signature checked over the raw body, event recorded once in PostgreSQL), driven by
 *    autocannon in a process of its own (bench/lib/load-generator.ts);
 *  - the baseline, in the same run: a bare Fastify route in a process of its own, the
 *    same generator, the same signed requests. Its CPU per request is the machine unit;
 *  - replies: BENCH_REPLY_RATE (1000) a second, each sent at its own time (an open loop,
 *    as a provider sends; from this process, the generator of that part), latency from
 *    that time to the 2xx with the enrollment's pending job gone from Redis, with
 *    BENCH_PENDING_JOBS (100000) pending.
 *
 * CPU per webhook and per reply is what touchbase spent: the ingest process, the
 * PostgreSQL backends of its connections (application_name) and the redis-server; not
 * the generator, not this process. In machine units, so machines compare.
 *
 * INGEST_REPLY_ACTIONS (true, the service's default) is handed to the ingest: false
 * puts replies back on the batched fast path, so the cost of the general one shows.
 *
 * Sizes: BENCH_PENDING_JOBS (100000), BENCH_DURATION_MS per throughput run (8000),
 * BENCH_CONCURRENCY (32 connections), BENCH_REPLIES (3000), BENCH_REPLY_RATE (1000).
 *
 * Looking into the ingest: BENCH_INGEST_NODE_OPTIONS is the ingest's NODE_OPTIONS
 * (`--perf-basic-prof-only-functions`, then `perf record -g -p <the pid it prints>`
 * names the JavaScript frames). BENCH_INGEST_B_NODE_OPTIONS starts a second ingest
 * with those options beside the first and runs the accept load on A, B, A, B
 * (BENCH_AB_ROUNDS each): node or V8 flags compared in one run, each side's CPU per
 * webhook by part, as the machine's load moves under both alike.
 */
const JOBS = Number(process.env.BENCH_PENDING_JOBS ?? 100_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const REPLIES = Number(process.env.BENCH_REPLIES ?? 3_000);
const REPLY_RATE = Number(process.env.BENCH_REPLY_RATE ?? 1_000);
const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const APP = 'touchbase-bench-intake';
const INGEST_NODE_OPTIONS = process.env.BENCH_INGEST_NODE_OPTIONS;
const B_NODE_OPTIONS = process.env.BENCH_INGEST_B_NODE_OPTIONS;
const AB_ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 2);

const log = (line: string) => process.stdout.write(`${line}\n`);
const machine = await machineInfo();
log(
  `machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb} GB, ${machine.platform}, node ${machine.node}, redis ${machine.redis}, postgres ${machine.postgres}`,
);
if (!hasRedisServer()) throw new Error('redis-server is not on PATH: the bench measures a private one');

const rig = await startReplyRig('bench-intake', 10);
const { privateRedis, tdb, redisPrefix, db, repos, touchQueue } = rig;
const backends = postgresBackends(tdb.url, APP);
const backendsB = postgresBackends(tdb.url, `${APP}-b`);
const fleet = new ReplicaFleet({
  DATABASE_URL: withApplicationName(tdb.url, APP),
  REDIS_URL: redisPrefix.url,
  REDIS_PREFIX: redisPrefix.prefix,
  HTTP_PROVIDER_WEBHOOK_SECRET: SECRET,
  DATABASE_POOL_SIZE: '20',
  LOG_LEVEL: 'silent',
  // Replies on the general path (each sequence's reply actions, the default) or, with
  // INGEST_REPLY_ACTIONS=false, on the batched fast path: run both to compare.
  INGEST_REPLY_ACTIONS: process.env.INGEST_REPLY_ACTIONS ?? 'true',
});

try {
  // Seed: JOBS active enrollments in PostgreSQL, each with its delayed job in Redis.
  const started = performance.now();
  const { enrollments, pendingJobs } = await seedPendingEnrollments(
    db,
    repos,
    touchQueue,
    JOBS,
    'intake.example',
  );
  const seedSeconds = (performance.now() - started) / 1000;
  log(
    `seeded ${enrollments.length} enrollments and ${pendingJobs} pending jobs in ${seedSeconds.toFixed(1)} s`,
  );

  const ingest = await fleet.start(
    'ingest',
    'ingest',
    INGEST_NODE_OPTIONS ? { NODE_OPTIONS: INGEST_NODE_OPTIONS } : {},
  );
  log(`ingest pid ${ingest.child.pid}${INGEST_NODE_OPTIONS ? `, NODE_OPTIONS ${INGEST_NODE_OPTIONS}` : ''}`);
  const ingestUrl = `http://127.0.0.1:${ingest.port}`;
  const redisPid = await redisServerPid(privateRedis.url);
  const parts: PartPids = {
    ingest: () => [ingest.child.pid as number],
    postgres: backends.pids,
    redis: () => [redisPid],
  };
  // Only `opened` webhooks here: recorded, no effect, so the replies below still find their jobs.
  const replyTargets = enrollments.slice(0, Math.min(REPLY_RATE, 1_000) + REPLIES);
  const openedIds = enrollments.slice(replyTargets.length);
  const load = { connections: CONCURRENCY, secret: SECRET, enrollmentIds: openedIds };

  log(
    `throughput: autocannon, ${CONCURRENCY} connections, ${DURATION_MS} ms a run; bare route before and after`,
  );
  const unitBefore = await measureMachineUnit({ ...load, durationMs: DURATION_MS });
  const accepted = await runLoad(
    { ...load, url: ingestUrl, path: '/webhooks/http', warmMs: 2_000, durationMs: DURATION_MS },
    parts,
  );
  const unitAfter = await measureMachineUnit({ ...load, durationMs: DURATION_MS });
  const unitUs = (unitBefore.unitUs + unitAfter.unitUs) / 2;
  const barePerSecond = (unitBefore.perSecond + unitAfter.perSecond) / 2;
  log(
    `bare route ${unitBefore.perSecond} then ${unitAfter.perSecond}/s, ${unitBefore.unitUs} then ${unitAfter.unitUs} us a request; ingest ${Math.round(accepted.load.perSecond)}/s`,
  );
  const acceptedCpu = partsPerUnit('accept', accepted.cpu, accepted.load.ok, unitUs);
  // Group commit's batch: the events of one statement share its transaction's now(),
  // their received_at (ms precision: two statements in one ms count as one).
  const { rows: recorded } = await db.pool.query<{ n: number; statements: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT received_at)::int AS statements FROM event WHERE type = 'opened'`,
  );
  const ab = B_NODE_OPTIONS ? await abRun(load, parts) : {};

  // Reply → pending job gone: ingest removes the job before its 2xx; the check after
  // each response proves it (one EXISTS on a plain connection). The first second of
  // replies opens connections and prepared statements and is not counted.
  const warm = Math.min(REPLY_RATE, 1_000);
  log(`replies: ${REPLIES} at ${REPLY_RATE}/s (after ${warm} not counted), over ${pendingJobs} pending jobs`);
  const client = new Pool(ingestUrl, { connections: 64, pipelining: 1 });
  const checker = new Redis(redisPrefix.url);
  const latencies: number[] = [];
  let repliesOk = 0;
  let repliesFailed = 0;
  let stillPendingAtAck = 0;
  let meter: { stop: () => Promise<PartSplit | null> } | null = null;
  const t0 = performance.now() + 50;
  const one = async (i: number) => {
    const dueAt = t0 + (i * 1000) / REPLY_RATE;
    const wait = dueAt - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (i === warm) meter = await startPartMeter(parts);
    const enrollmentId = replyTargets[i]!;
    const res = await client.request(replyWebhook(SECRET, enrollmentId));
    await res.body.text();
    if (res.statusCode === 200) repliesOk++;
    else repliesFailed++;
    const jobKey = touchQueue.queue.toKey(touchJobId(touchKey(enrollmentId, 1)));
    if ((await checker.exists(jobKey)) > 0) {
      stillPendingAtAck++;
      while ((await checker.exists(jobKey)) > 0) await new Promise((r) => setTimeout(r, 1));
    }
    if (i >= warm) latencies.push(performance.now() - dueAt);
  };
  await Promise.all(replyTargets.map((_, i) => one(i)));
  const replySplit = meter ? await (meter as { stop: () => Promise<PartSplit | null> }).stop() : null;
  const repliesSeconds = (performance.now() - t0) / 1000;
  await client.close();
  checker.disconnect();
  const replyLatency = summarize(latencies, 3);
  const replyCpu = partsPerUnit('reply', replySplit, REPLIES, unitUs);
  const remaining = await touchQueue.queue.getDelayedCount();
  const { rows: stopped } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM enrollment WHERE status = 'replied'`,
  );

  const ratio = accepted.load.perSecond / barePerSecond;
  const acceptUnits = acceptedCpu.acceptUnitsTotal ?? Number.NaN;
  const replyUnits = replyCpu.replyUnitsTotal ?? Number.NaN;
  await finishBench({
    name: 'webhook-intake',
    figures: {
      acceptedPerSecond: round(accepted.load.perSecond),
      acceptedOk: accepted.load.ok,
      acceptedNon2xx: accepted.load.non2xx,
      acceptedErrors: accepted.load.errors,
      eventsRecorded: recorded[0]!.n,
      acceptEventsPerStatement: round(recorded[0]!.n / Math.max(1, recorded[0]!.statements)),
      acceptLatencyMsP50: accepted.load.latencyMsP50,
      acceptLatencyMsP99: accepted.load.latencyMsP99,
      acceptedOverBareRoute: round(ratio),
      machineUnitUs: round(unitUs),
      ...acceptedCpu,
      ...ab,
      replyToJobGoneMsP50: replyLatency.p50,
      replyToJobGoneMsP99: replyLatency.p99,
      replyToJobGoneMsMax: replyLatency.max,
      replyRatePerSecond: REPLY_RATE,
      repliesPerSecond: round(replyTargets.length / repliesSeconds),
      repliesOk,
      repliesFailed,
      repliesStopped: stopped[0]!.n,
      jobsStillPendingAtAck: stillPendingAtAck,
      pendingJobsBefore: pendingJobs,
      pendingJobsAfter: remaining,
      ...replyCpu,
      connections: CONCURRENCY,
      seedSeconds: round(seedSeconds),
    },
    baseline: {
      bareRoutePerSecond: round(barePerSecond),
      bareRouteCpuUsPerRequest: round(unitUs),
      bareRouteCpuUsBefore: unitBefore.unitUs,
      bareRouteCpuUsAfter: unitAfter.unitUs,
      bareLatencyMsP99: unitBefore.latencyMsP99,
      bareMachineBusyPct: unitBefore.busyPct,
    },
    ratio: round(ratio),
    checks: [
      check('signed webhooks/s over a bare route, same run', ratio, '>=', 0.5),
      check('CPU per accepted webhook (verify, record), machine units', acceptUnits, '<=', 2),
      check('CPU per reply applied (record, stop, job removal), machine units', replyUnits, '<=', 8),
      check(
        `reply → job gone + enrollment ended, p99 at ${REPLY_RATE}/s, ${pendingJobs} pending (ms)`,
        replyLatency.p99 ?? Number.POSITIVE_INFINITY,
        '<=',
        15,
      ),
      check('every reply stopped its enrollment', stopped[0]!.n, '>=', replyTargets.length),
      check('jobs still pending after the 2xx', stillPendingAtAck, '<=', 0),
    ],
    notes: [
      `${machine.cores} cores (${machine.cpuModel}); ingest in its own process (apps/ingest/src/main.ts), the bare route in its own, autocannon 8 in its own; PostgreSQL shared with other work, Redis a private redis-server`,
      'machine unit = CPU µs the bare route process spends on one request (same generator, same signed bodies, measured before and after ingest, mean); *Units* = CPU per webhook or reply over that unit',
      "*CpuUsIngest = the ingest process; *CpuUsPostgres = the backends of its connections (pg_stat_activity by application_name); *CpuUsRedis = the private redis-server (for replies it includes the bench's one EXISTS per reply); the generator and this process are not counted",
      'accepted = 200 after the Standard Webhooks signature check and the event recorded (type opened: recorded, no effect)',
      `reply latency = the reply's scheduled time (open loop, ${REPLY_RATE}/s, sent from this process) → 2xx with the pending job already removed and the enrollment ended; the first ${warm} replies warm up and are not counted`,
    ],
  });
  if (stopped[0]!.n < replyTargets.length || accepted.load.non2xx > 0) process.exitCode = 1;
} finally {
  await fleet.stopAll();
  await backendsB.close();
  await backends.close();
  await rig.close();
}

/**
 * A second ingest with BENCH_INGEST_B_NODE_OPTIONS beside the first (A): the same
 * accept load on A, B, A, B (AB_ROUNDS each), CPU per webhook of each side by part
 * (`abA*`, `abB*`, µs) and B's over A's total (`abBOverA`).
 */
async function abRun(
  load: { connections: number; secret: string; enrollmentIds: string[] },
  partsA: PartPids,
): Promise<Record<string, number | null>> {
  const b = await fleet.start('ingest-b', 'ingest', {
    NODE_OPTIONS: B_NODE_OPTIONS ?? '',
    DATABASE_URL: withApplicationName(tdb.url, `${APP}-b`),
  });
  const partsB: PartPids = { ...partsA, ingest: () => [b.child.pid as number], postgres: backendsB.pids };
  const sides = {
    A: { url: `http://127.0.0.1:${fleet.members[0]!.port}`, parts: partsA },
    B: { url: `http://127.0.0.1:${b.port}`, parts: partsB },
  };
  const splits: Record<'A' | 'B', (PartSplit | null)[]> = { A: [], B: [] };
  const ok = { A: 0, B: 0 };
  for (let r = 0; r < AB_ROUNDS; r++) {
    for (const side of ['A', 'B'] as const) {
      const run = await runLoad(
        { ...load, url: sides[side].url, path: '/webhooks/http', warmMs: 2_000, durationMs: DURATION_MS },
        sides[side].parts,
      );
      splits[side].push(run.cpu);
      ok[side] += run.load.ok;
      log(
        `A/B round ${r + 1} ${side}: ${Math.round(run.load.perSecond)}/s, load ${(await readFile('/proc/loadavg', 'utf8')).trim()}`,
      );
    }
  }
  const a = partsPerUnit('abA', mergePartSplits(splits.A), ok.A);
  const bb = partsPerUnit('abB', mergePartSplits(splits.B), ok.B);
  return { ...a, ...bb, abBOverA: round((bb.abBCpuUsTotal ?? Number.NaN) / (a.abACpuUsTotal ?? Number.NaN)) };
}
