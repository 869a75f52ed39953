import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchResult, Figure, Figures } from './bench-result.js';
import type { MachineInfo } from './machine-info.js';

const DEFAULT_FILE = fileURLToPath(new URL('../RESULTS.md', import.meta.url));

const HEADER = `# Benchmark results

Written by the benches (\`npm run bench\`, or one \`npx tsx bench/<name>.bench.ts\`). Each run
appends one section with its machine and date; sections are never rewritten, so figures
from another machine stay as they were. Compare figures only within one machine: the
ratios to a baseline measured in the same run are what carries across machines.
`;

const MACHINE_LINE = /^Machine id: `(.+)`$/gm;

const cell = (v: Figure | undefined): string =>
  v === undefined
    ? ''
    : typeof v === 'number'
      ? v.toLocaleString('en-US', { maximumFractionDigits: 3 })
      : String(v);

function figuresCell(f: Figures | number | null | undefined): string {
  if (f === null || f === undefined) return '';
  if (typeof f === 'number') return cell(f);
  return Object.entries(f)
    .map(([k, v]) => `${k}: ${cell(v)}`)
    .join('<br>');
}

/** The markdown section of one run. */
export function resultsSection(
  results: BenchResult[],
  machine: MachineInfo,
  title: string,
  others: string[],
): string {
  const lines: string[] = [];
  lines.push(`## ${machine.date.slice(0, 16).replace('T', ' ')} UTC: ${title}`, '');
  lines.push(`Machine id: \`${machine.id}\``, '');
  lines.push(
    `${machine.cores} cores, ${machine.memoryGb} GB, ${machine.cpuModel}; ${machine.platform}; ` +
      `Node ${machine.node}, Redis ${machine.redis}, PostgreSQL ${machine.postgres}; host \`${machine.hostname}\`.`,
    '',
  );
  if (others.length > 0) {
    lines.push(
      `> Earlier sections come from other machines (${others.map((o) => `\`${o}\``).join(', ')}); ` +
        'they are kept as they were, not replaced by this run.',
      '',
    );
  }
  for (const r of results) {
    lines.push(`### ${r.name}`, '', '| figure | value |', '|---|---|');
    for (const [k, v] of Object.entries(r.figures)) lines.push(`| ${k} | ${cell(v)} |`);
    if (r.baseline !== undefined && r.baseline !== null)
      lines.push(`| baseline | ${figuresCell(r.baseline)} |`);
    if (r.ratio !== undefined && r.ratio !== null) lines.push(`| ratio | ${cell(r.ratio)} |`);
    lines.push('');
    for (const c of r.checks ?? []) {
      lines.push(`- ${c.met ? 'met' : '**missed**'}: ${c.what} ${c.target} (actual ${cell(c.actual)})`);
    }
    for (const n of r.notes ?? []) lines.push(`- note: ${n}`);
    if ((r.checks?.length ?? 0) + (r.notes?.length ?? 0) > 0) lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Appends a section for this run (machine, date, every result) to bench/RESULTS.md,
 * creating the file with its header when missing. Never rewrites earlier sections;
 * when they come from another machine the new section says so.
 * @returns the file written.
 */
export async function appendResults(
  results: BenchResult[],
  machine: MachineInfo,
  opts: { file?: string; title?: string } = {},
): Promise<string> {
  const file = opts.file ?? process.env.BENCH_RESULTS_FILE ?? DEFAULT_FILE;
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const others = [...new Set([...existing.matchAll(MACHINE_LINE)].map((m) => m[1]!))].filter(
    (id) => id !== machine.id,
  );
  const section = resultsSection(
    results,
    machine,
    opts.title ?? results.map((r) => r.name).join(', '),
    others,
  );
  writeFileSync(file, `${existing.trimEnd()}\n\n${section}`);
  return file;
}
