import { randomUUID } from 'node:crypto';
import {
  countCapViolations,
  type MailboxLimits,
  MailboxThrottle,
  type Throttle,
  type ThrottleDecision,
} from '@touchbase/providers';
import { createRedis } from '@touchbase/queues';
import { buildSender } from '@touchbase/sender';
import { Queue, Worker } from 'bullmq';
import type { TestSystem } from '../../test/support/test-system.js';
import { type CpuSplit, startCpuMeter } from './cpu-meter.js';
import { chunks, enqueue } from './dispatch-seed.js';
import { percentile } from './percentile.js';

/** How the sender runs in every dispatch of a bench. */
export type SenderSettings = { concurrency: number; timeScale: number; recheck: boolean };

/**
 * Any Throttle, timing each decision (the limiter's own cost) and logging each grant's
 * time by mailbox (Redis clock for the Lua buckets, Node clock for Bottleneck).
 */
export class TimedThrottle implements Throttle {
  readonly ms: number[] = [];
  /** First grant of each member by mailbox: a re-take of the same member (back from a wait, a 429) is one send. */
  readonly grantLog = new Map<string, Map<string, number>>();
  readonly kind: Throttle['kind'];

  constructor(readonly inner: Throttle) {
    this.kind = inner.kind;
  }

  async take(...args: Parameters<Throttle['take']>): Promise<ThrottleDecision> {
    const t0 = performance.now();
    try {
      const d = await this.inner.take(...args);
      // The Lua buckets keep their own grant log in Redis (see grants): no copy here, whose
      // bookkeeping (a map entry a touch, held to the end) would be charged to buckets on.
      if (d.granted && !(this.inner instanceof MailboxThrottle)) {
        const byMember = this.grantLog.get(args[0]) ?? new Map<string, number>();
        if (!byMember.has(args[2])) byMember.set(args[2], d.at);
        this.grantLog.set(args[0], byMember);
      }
      return d;
    } finally {
      this.ms.push(performance.now() - t0);
    }
  }

  release(mailboxId: string, member: string) {
    return this.inner.release(mailboxId, member);
  }

  usedToday(ids: string[]) {
    return this.inner.usedToday(ids);
  }

  windows(limits: MailboxLimits) {
    return this.inner.windows(limits);
  }

  close() {
    return this.inner.close();
  }

  /** Grant times of a mailbox: the Lua script's own log, else what this wrapper saw. */
  async grants(mailboxId: string): Promise<number[]> {
    if (this.inner instanceof MailboxThrottle) return this.inner.grants(mailboxId);
    return [...(this.grantLog.get(mailboxId)?.values() ?? [])].sort((a, b) => a - b);
  }
}

/** What one dispatch measured. */
export type Run = {
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
export async function dispatch(
  sys: TestSystem,
  settings: SenderSettings,
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
    concurrency: settings.concurrency,
    timeScale: settings.timeScale,
    recheck: settings.recheck,
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

/**
 * Cap violations of the binding run, counted over the grant log the throttle's
 * script keeps (Redis clock), and over the sandbox's receipt times (Node clock,
 * after the claim and the HTTP call).
 */
export async function capViolations(
  sys: TestSystem,
  throttle: TimedThrottle,
  limits: MailboxLimits,
  timeScale: number,
  mailboxIds: string[],
  enrollmentIds: string[],
): Promise<{ violations: number; spacingViolations: number; receiptViolations: number }> {
  const windows = throttle.windows(limits);
  let violations = 0;
  let spacingViolations = 0;
  for (const id of mailboxIds) {
    const grants = await throttle.grants(id);
    violations += countCapViolations(grants, windows);
    for (let i = 1; i < grants.length; i++)
      if (grants[i]! - grants[i - 1]! < limits.minSpacingMs / timeScale) spacingViolations++;
  }
  const byMailbox = new Map<string, number[]>();
  const enrolled = new Set(enrollmentIds);
  for (const d of sys.sandbox.deliveries()) {
    if (!enrolled.has(d.enrollmentId)) continue;
    byMailbox.set(d.from, [...(byMailbox.get(d.from) ?? []), Date.parse(d.at)]);
  }
  let receiptViolations = 0;
  for (const times of byMailbox.values()) receiptViolations += countCapViolations(times, windows);
  return { violations, spacingViolations, receiptViolations };
}

/** Mean touches per batched call of the sender so far, by kind (load, claim, record, schedule). */
export async function meanBatchSizes(sys: TestSystem): Promise<Record<string, number>> {
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

/**
 * Raw BullMQ: `jobs` no-op jobs, same Redis, same concurrency. A queue of its own
 * built by hand on purpose: the baseline is BullMQ without our contract.
 */
export async function rawBullmq(
  sys: TestSystem,
  jobs: number,
  concurrency: number,
): Promise<{ seconds: number; perSecond: number }> {
  const producer = createRedis(sys.env.REDIS_URL as string, 'producer');
  const connection = createRedis(sys.env.REDIS_URL as string, 'worker');
  const prefix = sys.env.REDIS_PREFIX as string;
  const queue = new Queue('raw-noop', { connection: producer, prefix });
  for (const part of chunks(
    Array.from({ length: jobs }, (_, i) => i),
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
    const worker = new Worker('raw-noop', async () => 'ok', { connection, prefix, concurrency });
    worker.on('completed', () => {
      if (++done === jobs) void worker.close().then(resolve);
    });
  });
  await finished;
  const seconds = (Date.now() - started) / 1000;
  await queue.obliterate({ force: true });
  await queue.close();
  await Promise.all([producer.quit(), connection.quit()]);
  return { seconds, perSecond: jobs / seconds };
}
