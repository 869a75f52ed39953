import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { touchKey } from '@touchbase/core';
import { touchJobId } from '@touchbase/queues';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { hasRedisServer } from '../test/support/private-redis.js';
import { ReplicaFleet } from '../test/support/replica-fleet.js';
import { round, summarize } from './lib/index.js';
import {
  type PartSplit,
  postgresBackends,
  redisServerPid,
  startPartMeter,
  withApplicationName,
} from './lib/part-meter.js';
import { replyWebhook, seedPendingEnrollments, startReplyRig } from './lib/reply-seed.js';

/**
 * Replies A/B in one run (by hand, not part of `npm run bench`): the reply phase of
 * webhook-intake.bench.ts against two ingest processes that differ only in the
 * environment given (BENCH_AB_A, BENCH_AB_B: `NAME=value,NAME=value`), on one
 * database and one private redis-server with BENCH_PENDING_JOBS pending, in
 * alternating phases (A B A B …, BENCH_AB_ROUNDS), so the machine's load weighs on
 * both alike. Each phase: BENCH_REPLIES replies at BENCH_REPLY_RATE a second (open
 * loop), after BENCH_AB_WARM not counted; latency = scheduled time → 2xx with the
 * job gone; CPU per reply of that ingest process, its PostgreSQL backends and the
 * redis-server; commits per reply (pg_stat_database), the statements' count.
 *
 *   BENCH_AB_A=INGEST_STOP_BATCH_HOLD_MS=0 BENCH_AB_B=INGEST_STOP_BATCH_HOLD_MS=1 npx tsx bench/reply-ab.ts
 */
const JOBS = Number(process.env.BENCH_PENDING_JOBS ?? 100_000);
const REPLIES = Number(process.env.BENCH_REPLIES ?? 2_000);
const RATE = Number(process.env.BENCH_REPLY_RATE ?? 1_000);
const WARM = Number(process.env.BENCH_AB_WARM ?? 300);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 2);
const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const variants = { A: envOf(process.env.BENCH_AB_A ?? ''), B: envOf(process.env.BENCH_AB_B ?? '') };

function envOf(spec: string): Record<string, string> {
  return Object.fromEntries(
    spec
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}
const log = (line: string) => process.stdout.write(`${line}\n`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

if (!hasRedisServer()) throw new Error('redis-server is not on PATH');
const rig = await startReplyRig('bench-reply-ab', 4);
const { privateRedis, tdb, redisPrefix, db, repos, touchQueue } = rig;
const fleet = new ReplicaFleet({
  REDIS_URL: redisPrefix.url,
  REDIS_PREFIX: redisPrefix.prefix,
  HTTP_PROVIDER_WEBHOOK_SECRET: SECRET,
  DATABASE_POOL_SIZE: '20',
  LOG_LEVEL: 'silent',
});
const backends = { A: postgresBackends(tdb.url, 'bench-ab-a'), B: postgresBackends(tdb.url, 'bench-ab-b') };

try {
  const { enrollments } = await seedPendingEnrollments(db, repos, touchQueue, JOBS, 'reply-ab.example');
  const needed = 2 * ROUNDS * (WARM + REPLIES);
  if (needed > enrollments.length) throw new Error(`${needed} replies need as many enrollments`);
  const redisPid = await redisServerPid(privateRedis.url);
  const ingest = {
    A: await fleet.start('ingest-a', 'ingest', {
      ...variants.A,
      DATABASE_URL: withApplicationName(tdb.url, 'bench-ab-a'),
    }),
    B: await fleet.start('ingest-b', 'ingest', {
      ...variants.B,
      DATABASE_URL: withApplicationName(tdb.url, 'bench-ab-b'),
    }),
  };
  log(`A: ${JSON.stringify(variants.A)}  B: ${JSON.stringify(variants.B)}; ${JOBS} pending`);
  const checker = new Redis(redisPrefix.url);
  const commits = async () =>
    Number(
      (
        await db.pool.query<{ n: string }>(
          'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
        )
      ).rows[0]!.n,
    );
  let next = 0;
  const results: Record<'A' | 'B', { lat: number[]; split: PartSplit[]; commits: number; load: string[] }> = {
    A: { lat: [], split: [], commits: 0, load: [] },
    B: { lat: [], split: [], commits: 0, load: [] },
  };

  const phase = async (v: 'A' | 'B') => {
    const client = new Pool(`http://127.0.0.1:${ingest[v].port}`, { connections: 64, pipelining: 1 });
    const targets = enrollments.slice(next, next + WARM + REPLIES);
    next += targets.length;
    const parts = {
      ingest: () => [ingest[v].child.pid as number],
      postgres: backends[v].pids,
      redis: () => [redisPid],
    };
    let meter: { stop: () => Promise<PartSplit | null> } | null = null;
    let commitsBefore = 0;
    const t0 = performance.now() + 50;
    const one = async (i: number) => {
      const dueAt = t0 + (i * 1000) / RATE;
      const wait = dueAt - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (i === WARM) {
        commitsBefore = await commits();
        meter = await startPartMeter(parts);
      }
      const enrollmentId = targets[i]!;
      const res = await client.request(replyWebhook(SECRET, enrollmentId));
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`reply answered ${res.statusCode}`);
      const jobKey = touchQueue.queue.toKey(touchJobId(touchKey(enrollmentId, 1)));
      while ((await checker.exists(jobKey)) > 0) await new Promise((r) => setTimeout(r, 1));
      if (i >= WARM) results[v].lat.push(performance.now() - dueAt);
    };
    await Promise.all(targets.map((_, i) => one(i)));
    const split = await (meter as { stop: () => Promise<PartSplit | null> } | null)?.stop();
    results[v].commits += (await commits()) - commitsBefore;
    if (split) results[v].split.push(split);
    results[v].load.push(loadavg());
    await client.close();
  };

  for (let r = 0; r < ROUNDS; r++) {
    for (const v of r % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      await phase(v);
      const l = summarize(results[v].lat.slice(-REPLIES), 3);
      log(`round ${r + 1} ${v}: p50 ${l.p50} p99 ${l.p99} ms; load ${loadavg()}`);
    }
  }
  checker.disconnect();
  const { rows: stopped } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM enrollment WHERE status = 'replied'`,
  );
  log(`\nenrollments replied: ${stopped[0]!.n} of ${next} replies sent`);
  for (const v of ['A', 'B'] as const) {
    const r = results[v];
    const n = r.lat.length;
    const cpu = (part: string) =>
      Math.round((r.split.reduce((a, s) => a + (s.cpuSeconds[part] ?? 0), 0) * 1e6) / n);
    const l = summarize(r.lat, 3);
    log(
      `${v} ${JSON.stringify(variants[v])}: ${n} replies at ${RATE}/s; p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms; CPU us a reply: ingest ${cpu('ingest')}, postgres ${cpu('postgres')}, redis ${cpu('redis')}, total ${cpu('ingest') + cpu('postgres') + cpu('redis')}; commits a reply ${round(r.commits / n)}; load ${r.load.join(' | ')}`,
    );
  }
} finally {
  await fleet.stopAll();
  await backends.A.close();
  await backends.B.close();
  await rig.close();
}
