import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  appendResults,
  type BenchResult,
  machineInfo,
  parseResultLine,
  rewriteSummary,
} from './lib/index.js';

/**
 * `npm run bench [-- name…]`: runs every `bench/*.bench.ts` one after the other, each
 * in its own process (`node --import tsx`), so one bench's Redis keys, pools and heap
 * never weigh on the next. Collects each one's last JSON line, prints a summary and
 * appends the run to bench/RESULTS.md, whose opening summary (latest run of each bench
 * by machine, target, met or missed) is regenerated. Exits 1 when a bench crashed or
 * printed no result (a missed target is reported, not an error).
 * `npm run bench -- --summary` only regenerates that summary from the history.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 20 * 60_000);

if (process.argv.includes('--summary')) {
  process.stdout.write(`summary rewritten in ${rewriteSummary()}\n`);
  process.exit(0);
}
const filters = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

type Outcome = { file: string; seconds: number; result: BenchResult | null; error?: string };

function runOne(file: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    // Detached: its own process group, so a bench that hangs is killed with any child it started.
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${file}`], {
      cwd: root,
      env: { ...process.env, BENCH_RUN_ALL: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      process.stdout.write(d);
      out += String(d);
      if (out.length > 1_000_000) out = out.slice(-100_000);
    });
    const timer = setTimeout(() => {
      process.stderr.write(`${file}: no result after ${timeoutMs} ms; killed\n`);
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      const result = parseResultLine(out);
      const error =
        code === 0 && result ? undefined : `exited ${signal ?? code}${result ? '' : ', no result line'}`;
      resolve({ file, seconds, result, ...(error ? { error } : {}) });
    });
  });
}

if (files.length === 0) {
  process.stderr.write(`no bench/*.bench.ts file matches ${filters.join(' ') || '(all)'}\n`);
  process.exit(1);
}
const outcomes: Outcome[] = [];
for (const file of files) {
  process.stdout.write(`\n>>> ${file}\n`);
  outcomes.push(await runOne(file));
}

process.stdout.write('\n== summary ==\n');
const width = Math.max(...outcomes.map((o) => o.file.length));
for (const o of outcomes) {
  const r = o.result;
  const checks = r?.checks ?? [];
  const missed = checks.filter((c) => !c.met).map((c) => c.what);
  const verdict = o.error
    ? `FAILED (${o.error})`
    : `${checks.length - missed.length}/${checks.length} targets met${missed.length ? `; missed: ${missed.join('; ')}` : ''}`;
  const ratio = r?.ratio !== undefined && r?.ratio !== null ? `ratio ${r?.ratio}` : '';
  process.stdout.write(
    `  ${o.file.padEnd(width)}  ${String(o.seconds).padStart(6)} s  ${ratio.padEnd(14)} ${verdict}\n`,
  );
}

const results = outcomes.flatMap((o) => (o.result ? [o.result] : []));
if (results.length > 0 && process.env.BENCH_RECORD !== '0') {
  const file = await appendResults(results, await machineInfo(), {
    title: `npm run bench (${results.length} benches)`,
  });
  process.stdout.write(`recorded in ${file}\n`);
}
process.exit(outcomes.some((o) => o.error) ? 1 : 0);
