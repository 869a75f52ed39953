import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import type { MailboxLimits } from '@touchbase/providers';
import { freePort, waitFor } from '@touchbase/testing';
import { killHard, spawnService } from '../test/support/child-service.js';
import { startTestSystem } from '../test/support/test-system.js';
import { enqueue, seedEnrollments, seedHistory, seedMailboxes, seedProspects } from './lib/dispatch-seed.js';
import { machineInfo } from './lib/index.js';

/**
 * Dispatch with 1 and with 2 sender processes (the sender's own `main.ts`, one
 * process each), the rest of the system (sandbox, API, PostgreSQL and Redis) shared:
 * touches/s of each and the ratio 2 : 1. Rounds alternate 1 and 2 senders, so the
 * load this shared machine drifts through falls on both. Caps never bind.
 *
 * Sizes: BENCH_REPLICAS_TOUCHES (2000 a run), BENCH_REPLICAS_ROUNDS (2),
 * BENCH_REPLICAS_CONCURRENCY (50 per process), BENCH_REPLICAS_MAILBOXES (200).
 * `npx tsx bench/dispatch-replicas.bench.ts`
 */
const TOUCHES = Number(process.env.BENCH_REPLICAS_TOUCHES ?? 2_000);
const ROUNDS = Number(process.env.BENCH_REPLICAS_ROUNDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_REPLICAS_CONCURRENCY ?? 50);
const MAILBOXES = Number(process.env.BENCH_REPLICAS_MAILBOXES ?? 200);
const OPEN: MailboxLimits = { perMinute: 100_000, perHour: 1_000_000, perDay: 1_000_000, minSpacingMs: 0 };

const machine = await machineInfo();
process.stdout.write(
  `machine: ${machine.cpuModel}, ${machine.cores} cores; node ${machine.node}, redis ${machine.redis}, postgres ${machine.postgres}\n`,
);
const sys = await startTestSystem(
  'bench_replicas',
  { TIME_SCALE: '60', DATABASE_POOL_SIZE: '20', LOG_LEVEL: 'silent' },
  { withoutSender: true },
);
const senders: ChildProcess[] = [];
try {
  const prospectIds = await seedProspects(sys, TOUCHES);
  const mailboxes = await seedMailboxes(sys, 'open', OPEN, MAILBOXES);
  const plan = Array.from({ length: ROUNDS }, (_, r) => (r % 2 === 0 ? [1, 2] : [2, 1])).flat();
  const sets: string[][] = [];
  for (const _ of plan) sets.push(await seedEnrollments(sys, prospectIds, mailboxes));
  await seedHistory(sys, await seedEnrollments(sys, prospectIds, mailboxes));

  const runs: { senders: number; perSecond: number; load: number }[] = [];
  for (const [i, n] of plan.entries()) {
    const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
    for (const port of ports) {
      senders.push(
        spawnService('sender', {
          ...sys.env,
          SANDBOX_URL: sys.sandbox.url,
          SENDER_CONCURRENCY: String(CONCURRENCY),
          DATABASE_POOL_SIZE: '10',
          METRICS_PORT: String(port),
        }),
      );
    }
    for (const port of ports)
      await waitFor('sender to answer', async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, {
        timeoutMs: 60_000,
        intervalMs: 100,
      });
    const before = sys.sandbox.deliveries().length;
    const load = loadavg()[0]!;
    const started = Date.now();
    await enqueue(sys.rt.touchQueue, sets[i]!, () => new Date(started));
    while (sys.sandbox.deliveries().length < before + TOUCHES) await new Promise((r) => setTimeout(r, 20));
    const seconds = (Date.now() - started) / 1000;
    await Promise.all(senders.splice(0).map(killHard));
    runs.push({ senders: n, perSecond: TOUCHES / seconds, load });
    process.stdout.write(
      `${n} sender process(es): ${Math.round(TOUCHES / seconds)} touches/s (load ${load.toFixed(1)})\n`,
    );
  }
  const mean = (n: number) => {
    const xs = runs.filter((r) => r.senders === n).map((r) => r.perSecond);
    return xs.reduce((a, x) => a + x, 0) / xs.length;
  };
  process.stdout.write(
    `${JSON.stringify({ bench: 'dispatch-replicas', touches: TOUCHES, concurrency: CONCURRENCY, runs, oneSender: Math.round(mean(1)), twoSenders: Math.round(mean(2)), ratio: Math.round((mean(2) / mean(1)) * 100) / 100 })}\n`,
  );
} finally {
  await Promise.all(senders.map(killHard));
  await sys.stop();
}
