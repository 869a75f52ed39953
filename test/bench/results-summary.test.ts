import { describe, expect, it } from 'vitest';
import { recordedChecks, summaryTables, withSummary } from '../../bench/lib/results-file.js';

const history = `# Benchmark results

Header text.

## 2026-11-20 10:00 UTC: npm run bench (1 benches)

Machine id: \`Box A / 2 cores / 8 GB\`

### dispatch

- met: touches/s >= 2000 (actual 2,257)
- **missed**: p99 lag (ms) < 1000 (actual 1,200)

## 2026-11-21 10:00 UTC: by hand

Machine id: \`Box A / 2 cores / 8 GB\`. Some prose.

### dispatch

- met: p99 lag (ms) < 1000 (actual 800)

## 2026-11-21 11:00 UTC: npm run bench (1 benches)

Machine id: \`Box B / 2 cores / 24 GB\`

### webhook-intake

- **missed**: signed webhooks/s over a bare route >= 0.5 (actual 0.036)
`;

describe('bench/RESULTS.md summary', () => {
  it('reads every recorded target with its machine, date and bench', () => {
    const checks = recordedChecks(history);
    expect(checks).toHaveLength(4);
    expect(checks[1]).toEqual({
      machine: 'Box A / 2 cores / 8 GB',
      date: '2026-11-20 10:00',
      bench: 'dispatch',
      what: 'p99 lag (ms)',
      target: '< 1000',
      actual: '1,200',
      met: false,
    });
    expect(checks[3]!.target).toBe('>= 0.5');
  });

  it('keeps, per machine, the latest run of each bench whole', () => {
    const table = summaryTables(history);
    expect(table).toContain('### `Box A / 2 cores / 8 GB`');
    // Box B was measured last: its table comes first.
    expect(table.indexOf('Box B')).toBeLessThan(table.indexOf('Box A'));
    expect(table).toContain('| dispatch | 2026-11-21 10:00 | p99 lag (ms) | < 1000 | 800 | met |');
    // The older run of the same bench is replaced, not merged.
    expect(table).not.toContain('2,257');
    expect(table).toContain(
      '| webhook-intake | 2026-11-21 11:00 | signed webhooks/s over a bare route | >= 0.5 | 0.036 | **missed** |',
    );
  });

  it('opens the file with the summary and regenerates it in place', () => {
    const once = withSummary(history);
    expect(once.indexOf('## Summary')).toBeLessThan(once.indexOf('## 2026-11-20'));
    expect(once.startsWith('# Benchmark results\n\nHeader text.\n\n')).toBe(true);
    expect(withSummary(once)).toBe(once);
    const more = `${once}\n## 2026-11-22 09:00 UTC: x\n\nMachine id: \`Box A / 2 cores / 8 GB\`\n\n### dispatch\n\n- met: p99 lag (ms) < 1000 (actual 700)\n`;
    const again = withSummary(more);
    expect(again.match(/## Summary/g)).toHaveLength(1);
    expect(again).toContain('| dispatch | 2026-11-22 09:00 | p99 lag (ms) | < 1000 | 700 | met |');
  });
});
