import { createThrottle, type MailboxLimits, type ThrottleKind } from '@touchbase/providers';
import { createRedisClient, redisReady } from '@touchbase/queues';
import { startTestSystem } from '../test/support/test-system.js';
import {
  capViolations,
  dispatch,
  meanBatchSizes,
  type Run,
  rawBullmq,
  type SenderSettings,
  TimedThrottle,
} from './lib/dispatch-run.js';
import { seedEnrollments, seedHistory, seedMailboxes, seedProspects } from './lib/dispatch-seed.js';
import {
  type BenchCheck,
  check,
  cpuPerUnit,
  finishBench,
  machineInfo,
  mergeCpuSplits,
  percentile,
  round,
} from './lib/index.js';
import { throttleSideBySide } from './lib/throttle-compare.js';

/**
 * Dispatch through the sender against the sandbox on loopback, on one database
 * and one Redis of its own:
 *
 *  - caps that bind: 1,000 mailboxes, 20,000 touches due at once (20 a mailbox,
 *    queued mailbox by mailbox), 5 a minute and 100 ms spacing per mailbox at
 *    TIME_SCALE 60 (a minute lasts a second): 15 of each mailbox's 20 touches
 *    must wait for their window. Touches/s, p50/p99 lag due→send, cap violations
 *    (must be 0);
 *  - the baseline: raw BullMQ processing as many no-op jobs on the same Redis at
 *    the same concurrency;
 *  - the limiter's cost, caps that never bind, buckets on against off: a burst
 *    (throughput) and a paced stream below capacity (lag due→send per touch, so
 *    the p99 difference is what the bucket adds to a send, not queueing).
 * Everything runs in this process (the sandbox, the sender, the clients), as
 * `touchbase start` does on one machine.
 *
 * Sizes: BENCH_DISPATCH_MAILBOXES (1000), BENCH_DISPATCH_TOUCHES (20000),
 * BENCH_DISPATCH_CONCURRENCY (100, like SENDER_CONCURRENCY),
 * BENCH_DISPATCH_ROUNDS (3) rounds of the limiter's cost, on and off taking
 * turns (this machine's load drifts; alternating keeps the drift out of the
 * ratio), each a burst of BENCH_DISPATCH_COST_TOUCHES (3000) and a stream of
 * BENCH_DISPATCH_PACED_TOUCHES (1000) at BENCH_DISPATCH_PACED_RATE (200 a second).
 * BENCH_DISPATCH_COST_ONLY=1 runs only the limiter's cost (the bursts, Lua buckets on
 * against off, rounds turning; no caps that bind, no raw BullMQ, no Bottleneck, no
 * paced streams), prints buckets on over off with the CPU split of each and records
 * nothing: a quick A/B of a change to the buckets or the send path (a few minutes).
 * BENCH_DISPATCH_RECHECK=0 turns off the sender's pre-send provider re-check (one
 * more HTTP round trip a touch, on by default as in production, SENDER_PROVIDER_RECHECK);
 * the figures say which was measured.
 */
const MAILBOXES = Number(process.env.BENCH_DISPATCH_MAILBOXES ?? 1_000);
const TOUCHES = Number(process.env.BENCH_DISPATCH_TOUCHES ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_DISPATCH_CONCURRENCY ?? 100);
const ROUNDS = Number(process.env.BENCH_DISPATCH_ROUNDS ?? 3);
const COST_TOUCHES = Math.min(TOUCHES, Number(process.env.BENCH_DISPATCH_COST_TOUCHES ?? 3_000));
const PACED_TOUCHES = Math.min(TOUCHES, Number(process.env.BENCH_DISPATCH_PACED_TOUCHES ?? 1_000));
const PACED_RATE = Number(process.env.BENCH_DISPATCH_PACED_RATE ?? 200);
const RECHECK = process.env.BENCH_DISPATCH_RECHECK !== '0';
const COST_ONLY = process.env.BENCH_DISPATCH_COST_ONLY === '1';
const TIME_SCALE = 60;
const BINDING: MailboxLimits = { perMinute: 5, perHour: 1_000, perDay: 10_000, minSpacingMs: 6_000 };
const OPEN: MailboxLimits = { perMinute: 100_000, perHour: 1_000_000, perDay: 1_000_000, minSpacingMs: 0 };

