const HOUR = 3_600_000;

/** How many touches a cause delayed, and by how much (hours). */
export type DelayFigures = {
  count: number;
  share: number;
  meanHours: number;
  p90Hours: number;
  maxHours: number;
};

/** The delay figures of `values` (ms, 0 for not delayed) over `touches` touches. */
export function delayOf(values: readonly number[], touches: number): DelayFigures {
  const delayed = values.filter((v) => v > 0).sort((a, b) => a - b);
  const count = delayed.length;
  const sum = delayed.reduce((s, v) => s + v, 0);
  return {
    count,
    share: touches > 0 ? round(count / touches, 4) : 0,
    meanHours: count > 0 ? round(sum / count / HOUR, 2) : 0,
    p90Hours: count > 0 ? round(delayed[Math.min(count - 1, Math.floor(count * 0.9))]! / HOUR, 2) : 0,
    maxHours: count > 0 ? round(delayed[count - 1]! / HOUR, 2) : 0,
  };
}

/** `n` rounded to `digits` decimals. */
export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
