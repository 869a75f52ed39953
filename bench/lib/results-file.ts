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

const SUMMARY_START = '<!-- summary: written by the benches from the history below; edits here are lost -->';
const SUMMARY_END = '<!-- summary end -->';

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
  const existing = withoutSummary(existsSync(file) ? readFileSync(file, 'utf8') : HEADER);
  const others = [...new Set([...existing.matchAll(MACHINE_LINE)].map((m) => m[1]!))].filter(
    (id) => id !== machine.id,
  );
  const section = resultsSection(
    results,
    machine,
    opts.title ?? results.map((r) => r.name).join(', '),
    others,
  );
  writeFileSync(file, withSummary(`${existing.trimEnd()}\n\n${section}`));
  return file;
}

/** One target as a run recorded it. */
export type RecordedCheck = {
  machine: string;
  date: string;
  bench: string;
  what: string;
  target: string;
  actual: string;
  met: boolean;
};

const CHECK_LINE = /^- (met|\*\*missed\*\*): (.*) (>=|<=|<|>) (\S+) \(actual (.*)\)$/;

/**
 * Every target the history records (`- met: …` / `- **missed**: …` lines), with the
 * machine, date and bench of its section, in file order.
 */
export function recordedChecks(markdown: string): RecordedCheck[] {
  const out: RecordedCheck[] = [];
  let machine: string | null = null;
  let date = '';
  let bench: string | null = null;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) {
      machine = null;
      bench = null;
      date = /^## (\d{4}-\d\d-\d\d \d\d:\d\d)/.exec(line)?.[1] ?? '';
      continue;
    }
    const m = /^Machine id: `([^`]+)`/.exec(line);
    if (m) {
      machine = m[1]!;
      continue;
    }
    if (line.startsWith('### ')) {
      bench = line.slice(4).trim();
      continue;
    }
    const c = CHECK_LINE.exec(line);
    if (c && machine && bench)
      out.push({
        machine,
        date,
        bench,
        what: c[2]!,
        target: `${c[3]} ${c[4]}`,
        actual: c[5]!,
        met: c[1] === 'met',
      });
  }
  return out;
}

/**
 * The summary that opens bench/RESULTS.md: one table per machine, each bench's
 * targets as its latest recorded run left them (figure, target, met or missed).
 */
export function summaryTables(markdown: string): string {
  const checks = recordedChecks(markdown);
  const latest = new Map<string, Map<string, RecordedCheck[]>>();
  for (const c of checks) {
    const byBench = latest.get(c.machine) ?? new Map<string, RecordedCheck[]>();
    const prior = byBench.get(c.bench);
    // A later section of the same bench replaces the earlier one whole.
    if (!prior || prior[0]!.date !== c.date) byBench.set(c.bench, [c]);
    else prior.push(c);
    latest.set(c.machine, byBench);
  }
  const lines = [
    SUMMARY_START,
    '## Summary: latest run of each bench, by machine, the one measured last first',
    '',
  ];
  if (latest.size === 0) lines.push('No bench has recorded a target yet.', '');
  // The machine measured last first: the one a reader most likely runs on.
  const newest = (byBench: Map<string, RecordedCheck[]>) =>
    [...byBench.values()].reduce((a, cs) => (cs[0]!.date > a ? cs[0]!.date : a), '');
  const machines = [...latest].sort(([, a], [, b]) => newest(b).localeCompare(newest(a)));
  for (const [machine, byBench] of machines) {
    lines.push(
      `### \`${machine}\``,
      '',
      '| bench | run (UTC) | figure | target | latest | met? |',
      '|---|---|---|---|---|---|',
    );
    for (const [bench, cs] of [...byBench].sort(([a], [b]) => a.localeCompare(b)))
      for (const c of cs)
        lines.push(
          `| ${bench} | ${c.date} | ${c.what.replaceAll('|', '\\|')} | ${c.target} | ${c.actual} | ${c.met ? 'met' : '**missed**'} |`,
        );
    lines.push('');
  }
  lines.push(SUMMARY_END);
  return lines.join('\n');
}

/** The file without its summary block. */
export function withoutSummary(markdown: string): string {
  const a = markdown.indexOf(SUMMARY_START);
  const b = markdown.indexOf(SUMMARY_END);
  if (a < 0 || b < a) return markdown;
  return `${markdown.slice(0, a).trimEnd()}\n\n${markdown.slice(b + SUMMARY_END.length).trimStart()}`;
}

/** The file with its summary regenerated, placed before the first run's section. */
export function withSummary(markdown: string): string {
  const body = withoutSummary(markdown);
  const first = body.search(/^## /m);
  const head = first < 0 ? body : body.slice(0, first);
  const history = first < 0 ? '' : body.slice(first);
  return `${head.trimEnd()}\n\n${summaryTables(history)}\n\n${history.trimEnd()}\n`;
}

/** Rewrites the summary of bench/RESULTS.md from its history (no run). */
export function rewriteSummary(file = process.env.BENCH_RESULTS_FILE ?? DEFAULT_FILE): string {
  writeFileSync(file, withSummary(readFileSync(file, 'utf8')));
  return file;
}