const SENDER: SenderSettings = { concurrency: CONCURRENCY, timeScale: TIME_SCALE, recheck: RECHECK };

const machine = await machineInfo();
process.stdout.write(
  `machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb} GB, ${machine.platform}; node ${machine.node}, redis ${machine.redis}, postgres ${machine.postgres}\n`,
);
process.stdout.write(
  `dispatch: ${MAILBOXES} mailboxes, ${TOUCHES} touches, concurrency ${CONCURRENCY}, provider re-check ${RECHECK ? 'on' : 'off'}\n`,
);

const sys = await startTestSystem(
  'bench_dispatch',
  { TIME_SCALE: String(TIME_SCALE), DATABASE_POOL_SIZE: '40', LOG_LEVEL: 'silent' },
  { withoutSender: true },
);
if (COST_ONLY) {
  try {
    await costOnly(sys, await seedProspects(sys, COST_TOUCHES));
  } finally {
    await sys.stop();
  }
  process.exit(0);
}
try {
  const seedStarted = Date.now();
  const prospectIds = await seedProspects(sys, TOUCHES);
  const binding = await seedMailboxes(sys, 'binding', BINDING, MAILBOXES);
  const open = await seedMailboxes(sys, 'open', OPEN, MAILBOXES);
  const bindingEnrollments = await seedEnrollments(sys, prospectIds, binding, true);
  // The same binding caps again, through Bottleneck (its limiters are keys of their own).
  const bottleneckBindingEnrollments = await seedEnrollments(sys, prospectIds, binding, true);
  // on = the Lua buckets (the default), bottleneck = the same caps through Bottleneck, off = none.
  type Mode = 'on' | 'bottleneck' | 'off';
  type Triple = Record<Mode, string[]>;
  const bursts: Triple[] = [];
  const streams: Triple[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    bursts.push({
      on: await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open),
      bottleneck: await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open),
      off: await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open),
    });
    streams.push({
      on: await seedEnrollments(sys, prospectIds.slice(0, PACED_TOUCHES), open),
      bottleneck: await seedEnrollments(sys, prospectIds.slice(0, PACED_TOUCHES), open),
      off: await seedEnrollments(sys, prospectIds.slice(0, PACED_TOUCHES), open),
    });
  }
  // A fresh database's empty touch table gives plans that cost more with every send (see seedHistory).
  await seedHistory(sys, await seedEnrollments(sys, prospectIds, open));
  process.stdout.write(`seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);

  const raw = await rawBullmq(sys, TOUCHES, CONCURRENCY);
  process.stdout.write(`raw BullMQ no-op: ${Math.round(raw.perSecond)} jobs/s\n`);

  // The Lua buckets on a connection of their own, auto-pipelined, as the sender runs them
  // (apps/sender/src/start.ts), not on the producer the touch queue's adds go through.
  const throttleRedis = createRedisClient({ url: sys.env.REDIS_URL as string }, 'producer', {
    autoPipelining: true,
    connectionName: 'touchbase-throttle',
  });
  await redisReady(throttleRedis);
  const throttleOf = (kind: ThrottleKind, spacingJitter = 0) =>
    new TimedThrottle(
      createThrottle(kind, kind === 'lua' ? throttleRedis : sys.rt.redis.producer, {
        prefix: sys.env.REDIS_PREFIX as string,
        timeScale: TIME_SCALE,
        spacingJitter,
      }),
    );
  const bindingThrottle = throttleOf('lua', 0.3);
  const capped = await dispatch(sys, SENDER, bindingEnrollments, bindingThrottle);
  process.stdout.write(
    `caps binding: ${Math.round(capped.perSecond)} touches/s, lag p50 ${capped.lagP50} ms p99 ${capped.lagP99} ms\n`,
  );

  const { violations, spacingViolations, receiptViolations } = await capViolations(
    sys,
    bindingThrottle,
    BINDING,
    TIME_SCALE,
    binding,
    bindingEnrollments,
  );

  const bottleneckBinding = throttleOf('bottleneck');
  const bnCapped = await dispatch(sys, SENDER, bottleneckBindingEnrollments, bottleneckBinding);
  const bn = await capViolations(
    sys,
    bottleneckBinding,
    BINDING,
    TIME_SCALE,
    binding,
    bottleneckBindingEnrollments,
  );
  await bottleneckBinding.close();
  process.stdout.write(
    `caps binding, Bottleneck: ${Math.round(bnCapped.perSecond)} touches/s, lag p99 ${bnCapped.lagP99} ms, violations ${bn.violations}+${bn.spacingViolations}\n`,
  );

  const openThrottle = (mode: Mode) =>
    mode === 'off' ? null : throttleOf(mode === 'on' ? 'lua' : 'bottleneck');
  const onBursts: Run[] = [];
  const offBursts: Run[] = [];
  const bnBursts: Run[] = [];
  const onStreams: Run[] = [];
  const offStreams: Run[] = [];
  const bnStreams: Run[] = [];
  const burstsOf = { on: onBursts, off: offBursts, bottleneck: bnBursts };
  const streamsOf = { on: onStreams, off: offStreams, bottleneck: bnStreams };
  for (let r = 0; r < ROUNDS; r++) {
    // The order turns each round: this machine's load drifts, and turns keep the drift out of the ratios.
    const turns: Mode[][] = [
      ['on', 'bottleneck', 'off'],
      ['off', 'on', 'bottleneck'],
      ['bottleneck', 'off', 'on'],
    ];
    const order = turns[r % 3]!;
    for (const mode of order) {
      const throttle = openThrottle(mode);
      const burst = await dispatch(sys, SENDER, bursts[r]![mode], throttle);
      await throttle?.close();
      burstsOf[mode].push(burst);
      process.stdout.write(
        `round ${r + 1} burst, buckets ${mode}: ${Math.round(burst.perSecond)} touches/s\n`,
      );
    }
    for (const mode of order) {
      const throttle = openThrottle(mode);
      const stream = await dispatch(sys, SENDER, streams[r]![mode], throttle, PACED_RATE);
      await throttle?.close();
      streamsOf[mode].push(stream);
      process.stdout.write(
        `round ${r + 1} paced ${PACED_RATE}/s, buckets ${mode}: lag p50 ${stream.lagP50} ms p99 ${stream.lagP99} ms\n`,
      );
    }
  }
  // What one bucket decision adds to a send when nothing else runs: sequential
  // calls over every mailbox (the paced streams above include this machine's noise).
  const alone = throttleOf('lua');
  for (let i = 0; i < 10 * MAILBOXES; i++) await alone.take(open[i % open.length]!, OPEN, `alone-${i}`);
  const aloneP50 = percentile(alone.ms, 50);
  const aloneP99 = percentile(alone.ms, 99);
  process.stdout.write(
    `bucket decision alone: p50 ${aloneP50.toFixed(3)} ms, p99 ${aloneP99.toFixed(3)} ms\n`,
  );
  const roundDiffs = onStreams.map((x, r) => x.lagP99 - offStreams[r]!.lagP99).sort((a, b) => a - b);

  const rate = (runs: Run[]) => (runs.length * COST_TOUCHES) / runs.reduce((a, x) => a + x.seconds, 0);
  const on = {
    perSecond: rate(onBursts),
    throttleP99: percentile(
      onBursts.map((x) => x.throttleP99 ?? 0),
      50,
    ),
  };
  const off = { perSecond: rate(offBursts) };
  const merged = (runs: Run[]) => runs.flatMap((x) => x.lags).sort((a, b) => a - b);
  const pacedOnLags = merged(onStreams);
  const pacedOffLags = merged(offStreams);
  const pacedOn = {
    lagP50: percentile(pacedOnLags, 50, true),
    lagP99: percentile(pacedOnLags, 99, true),
    throttleP99: percentile(
      onStreams.map((x) => x.throttleP99 ?? 0),
      50,
    ),
  };
  const pacedOff = { lagP50: percentile(pacedOffLags, 50, true), lagP99: percentile(pacedOffLags, 99, true) };
  process.stdout.write(
    `limiter cost: burst ${Math.round(on.perSecond)} vs ${Math.round(off.perSecond)} touches/s (on/off); paced lag p99 ${pacedOn.lagP99} vs ${pacedOff.lagP99} ms\n`,
  );

  const sideBySide = throttleSideBySide(
    {
      capped,
      violations: { violations, spacingViolations, receiptViolations },
      bursts: onBursts,
      streams: onStreams,
    },
    { capped: bnCapped, violations: bn, bursts: bnBursts, streams: bnStreams },
    { bursts: offBursts, streams: offStreams },
    COST_TOUCHES,
  );
  process.stdout.write(`throttle side by side: ${JSON.stringify(sideBySide)}\n`);

  const batchSizes = await meanBatchSizes(sys);
  process.stdout.write(`mean touches per batched call: ${JSON.stringify(batchSizes)}\n`);
  const deliveries = sys.sandbox.deliveries();
  const duplicates = deliveries.length - new Set(deliveries.map((d) => d.idempotencyKey)).size;
  const ratio = on.perSecond / raw.perSecond;
  const burstCpu = cpuPerUnit(
    'burstBucketsOn',
    mergeCpuSplits(onBursts.map((x) => x.cpu)),
    onBursts.length * COST_TOUCHES,
    machine.cores,
  );
  const checks: BenchCheck[] = [
    check('touches/s, caps not binding, buckets on (burst)', on.perSecond, '>=', 2_000),
    check('p99 lag due → send, paced below capacity, buckets on (ms)', pacedOn.lagP99, '<', 1_000),
    check('cap violations (grant log)', violations + spacingViolations, '<=', 0),
    check('duplicate deliveries', duplicates, '<=', 0),
    check('touches/s with buckets on over buckets off', on.perSecond / off.perSecond, '>=', 0.95),
    check('p99 of one bucket decision, the latency it adds to a send (ms)', aloneP99, '<=', 5),
  ];
  await finishBench({
    name: 'dispatch',
    figures: {
      mailboxes: MAILBOXES,
      touches: TOUCHES,
      concurrency: CONCURRENCY,
      timeScale: TIME_SCALE,
      providerRecheck: RECHECK,
      cappedTouchesPerSecond: round(capped.perSecond),
      cappedSeconds: round(capped.seconds),
      cappedLagP50Ms: round(capped.lagP50),
      cappedLagP99Ms: round(capped.lagP99),
      cappedTouchesThatWaited: capped.throttled,
      capViolations: violations,
      spacingViolations,
      capViolationsByReceiptTime: receiptViolations,
      costRounds: ROUNDS,
      costTouchesPerBurst: COST_TOUCHES,
      burstBucketsOnTouchesPerSecond: round(on.perSecond),
      burstBucketsOffTouchesPerSecond: round(off.perSecond),
      bucketsOnOverOff: round(on.perSecond / off.perSecond),
      burstBucketDecisionP99Ms: round(on.throttleP99 ?? Number.NaN),
      pacedRatePerSecond: PACED_RATE,
      pacedTouchesPerStream: PACED_TOUCHES,
      pacedBucketsOnLagP50Ms: round(pacedOn.lagP50),
      pacedBucketsOnLagP99Ms: round(pacedOn.lagP99),
      pacedBucketsOffLagP50Ms: round(pacedOff.lagP50),
      pacedBucketsOffLagP99Ms: round(pacedOff.lagP99),
      lagP99AddedByBucketsMs: round(pacedOn.lagP99 - pacedOff.lagP99),
      lagP99AddedByBucketsMedianOfRoundsMs: round(percentile(roundDiffs, 50, true)),
      bucketDecisionAloneP50Ms: round(aloneP50),
      bucketDecisionAloneP99Ms: round(aloneP99),
      pacedBucketDecisionP99Ms: round(pacedOn.throttleP99 ?? Number.NaN),
      duplicateDeliveries: duplicates,
      ...sideBySide,
      ...burstCpu,
      ...Object.fromEntries(
        Object.entries(batchSizes).map(([k, v]) => [`meanTouchesPer${k[0]!.toUpperCase()}${k.slice(1)}`, v]),
      ),
    },
    baseline: {
      rawNoopJobsPerSecond: round(raw.perSecond),
      rawSeconds: round(raw.seconds),
      concurrency: CONCURRENCY,
    },
    ratio: round(ratio),
    checks,
    notes: [
      `caps binding: ${BINDING.perMinute}/minute and ${BINDING.minSpacingMs} ms spacing per mailbox at TIME_SCALE ${TIME_SCALE} (a minute lasts ${60 / TIME_SCALE} s); ${TOUCHES / MAILBOXES} touches a mailbox due at once`,
      'ratio = touches/s of the burst with caps open and buckets on, over raw BullMQ no-op jobs/s at the same concurrency',
      RECHECK
        ? 'the sender asks the sandbox for the prospect before each send (pre-send re-check, the default)'
        : 'pre-send provider re-check OFF (BENCH_DISPATCH_RECHECK=0): one HTTP round trip a touch fewer than the default',
      'bucketDecision*: wall time of one bucket call as the sender sees it (the burst and paced ones include event-loop waits of a busy process; *Alone is the call by itself)',
      'lagP99AddedByBuckets*: paced stream, buckets on minus off; on a shared 2-core machine its run-to-run noise is tens of ms, larger than the effect',
      'burstBucketsOnCpuUs* = CPU microseconds per touch during the bursts with buckets on, by part (Node = this process: sender, sandbox and clients; other = the rest of the machine, kernel included); CpuBoundPerSecond = cores × 1 s / CpuUsTotal, the rate at which that cost fills every core (a ceiling)',
      'throttle: the Lua buckets (SENDER_THROTTLE=lua, the default) and Bottleneck on its Redis datastore side by side in this run: bursts with caps open (touches/s, Redis CPU us per touch), paced streams (p99 lag added over buckets off), and the binding caps (violations on the grant log: Redis clock for Lua, Node clock for Bottleneck)',
      'capViolations counts grants against the sliding windows in Redis time; capViolationsByReceiptTime uses the sandbox clock after the claim and the HTTP call (informational)',
      'machine: ' +
        `${machine.cores} cores, ${machine.memoryGb} GB, node ${machine.node}, redis ${machine.redis}, postgres ${machine.postgres}`,
    ],
  });
  await throttleRedis.quit();
} finally {
  await sys.stop();
}

/**
 * BENCH_DISPATCH_COST_ONLY: the bursts with caps open, Lua buckets on and off taking
 * turns, on mailboxes and enrollments of their own; prints each burst, the ratio and
 * the CPU per touch of each mode by part (this process, PostgreSQL, Redis, the rest).
 */
async function costOnly(
  sys: Awaited<ReturnType<typeof startTestSystem>>,
  prospectIds: string[],
): Promise<void> {
  const open = await seedMailboxes(sys, 'open', OPEN, MAILBOXES);
  // The first burst of a fresh process runs cold (its code not yet compiled): not counted.
  const warm = await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open);
  const sets: Record<'on' | 'off', string[]>[] = [];
  for (let r = 0; r < ROUNDS; r++)
    sets.push({
      on: await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open),
      off: await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open),
    });
  await seedHistory(sys, await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open));
  const throttleRedis = createRedisClient({ url: sys.env.REDIS_URL as string }, 'producer', {
    autoPipelining: true,
    connectionName: 'touchbase-throttle',
  });
  await redisReady(throttleRedis);
  const throttleOf = () =>
    new TimedThrottle(
      createThrottle('lua', throttleRedis, { prefix: sys.env.REDIS_PREFIX as string, timeScale: TIME_SCALE }),
    );
  await dispatch(sys, SENDER, warm, throttleOf());
  const runs: Record<'on' | 'off', Run[]> = { on: [], off: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const throttle = mode === 'on' ? throttleOf() : null;
      const burst = await dispatch(sys, SENDER, sets[r]![mode], throttle);
      await throttle?.close();
      runs[mode].push(burst);
      process.stdout.write(
        `round ${r + 1} burst, buckets ${mode}: ${Math.round(burst.perSecond)} touches/s (load ${(await machineLoad()).join(' ')})\n`,
      );
    }
  }
  const rate = (xs: Run[]) => (xs.length * COST_TOUCHES) / xs.reduce((a, x) => a + x.seconds, 0);
  process.stdout.write(
    `buckets on over off: ${round(rate(runs.on) / rate(runs.off))} (${Math.round(rate(runs.on))} vs ${Math.round(rate(runs.off))} touches/s)\n`,
  );
  for (const mode of ['on', 'off'] as const)
    process.stdout.write(
      `cpu a touch, buckets ${mode}: ${JSON.stringify(cpuPerUnit(mode, mergeCpuSplits(runs[mode].map((x) => x.cpu)), runs[mode].length * COST_TOUCHES, machine.cores))}\n`,
    );
  await throttleRedis.quit();
}

async function machineLoad(): Promise<string[]> {
  return (await import('node:fs/promises'))
    .readFile('/proc/loadavg', 'utf8')
    .then((l) => l.split(' ').slice(0, 3));
}
