import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { check, type Figures, finishBench } from './lib/index.js';

/**
 * `npm run faults:full`: the repeated sender kill fault test at the size the promise
 * names (FAULT_KILLS=20, FAULT_KILL_ENROLLMENTS=2000; either can be overridden), run
 * by vitest in its own process. Its figures (deliveries, duplicates, lost, touches in
 * doubt and how each was resolved) are recorded in bench/RESULTS.md like a bench's,
 * and end the output as one JSON line. Exits 1 when the test failed or printed no figures.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const KILLS = process.env.FAULT_KILLS ?? '20';
const ENROLLMENTS = process.env.FAULT_KILL_ENROLLMENTS ?? '2000';
const TEST = 'test/faults/sender-kill-repeated.e2e.test.ts';

const started = Date.now();
const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', TEST], {
    cwd: root,
    env: { ...process.env, FAULT_KILLS: KILLS, FAULT_KILL_ENROLLMENTS: ENROLLMENTS },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    process.stdout.write(d);
    out += String(d);
    if (out.length > 2_000_000) out = out.slice(-200_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', (c) => resolve({ code: c, output: out }));
});
const seconds = Math.round((Date.now() - started) / 1000);

const line = output.split('\n').find((l) => l.includes('"test":"sender-sigkill-repeated"'));
const report = line ? (JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>) : null;
if (!report) {
  process.stderr.write(`faults:full: the test printed no figures (vitest exited ${code})\n`);
  process.exit(1);
}

const num = (k: string) => (typeof report[k] === 'number' ? (report[k] as number) : Number.NaN);
const resolution = (report.resolution ?? {}) as Record<string, number>;
const final = (report.final ?? {}) as Record<string, number>;
const figures: Figures = {
  enrollments: num('enrollments'),
  killsAsked: Number(KILLS),
  kills: num('kills'),
  deliveries: num('deliveries'),
  providerRequests: num('providerRequests'),
  duplicates: num('duplicates'),
  lost: num('lost'),
  deliveredNotRecordedSent: num('deliveredNotRecordedSent'),
  leftSending: num('leftSending'),
  touchesInDoubt: num('touchesInDoubt'),
  ...Object.fromEntries(Object.entries(final).map(([k, v]) => [`enrollments ${k}`, v])),
  ...Object.fromEntries(Object.entries(resolution).map(([k, v]) => [`in doubt: ${k}`, v])),
  testPassed: code === 0,
  seconds,
};
await finishBench({
  name: 'faults-full (sender kill)',
  figures,
  checks: [
    check('deliveries twice for one (enrollment, step)', num('duplicates'), '<=', 0),
    check('touches lost (an exhausted enrollment short of a step)', num('lost'), '<=', 0),
    check('touches left in doubt (still sending) at the end', num('leftSending'), '<=', 0),
    check('deliveries not recorded as sent', num('deliveredNotRecordedSent'), '<=', 0),
  ],
  notes: [
    `FAULT_KILLS=${KILLS} FAULT_KILL_ENROLLMENTS=${ENROLLMENTS} npx vitest run ${TEST} (npm run faults:full); vitest ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`,
    'the sender (its own process) is killed with SIGKILL 0-1.5 s after it starts delivering, then restarted, again and again; replies 10% and bounces 5% in the sandbox; the reconciler runs every second',
    'in doubt = a touch left `sending` in PostgreSQL at a kill (claimed, outcome unknown); each is resolved when the restarted sender takes the stalled job over: its claim row marks it in doubt and the provider is asked about it by idempotency key (a touch whose enrollment ended meanwhile is settled the same way)',
  ],
});
process.exitCode = code === 0 ? 0 : 1;
