import { countCapViolations, type MailboxLimits, MailboxThrottle } from '@touchbase/providers';
import { hasRedisServer, startPrivateRedis } from '../test/support/private-redis.js';
import { type FleetMember, ReplicaFleet } from '../test/support/replica-fleet.js';
import { startTestSystem } from '../test/support/test-system.js';
import { enqueue, seedEnrollments, seedHistory, seedMailboxes, seedProspects } from './lib/dispatch-seed.js';
import { type BenchCheck, check, finishBench, machineInfo, percentile, round } from './lib/index.js';
import { measureMachineUnit } from './lib/load.js';
import {
  mergePartSplits,
  type PartSplit,
  partsPerUnit,
  postgresBackends,
  redisServerPid,
  startPartMeter,
  withApplicationName,
} from './lib/part-meter.js';

/**
 * Dispatch as `npm start` runs it, one process per part: the sender
 * (`apps/sender/src/main.ts`, 1 or 2 processes), the sandbox provider
 * (`touchbase sandbox`) in its own, on a database of its own and a private
 * redis-server; this process only seeds, queues and watches.
 *
 *  - the machine unit, measured in the same run: CPU µs a bare Fastify route (its own
 *    process) spends on one request, driven by autocannon in its own process;
 *  - bursts with caps open (every touch due at once): touches/s and the CPU each touch
 *    cost touchbase by part (the sender processes, the PostgreSQL backends of their
 *    connections, the redis-server; not the sandbox, not this process), in µs and units,
 *    with 1 and 2 sender processes (SENDER_THROTTLE=lua) and with 1 on Bottleneck
 *    (SENDER_THROTTLE=bottleneck); rounds turn the order, so the drift of this shared
 *    machine falls on every mode;
 *  - paced streams below capacity (BENCH_PROC_PACED_RATE a second), Lua and Bottleneck:
 *    lag due → provider receipt, p99;
 *  - caps that bind (5 a minute, 6 s spacing at TIME_SCALE 60), Lua and Bottleneck:
 *    violations on the Lua grant log (Redis clock) and, for both, on the sandbox's
 *    receipt times (Bottleneck keeps no grant log outside the sender's memory; the
 *    in-process dispatch bench reads both grant logs).
 *
 * Sizes: BENCH_PROC_TOUCHES (2000 a burst), BENCH_PROC_ROUNDS (2),
 * BENCH_PROC_CONCURRENCY (200 per process, SENDER_CONCURRENCY's default),
 * BENCH_PROC_MAILBOXES (200), BENCH_PROC_PACED_TOUCHES (500) at
 * BENCH_PROC_PACED_RATE (100 a second), BENCH_PROC_CAPPED_MAILBOXES (50, 10 touches each);
 * every run starts its sender processes afresh and warms them with BENCH_PROC_WARM (500)
 * touches first, not counted.
 */
const TOUCHES = Number(process.env.BENCH_PROC_TOUCHES ?? 2_000);
const ROUNDS = Number(process.env.BENCH_PROC_ROUNDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_PROC_CONCURRENCY ?? 200);
const MAILBOXES = Number(process.env.BENCH_PROC_MAILBOXES ?? 200);
const PACED_TOUCHES = Number(process.env.BENCH_PROC_PACED_TOUCHES ?? 500);
const PACED_RATE = Number(process.env.BENCH_PROC_PACED_RATE ?? 100);
const CAPPED_MAILBOXES = Number(process.env.BENCH_PROC_CAPPED_MAILBOXES ?? 50);
const CAPPED_PER_MAILBOX = 10;
const WARM = Number(process.env.BENCH_PROC_WARM ?? 500);
const TIME_SCALE = 60;
const APP = 'touchbase-bench-dispatch';
const OPEN: MailboxLimits = { perMinute: 100_000, perHour: 1_000_000, perDay: 1_000_000, minSpacingMs: 0 };
const BINDING: MailboxLimits = { perMinute: 5, perHour: 1_000, perDay: 10_000, minSpacingMs: 6_000 };

type Kind = 'lua' | 'bottleneck';
type Mode = { throttle: Kind; senders: number };
const key = (m: Mode) => `${m.throttle}x${m.senders}`;
const MODES: Mode[] = [
  { throttle: 'lua', senders: 1 },
  { throttle: 'lua', senders: 2 },
  { throttle: 'bottleneck', senders: 1 },
];

