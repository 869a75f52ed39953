import type { BenchResult, Figure, Figures } from './bench-result.js';
import { machineInfo } from './machine-info.js';
import { appendResults } from './results-file.js';

const fmt = (v: Figure): string =>
  typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 3 }) : String(v);

function printFigures(title: string, figures: Figures): void {
  const width = Math.max(...Object.keys(figures).map((k) => k.length), 8);
  process.stdout.write(`  ${title}:\n`);
  for (const [k, v] of Object.entries(figures)) process.stdout.write(`    ${k.padEnd(width)}  ${fmt(v)}\n`);
}

/**
 * Prints a bench's figures readably, then ONE final line of JSON (`bench/run-all.ts`
 * and anyone scripting a bench read that last line; nothing may be printed after it).
 */
export function printResult(result: BenchResult): void {
  process.stdout.write(`\n== ${result.name} ==\n`);
  printFigures('figures', result.figures);
  if (typeof result.baseline === 'number') process.stdout.write(`  baseline: ${fmt(result.baseline)}\n`);
  else if (result.baseline) printFigures('baseline', result.baseline);
  if (result.ratio !== undefined && result.ratio !== null)
    process.stdout.write(`  ratio: ${fmt(result.ratio)}\n`);
  for (const c of result.checks ?? []) {
    process.stdout.write(`  [${c.met ? 'met' : 'MISSED'}] ${c.what} ${c.target} (actual ${fmt(c.actual)})\n`);
  }
  for (const n of result.notes ?? []) process.stdout.write(`  note: ${n}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** True when `bench/run-all.ts` started this bench (it records every result itself). */
export function underRunAll(): boolean {
  return process.env.BENCH_RUN_ALL === '1';
}

/**
 * Ends a bench run alone: records the result in bench/RESULTS.md (unless run by
 * run-all, which records the whole run, or `BENCH_RECORD=0`), then prints it.
 */
export async function finishBench(result: BenchResult): Promise<void> {
  if (!underRunAll() && process.env.BENCH_RECORD !== '0') {
    const file = await appendResults([result], await machineInfo(), { title: result.name });
    process.stdout.write(`recorded in ${file}\n`);
  }
  printResult(result);
}
