/**
 * The `p`-th percentile (0-100) of `values` by the nearest-rank method: the
 * smallest value with at least p% of the values at or below it. NaN when empty.
 * Sorts a copy; pass `sorted: true` to skip that for an already sorted array.
 */
export function percentile(values: readonly number[], p: number, sorted = false): number {
  if (values.length === 0) return Number.NaN;
  if (p < 0 || p > 100) throw new RangeError(`percentile ${p} is outside 0-100`);
  const xs = sorted ? values : [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * xs.length));
  return xs[rank - 1]!;
}

/** p50, p90, p99, max and mean of a sample, rounded to `digits` decimals. */
export function summarize(values: readonly number[], digits = 2) {
  const xs = [...values].sort((a, b) => a - b);
  const round = (v: number) => (Number.isFinite(v) ? Number(v.toFixed(digits)) : null);
  const mean = xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
  return {
    n: xs.length,
    p50: round(percentile(xs, 50, true)),
    p90: round(percentile(xs, 90, true)),
    p99: round(percentile(xs, 99, true)),
    max: round(xs[xs.length - 1] ?? Number.NaN),
    mean: round(mean),
  };
}
