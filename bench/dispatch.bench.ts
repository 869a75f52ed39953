import { randomUUID } from 'node:crypto';
import { countCapViolations, type MailboxLimits, MailboxThrottle } from '@touchbase/providers';
import { createRedis, type TouchQueue } from '@touchbase/queues';
import { buildSender } from '@touchbase/sender';
import { Queue, Worker } from 'bullmq';
import { startTestSystem, type TestSystem } from '../test/support/test-system.js';
import {
  type BenchCheck,
  type CpuSplit,
  check,
  cpuPerUnit,
  finishBench,
  machineInfo,
  mergeCpuSplits,
  percentile,
  round,
  startCpuMeter,
} from './lib/index.js';

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
const TIME_SCALE = 60;
const BINDING: MailboxLimits = { perMinute: 5, perHour: 1_000, perDay: 10_000, minSpacingMs: 6_000 };
const OPEN: MailboxLimits = { perMinute: 100_000, perHour: 1_000_000, perDay: 1_000_000, minSpacingMs: 0 };

const chunks = <T>(xs: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

/** Mailboxes with the given caps on one sending domain. */
async function seedMailboxes(sys: TestSystem, label: string, limits: MailboxLimits): Promise<string[]> {
  const pool = sys.rt.db.pool;
  const domainId = randomUUID();
  await pool.query('INSERT INTO sending_domain (id, domain) VALUES ($1, $2)', [
    domainId,
    `${label}.bench.example`,
  ]);
  const ids = Array.from({ length: MAILBOXES }, () => randomUUID());
  await pool.query(
    `INSERT INTO mailbox (id, provider, address, domain_id, per_minute, per_hour, per_day, min_spacing_ms, window_days)
     SELECT m.id, 'sandbox', m.address, $3, $4, $5, $6, $7, '{}' FROM unnest($1::uuid[], $2::text[]) AS m(id, address)`,
    [
      ids,
      ids.map((_, i) => `sdr${i}@${label}.bench.example`),
      domainId,
      limits.perMinute,
      limits.perHour,
      limits.perDay,
      limits.minSpacingMs,
    ],
  );
  return ids;
}

/**
 * One enrollment per prospect on a new one-step sequence. `grouped`: each
 * mailbox's enrollments are consecutive (its touches queue together and meet its
 * caps); otherwise round-robin over the mailboxes.
 */
async function seedEnrollments(
  sys: TestSystem,
  prospectIds: string[],
  mailboxIds: string[],
  grouped = false,
): Promise<string[]> {
  const per = Math.ceil(prospectIds.length / mailboxIds.length);
  const mailboxOf = (i: number) => mailboxIds[grouped ? Math.floor(i / per) : i % mailboxIds.length];
  // The step's wait is a month (12 h at TIME_SCALE 60): the job that would end the
  // enrollment stays delayed and never competes with the run.
  const seq = await sys.api('POST', '/v1/sequences', {
    name: `bench-${randomUUID().slice(0, 8)}`,
    steps: [{ subject: 'Hello {{firstName|there}}', body: 'A touch for {{firstName|you}}', wait: '30d' }],
  });
  if (seq.status !== 201) throw new Error(`sequence: ${JSON.stringify(seq.body)}`);
  const ids = prospectIds.map(() => randomUUID());
  for (const part of chunks(
    ids.map((id, i) => [id, prospectIds[i], mailboxOf(i)] as const),
    5_000,
  )) {
    await sys.rt.db.pool.query(
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step, next_touch_at)
       SELECT e.id, e.prospect_id, $4, $5, e.mailbox_id, 'active', 1, now() FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS e(id, prospect_id, mailbox_id)`,
      [part.map((r) => r[0]), part.map((r) => r[1]), part.map((r) => r[2]), seq.body.id, seq.body.version.id],
    );
  }
  return ids;
}

/** Queues step 1 of each enrollment, due at `dueAt(i)`. */
async function enqueue(
  queue: TouchQueue,
  enrollmentIds: string[],
  dueAt: (i: number) => Date,
): Promise<void> {
  const now = Date.now();
  for (const [k, part] of chunks(enrollmentIds, 1_000).entries()) {
    await queue.schedule(
      part.map((enrollmentId, j) => ({ enrollmentId, step: 1, dueAt: dueAt(k * 1_000 + j) })),
      now,
    );
  }
}

/** A throttle that times each decision, for the limiter's own cost. */
class TimedThrottle extends MailboxThrottle {
  readonly ms: number[] = [];
  override async take(...args: Parameters<MailboxThrottle['take']>) {
    const t0 = performance.now();
    try {
      return await super.take(...args);
    } finally {
      this.ms.push(performance.now() - t0);
    }
  }
}

type Run = {
  seconds: number;
  perSecond: number;
  lagP50: number;
  lagP99: number;
  lags: number[];
  throttleP99: number | null;
  throttled: number;
  /** CPU spent from the sender's start to the last delivery, by part. */
  cpu: CpuSplit | null;
};

/**
 * Starts a sender over the touches; waits until the sandbox has them all. With
 * `ratePerSecond`, touch i is due at start + i / rate (a paced stream); otherwise
 * all are due at once, when the sender starts.
 */
async function dispatch(
  sys: TestSystem,
  enrollmentIds: string[],
  throttle: TimedThrottle | null,
  ratePerSecond?: number,
): Promise<Run> {
  const index = new Map(enrollmentIds.map((id, i) => [id, i]));
  const before = sys.sandbox.deliveries().length;
  // Paced touches start a little ahead, so the first ones do not wait for the worker to connect.
  const start = Date.now() + (ratePerSecond ? 1_000 : 0);
  const dueOf = (i: number) => start + (ratePerSecond ? Math.round((i * 1000) / ratePerSecond) : 0);
  await enqueue(sys.rt.touchQueue, enrollmentIds, (i) => new Date(dueOf(i)));
  const connection = createRedis(sys.env.REDIS_URL as string, 'worker');
  const skippedBefore = await throttledCount(sys);
  const dueAt = ratePerSecond ? start : Date.now();
  const meter = await startCpuMeter();
  const worker = buildSender({
    repos: sys.rt.repos,
    touchQueue: sys.rt.touchQueue,
    providers: sys.rt.providers,
    connection,
    prefix: sys.env.REDIS_PREFIX as string,
    logger: sys.rt.logger,
    metrics: sys.rt.metrics,
    concurrency: CONCURRENCY,
    timeScale: TIME_SCALE,
    recheck: RECHECK,
    ...(throttle ? { throttle } : {}),
  });
  const target = before + enrollmentIds.length;
  while (sys.sandbox.deliveries().length < target) await new Promise((r) => setTimeout(r, 20));
  const seconds = (Date.now() - dueAt) / 1000;
  const cpu = await meter.stop();
  await worker.close();
  await connection.quit();
  const lags = sys.sandbox
    .deliveries()
    .slice(before)
    .filter((d) => index.has(d.enrollmentId))
    .map((d) => Date.parse(d.at) - (ratePerSecond ? dueOf(index.get(d.enrollmentId) as number) : dueAt))
    .sort((a, b) => a - b);
  return {
    seconds,
    perSecond: enrollmentIds.length / seconds,
    lagP50: percentile(lags, 50, true),
    lagP99: percentile(lags, 99, true),
    lags,
    throttleP99: throttle ? percentile(throttle.ms, 99) : null,
    throttled: (await throttledCount(sys)) - skippedBefore,
    cpu,
  };
}

/** Mean touches per batched call of the sender so far, by kind (load, claim, record, schedule). */
async function meanBatchSizes(sys: TestSystem): Promise<Record<string, number>> {
  const metric = await sys.rt.metrics.senderBatchSize.get();
  const sum = new Map<string, number>();
  const count = new Map<string, number>();
  for (const v of metric.values) {
    const kind = String(v.labels.kind);
    if (v.metricName?.endsWith('_sum')) sum.set(kind, v.value);
    if (v.metricName?.endsWith('_count')) count.set(kind, v.value);
  }
  return Object.fromEntries(
    [...count].map(([k, n]) => [k, Math.round(((sum.get(k) ?? 0) / Math.max(1, n)) * 10) / 10]),
  );
}

async function throttledCount(sys: TestSystem): Promise<number> {
  const metric = await sys.rt.metrics.touchesSkipped.get();
  return metric.values.filter((v) => v.labels.reason === 'throttled').reduce((a, v) => a + v.value, 0);
}

/** Raw BullMQ: the same number of no-op jobs, same Redis, same concurrency. */
async function rawBullmq(sys: TestSystem): Promise<{ seconds: number; perSecond: number }> {
  const producer = createRedis(sys.env.REDIS_URL as string, 'producer');
  const connection = createRedis(sys.env.REDIS_URL as string, 'worker');
  const prefix = sys.env.REDIS_PREFIX as string;
  const queue = new Queue('raw-noop', { connection: producer, prefix });
  for (const part of chunks(
    Array.from({ length: TOUCHES }, (_, i) => i),
    1_000,
  )) {
    await queue.addBulk(
      part.map((i) => ({
        name: 'noop',
        data: { e: randomUUID(), s: 1 },
        opts: { jobId: `raw-${i}`, removeOnComplete: true },
      })),
    );
  }
  let done = 0;
  const started = Date.now();
  const finished = new Promise<void>((resolve) => {
    const worker = new Worker('raw-noop', async () => 'ok', { connection, prefix, concurrency: CONCURRENCY });
    worker.on('completed', () => {
      if (++done === TOUCHES) void worker.close().then(resolve);
    });
  });
  await finished;
  const seconds = (Date.now() - started) / 1000;
  await queue.obliterate({ force: true });
  await queue.close();
  await Promise.all([producer.quit(), connection.quit()]);
  return { seconds, perSecond: TOUCHES / seconds };
}

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
try {
  const seedStarted = Date.now();
  const prospectIds = Array.from({ length: TOUCHES }, () => randomUUID());
  await sys.rt.db.pool.query(
    `INSERT INTO prospect (id, email, first_name) SELECT p.id, 'p' || p.n || '@dispatch.bench.example', 'P' || p.n
     FROM unnest($1::uuid[]) WITH ORDINALITY AS p(id, n)`,
    [prospectIds],
  );
  const binding = await seedMailboxes(sys, 'binding', BINDING);
  const open = await seedMailboxes(sys, 'open', OPEN);
  const bindingEnrollments = await seedEnrollments(sys, prospectIds, binding, true);
  type Pair = { on: string[]; off: string[] };
  const bursts: Pair[] = [];
  const streams: Pair[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    bursts.push({
      on: await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open),
      off: await seedEnrollments(sys, prospectIds.slice(0, COST_TOUCHES), open),
    });
    streams.push({
      on: await seedEnrollments(sys, prospectIds.slice(0, PACED_TOUCHES), open),
      off: await seedEnrollments(sys, prospectIds.slice(0, PACED_TOUCHES), open),
    });
  }
  // A running database has history and planner statistics over it. A fresh one has
  // an empty touch table until its first minute of sends, and plans made for an empty
  // table (a scan of it) then cost more with every touch recorded. So: the sends of a
  // finished campaign (three touches each), then ANALYZE, as autovacuum would have.
  const history = await seedEnrollments(sys, prospectIds, open);
  await sys.rt.db.pool.query(
    `WITH ended AS (
       UPDATE enrollment SET status = 'exhausted', current_step = 4, next_touch_at = NULL
       WHERE id = ANY($1::uuid[]) RETURNING id)
     INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, provider_message_id, sent_at, variant)
     SELECT gen_random_uuid(), ended.id, s, 1, 'sent', ended.id || '-' || s, gen_random_uuid()::text, now() - interval '40 days', 0
     FROM ended CROSS JOIN generate_series(1, 3) s`,
    [history],
  );
  await sys.rt.db.pool.query('ANALYZE');
  process.stdout.write(`seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);

  const raw = await rawBullmq(sys);
  process.stdout.write(`raw BullMQ no-op: ${Math.round(raw.perSecond)} jobs/s\n`);

  const bindingThrottle = new TimedThrottle(sys.rt.redis.producer, {
    prefix: sys.env.REDIS_PREFIX as string,
    timeScale: TIME_SCALE,
    spacingJitter: 0.3,
  });
  const capped = await dispatch(sys, bindingEnrollments, bindingThrottle);
  process.stdout.write(
    `caps binding: ${Math.round(capped.perSecond)} touches/s, lag p50 ${capped.lagP50} ms p99 ${capped.lagP99} ms\n`,
  );

  // Cap violations over the grant log the script keeps (Redis clock), and over
  // the sandbox's receipt times (Node clock, after the claim and the HTTP call).
  const windows = bindingThrottle.windows(BINDING);
  let violations = 0;
  let spacingViolations = 0;
  for (const id of binding) {
    const grants = await bindingThrottle.grants(id);
    violations += countCapViolations(grants, windows);
    for (let i = 1; i < grants.length; i++)
      if (grants[i]! - grants[i - 1]! < BINDING.minSpacingMs / TIME_SCALE) spacingViolations++;
  }
  const byMailbox = new Map<string, number[]>();
  const bindingSet = new Set(bindingEnrollments);
  for (const d of sys.sandbox.deliveries()) {
    if (!bindingSet.has(d.enrollmentId)) continue;
    byMailbox.set(d.from, [...(byMailbox.get(d.from) ?? []), Date.parse(d.at)]);
  }
  let receiptViolations = 0;
  for (const times of byMailbox.values()) receiptViolations += countCapViolations(times, windows);

  const openThrottle = () =>
    new TimedThrottle(sys.rt.redis.producer, {
      prefix: sys.env.REDIS_PREFIX as string,
      timeScale: TIME_SCALE,
    });
  const onBursts: Run[] = [];
  const offBursts: Run[] = [];
  const onStreams: Run[] = [];
  const offStreams: Run[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // On first in even rounds, off first in odd ones.
    const order: ('on' | 'off')[] = r % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    for (const mode of order) {
      const burst = await dispatch(sys, bursts[r]![mode], mode === 'on' ? openThrottle() : null);
      (mode === 'on' ? onBursts : offBursts).push(burst);
      process.stdout.write(
        `round ${r + 1} burst, buckets ${mode}: ${Math.round(burst.perSecond)} touches/s\n`,
      );
    }
    for (const mode of order) {
      const stream = await dispatch(
        sys,
        streams[r]![mode],
        mode === 'on' ? openThrottle() : null,
        PACED_RATE,
      );
      (mode === 'on' ? onStreams : offStreams).push(stream);
      process.stdout.write(
        `round ${r + 1} paced ${PACED_RATE}/s, buckets ${mode}: lag p50 ${stream.lagP50} ms p99 ${stream.lagP99} ms\n`,
      );
    }
  }
  // What one bucket decision adds to a send when nothing else runs: sequential
  // calls over every mailbox (the paced streams above include this machine's noise).
  const alone = openThrottle();
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
    check('touches/s with buckets on over buckets off', on.perSecond / off.perSecond, '>=', 0.9),
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
      'capViolations counts grants against the sliding windows in Redis time; capViolationsByReceiptTime uses the sandbox clock after the claim and the HTTP call (informational)',
      'machine: ' +
        `${machine.cores} cores, ${machine.memoryGb} GB, node ${machine.node}, redis ${machine.redis}, postgres ${machine.postgres}`,
    ],
  });
} finally {
  await sys.stop();
}
