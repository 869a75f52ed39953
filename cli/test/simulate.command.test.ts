import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulate } from '../src/commands/simulate.command.js';

const EXAMPLE = join(import.meta.dirname, '../../examples/simulate/campaign.json');
const CSV = join(import.meta.dirname, '../../examples/simulate/prospects.csv');
const noDatabase = () => {
  throw new Error('no database expected');
};

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: { print: (l: string) => lines.push(l), error: (l: string) => errors.push(l) },
  };
}

describe('touchbase simulate', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'touchbase-simulate-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the same JSON for the example twice, and writes the picture', async () => {
    const a = capture();
    const svg = join(dir, 'sends.svg');
    expect(await runSimulate([EXAMPLE, '--prospects', CSV, '--json', '--svg', svg], noDatabase, a.out)).toBe(
      0,
    );
    const b = capture();
    expect(await runSimulate([EXAMPLE, '--prospects', CSV, '--json'], noDatabase, b.out)).toBe(0);
    expect(b.lines.join('\n')).toBe(a.lines.join('\n'));
    const report = JSON.parse(a.lines.join('\n'));
    expect(report.input.prospects).toBe(60);
    const picture = await readFile(svg, 'utf8');
    expect(picture).toMatch(/^<svg /);
    expect(picture).toContain('stroke-dasharray'); // the caps line
    expect(picture).toContain('ana@outreach.example');
  });

  it('prints the summary with the binding constraint, and overrides the seed and size by flags', async () => {
    const c = capture();
    expect(await runSimulate([EXAMPLE, '--count', '200', '--seed', '9'], noDatabase, c.out)).toBe(0);
    const text = c.lines.join('\n');
    expect(text).toContain('Simulated 200 prospects, 5 steps, 4 mailboxes (pool), seed 9');
    expect(text).toMatch(/Binding constraint: /);
    expect(text).toMatch(
      /Sends per day \(UTC\), all mailboxes; caps 200\/day, [\d.]+% of them used on sending days:/,
    );
  });

  it('names the field of a bad input and exits 2', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({ start: 'tomorrow', sequence: { steps: [] }, prospects: { count: 1 } }),
    );
    const c = capture();
    expect(await runSimulate([bad], noDatabase, c.out)).toBe(2);
    expect(c.errors).toContain('start: Invalid ISO datetime');
    expect(c.errors.some((e) => e.startsWith('sequence.steps:'))).toBe(true);
  });
});
