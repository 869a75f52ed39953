/** One measured value: a number (rates, bytes, ms), or a string / boolean / null when it has no number. */
export type Figure = number | string | boolean | null;
export type Figures = Record<string, Figure>;

/** A target from the issue and whether this run met it. */
export type BenchCheck = { what: string; target: string; actual: Figure; met: boolean };

/** What a benchmark measured: its figures, the baseline measured in the same run, and the ratio. */
export type BenchResult = {
  /** Short kebab-case name, e.g. `enrollment`. */
  name: string;
  figures: Figures;
  /** The baseline's figures (raw BullMQ, a bare route…), measured in the same run on the same servers. */
  baseline?: Figures | number | null;
  /** The headline ratio to the baseline (ours / baseline unless the bench says otherwise). */
  ratio?: number | null;
  checks?: BenchCheck[];
  notes?: string[];
};

/** Builds a check: `actual op limit`, e.g. `check('ratio to raw addBulk', 0.62, '>=', 0.5)`. */
export function check(what: string, actual: number, op: '>=' | '<=' | '<' | '>', limit: number): BenchCheck {
  const met =
    op === '>='
      ? actual >= limit
      : op === '<='
        ? actual <= limit
        : op === '<'
          ? actual < limit
          : actual > limit;
  return { what, target: `${op} ${limit}`, actual: round(actual), met };
}

/** Rounds to 3 significant decimals below 10, 2 below 1,000, integers above; keeps non-finite as null. */
export function round(v: number): number | null {
  if (!Number.isFinite(v)) return null;
  const abs = Math.abs(v);
  if (abs >= 1000) return Math.round(v);
  if (abs >= 10) return Math.round(v * 100) / 100;
  return Math.round(v * 1000) / 1000;
}

/**
 * Finds a bench's result in its output: the last line that parses as a JSON object
 * with a `name` and `figures`. Null when there is none (the bench crashed).
 */
export function parseResultLine(output: string): BenchResult | null {
  const lines = output.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    try {
      const v = JSON.parse(line) as Partial<BenchResult>;
      if (typeof v.name === 'string' && v.figures && typeof v.figures === 'object') return v as BenchResult;
    } catch {
      // Not our line (a log line that starts with `{`): keep looking upwards.
    }
  }
  return null;
}