const log = (line: string) => process.stdout.write(`${line}\n`);
const machine = await machineInfo();
log(
  `machine: ${machine.cpuModel}, ${machine.cores} cores; node ${machine.node}, redis ${machine.redis}, postgres ${machine.postgres}`,
);
if (!hasRedisServer()) throw new Error('redis-server is not on PATH: the bench measures a private one');
const privateRedis = await startPrivateRedis();
const sys = await startTestSystem(
  'bench_processes',
  { TIME_SCALE: String(TIME_SCALE), DATABASE_POOL_SIZE: '10', LOG_LEVEL: 'silent' },
  { withoutSender: true, redisUrl: privateRedis.url },
);
const backends = postgresBackends(sys.env.DATABASE_URL as string, APP);
const fleet = new ReplicaFleet({
  ...sys.env,
  DATABASE_URL: withApplicationName(sys.env.DATABASE_URL as string, APP),
  DATABASE_POOL_SIZE: '10',
  SENDER_CONCURRENCY: String(CONCURRENCY),
});

type Run = { seconds: number; perSecond: number; lags: number[]; cpu: PartSplit | null };

try {
  const sandbox = await fleet.start('sandbox', 'sandbox');
  const sandboxUrl = `http://127.0.0.1:${sandbox.port}`;
  const redisPid = await redisServerPid(privateRedis.url);
  const deliveries = async () =>
    (
      (await (await fetch(`${sandboxUrl}/v1/deliveries`)).json()) as {
        deliveries: { enrollmentId: string; at: string; from: string; idempotencyKey: string }[];
      }
    ).deliveries;

  const seedStarted = Date.now();
  const prospectIds = await seedProspects(
    sys,
    Math.max(TOUCHES, WARM, CAPPED_MAILBOXES * CAPPED_PER_MAILBOX),
  );
  const open = await seedMailboxes(sys, 'open', OPEN, MAILBOXES);
  const binding = await seedMailboxes(sys, 'binding', BINDING, CAPPED_MAILBOXES);
  const plan: Mode[] = [];
  for (let r = 0; r < ROUNDS; r++) plan.push(...MODES.map((_, i) => MODES[(i + r) % MODES.length]!));
  const burstSets: string[][] = [];
  for (const _ of plan) burstSets.push(await seedEnrollments(sys, prospectIds.slice(0, TOUCHES), open));
  const pacedSets = {
    lua: await seedEnrollments(sys, prospectIds.slice(0, PACED_TOUCHES), open),
    bottleneck: await seedEnrollments(sys, prospectIds.slice(0, PACED_TOUCHES), open),
  };
  const cappedProspects = prospectIds.slice(0, CAPPED_MAILBOXES * CAPPED_PER_MAILBOX);
  const cappedSets = {
    lua: await seedEnrollments(sys, cappedProspects, binding, true),
    bottleneck: await seedEnrollments(sys, cappedProspects, binding, true),
  };
  const warmSets: string[][] = [];
  for (let i = 0; i < plan.length + 4; i++)
    warmSets.push(await seedEnrollments(sys, prospectIds.slice(0, WARM), open));
  await seedHistory(sys, await seedEnrollments(sys, prospectIds.slice(0, TOUCHES), open));
  log(`seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

  const unitBefore = await measureMachineUnit({ durationMs: 4_000 });
  log(`machine unit: ${unitBefore.unitUs} us a request (bare route ${unitBefore.perSecond}/s)`);

  /** Waits until PostgreSQL records every touch of `ids` sent. */
  async function waitSent(mode: Mode, ids: string[]): Promise<void> {
    const deadline = Date.now() + 120_000 + ids.length * 20;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${key(mode)}: not every touch sent by the deadline`);
      const { rows } = await sys.rt.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM touch WHERE enrollment_id = ANY($1::uuid[]) AND status = 'sent'`,
        [ids],
      );
      if (rows[0]!.n >= ids.length) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function sendAll(mode: Mode, ids: string[], dueAt: number): Promise<void> {
    await enqueue(sys.rt.touchQueue, ids, () => new Date(dueAt));
    await waitSent(mode, ids);
  }

  /** Starts the senders, queues the touches (all due at once, or paced), waits for every one recorded sent. */
  async function dispatch(mode: Mode, ids: string[], ratePerSecond?: number): Promise<Run> {
    const senders: FleetMember[] = [];
    for (let i = 0; i < mode.senders; i++)
      senders.push(
        await fleet.start(`sender-${i}`, 'sender', {
          SENDER_THROTTLE: mode.throttle,
          SANDBOX_URL: sandboxUrl,
        }),
      );
    // A process just started compiles as it goes: its first touches are not counted.
    await sendAll(mode, warmSets.pop()!, Date.now());
    const index = new Map(ids.map((id, i) => [id, i]));
    const start = Date.now() + 1_000;
    const dueOf = (i: number) => start + (ratePerSecond ? Math.round((i * 1000) / ratePerSecond) : 0);
    await enqueue(sys.rt.touchQueue, ids, (i) => new Date(dueOf(i)));
    const meter = await startPartMeter({
      sender: () => senders.map((s) => s.child.pid as number),
      postgres: backends.pids,
      redis: () => [redisPid],
    });
    await waitSent(mode, ids);
    const seconds = (Date.now() - start) / 1000;
    const cpu = await meter.stop();
    for (const s of senders) await fleet.kill(s);
    const lags = (await deliveries())
      .filter((d) => index.has(d.enrollmentId))
      .map((d) => Date.parse(d.at) - dueOf(index.get(d.enrollmentId)!))
      .sort((a, b) => a - b);
    return { seconds, perSecond: ids.length / seconds, lags, cpu };
  }

  const bursts = new Map<string, Run[]>();
  for (const [i, mode] of plan.entries()) {
    const run = await dispatch(mode, burstSets[i]!);
    bursts.set(key(mode), [...(bursts.get(key(mode)) ?? []), run]);
    log(
      `burst ${i + 1}/${plan.length}, ${mode.senders} sender(s), ${mode.throttle}: ${Math.round(run.perSecond)} touches/s`,
    );
  }
  const paced: Record<Kind, Run> = {
    lua: await dispatch({ throttle: 'lua', senders: 1 }, pacedSets.lua, PACED_RATE),
    bottleneck: await dispatch({ throttle: 'bottleneck', senders: 1 }, pacedSets.bottleneck, PACED_RATE),
  };
  for (const k of ['lua', 'bottleneck'] as const)
    log(`paced ${PACED_RATE}/s, ${k}: lag p99 ${percentile(paced[k].lags, 99, true)} ms`);

  // Binding caps, each throttle on its own set of mailboxes' keys (fresh enrollments, same mailboxes:
  // the Lua log is cleared between, Bottleneck's limiters are keys of their own).
  const luaLog = new MailboxThrottle(sys.rt.redis.producer, {
    prefix: sys.env.REDIS_PREFIX as string,
    timeScale: TIME_SCALE,
  });
  const windows = luaLog.windows(BINDING);
  const capped: Record<Kind, { run: Run; grantLog: number | null; receipt: number }> = {} as never;
  for (const k of ['lua', 'bottleneck'] as const) {
    const run = await dispatch({ throttle: k, senders: 1 }, cappedSets[k]);
    const set = new Set(cappedSets[k]);
    const byMailbox = new Map<string, number[]>();
    for (const d of await deliveries())
      if (set.has(d.enrollmentId))
        byMailbox.set(d.from, [...(byMailbox.get(d.from) ?? []), Date.parse(d.at)]);
    let receipt = 0;
    for (const times of byMailbox.values()) receipt += countCapViolations(times, windows);
    let grantLog: number | null = null;
    if (k === 'lua') {
      grantLog = 0;
      for (const id of binding) {
        const grants = await luaLog.grants(id);
        grantLog += countCapViolations(grants, windows);
        for (let i = 1; i < grants.length; i++)
          if (grants[i]! - grants[i - 1]! < BINDING.minSpacingMs / TIME_SCALE) grantLog++;
      }
      // Bottleneck's run next: its own limiters; the Lua log no longer matters.
    }
    capped[k] = { run, grantLog, receipt };
    log(
      `caps binding, ${k}: ${Math.round(run.perSecond)} touches/s, violations grant log ${grantLog ?? 'n/a'}, by receipt ${receipt}`,
    );
  }

  const unitAfter = await measureMachineUnit({ durationMs: 4_000 });
  const unitUs = (unitBefore.unitUs + unitAfter.unitUs) / 2;
  log(`machine unit after: ${unitAfter.unitUs} us a request`);

  const all = await deliveries();
  const duplicates = all.length - new Set(all.map((d) => d.idempotencyKey)).size;
  const rate = (runs: Run[]) => (runs.length * TOUCHES) / runs.reduce((a, x) => a + x.seconds, 0);
  const figuresOf = (m: Mode, prefix: string) => {
    const runs = bursts.get(key(m)) ?? [];
    return {
      [`${prefix}TouchesPerSecond`]: round(rate(runs)),
      ...partsPerUnit(prefix, mergePartSplits(runs.map((x) => x.cpu)), runs.length * TOUCHES, unitUs),
    };
  };
  const one = figuresOf(MODES[0]!, 'lua1');
  const two = figuresOf(MODES[1]!, 'lua2');
  const bn = figuresOf(MODES[2]!, 'bottleneck1');
  const twoOverOne = (two.lua2TouchesPerSecond as number) / (one.lua1TouchesPerSecond as number);
  const bnOverLua = (bn.bottleneck1TouchesPerSecond as number) / (one.lua1TouchesPerSecond as number);
  const p99 = (k: Kind) => percentile(paced[k].lags, 99, true);
  const touchUnits = one.lua1UnitsTotal ?? Number.NaN;
  const checks: BenchCheck[] = [
    check('CPU per touch sent, provider out of process, 1 sender (machine units)', touchUnits, '<=', 8),
    check(
      'touches/s, caps not binding, buckets on, 1 sender process',
      one.lua1TouchesPerSecond as number,
      '>=',
      2_000,
    ),
    check('cap violations, Lua grant log', capped.lua.grantLog ?? 0, '<=', 0),
    check('duplicate deliveries', duplicates, '<=', 0),
  ];
  await finishBench({
    name: 'dispatch-processes',
    figures: {
      touchesPerBurst: TOUCHES,
      rounds: ROUNDS,
      concurrencyPerProcess: CONCURRENCY,
      mailboxes: MAILBOXES,
      machineUnitUs: round(unitUs),
      ...one,
      ...two,
      twoSendersOverOne: round(twoOverOne),
      ...bn,
      bottleneckOverLua: round(bnOverLua),
      pacedRatePerSecond: PACED_RATE,
      luaPacedLagP50Ms: round(percentile(paced.lua.lags, 50, true)),
      luaPacedLagP99Ms: round(p99('lua')),
      bottleneckPacedLagP50Ms: round(percentile(paced.bottleneck.lags, 50, true)),
      bottleneckPacedLagP99Ms: round(p99('bottleneck')),
      bottleneckLagP99AddedOverLuaMs: round(p99('bottleneck') - p99('lua')),
      luaCappedTouchesPerSecond: round(capped.lua.run.perSecond),
      bottleneckCappedTouchesPerSecond: round(capped.bottleneck.run.perSecond),
      luaCapViolationsGrantLog: capped.lua.grantLog,
      luaCapViolationsByReceiptTime: capped.lua.receipt,
      bottleneckCapViolationsByReceiptTime: capped.bottleneck.receipt,
      duplicateDeliveries: duplicates,
    },
    baseline: {
      bareRouteCpuUsPerRequest: round(unitUs),
      bareRouteCpuUsBefore: unitBefore.unitUs,
      bareRouteCpuUsAfter: unitAfter.unitUs,
      bareRoutePerSecond: unitBefore.perSecond,
    },
    ratio: round(twoOverOne),
    checks,
    notes: [
      `${machine.cores} cores (${machine.cpuModel}); sender processes (apps/sender/src/main.ts, concurrency ${CONCURRENCY} each), the sandbox in its own process (touchbase sandbox), a private redis-server; PostgreSQL shared with other work`,
      'ratio = touches/s with 2 sender processes over 1 (Lua buckets, caps open), same run, rounds turning the order',
      '*CpuUsSender = the sender processes; *CpuUsPostgres = the backends of their connections (pg_stat_activity by application_name); *CpuUsRedis = the private redis-server (this process queues the touches before the stretch and counts sent touches in PostgreSQL during it, on connections not counted); *Units* = over the machine unit (bare Fastify route, CPU µs per request, its own process, mean of before and after)',
      'a touch = claim, bucket, pre-send re-check and send to the sandbox over HTTP, record, next job; counted when PostgreSQL records it sent',
      `caps binding: ${BINDING.perMinute}/minute and ${BINDING.minSpacingMs} ms spacing at TIME_SCALE ${TIME_SCALE}, ${CAPPED_PER_MAILBOX} touches on each of ${CAPPED_MAILBOXES} mailboxes; Bottleneck keeps no grant log outside the sender process, so only the receipt times (after the claim and HTTP call, informational) are counted for it here`,
    ],
  });
} finally {
  await fleet.stopAll();
  await backends.close();
  await sys.stop();
  await privateRedis.stop();
}
