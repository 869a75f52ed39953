/** A send as a log saw it: when, and how long after the token it used was granted. */
export type TimedSend = { at: number; lagMs: number };

/**
 * Windows where a log of sends certainly broke a cap: for each window (cap C,
 * length W), the runs of C + 1 consecutive sends whose grants must have fallen
 * within W. A send is logged some time after its grant (the provider call, the
 * commit), and not always the same time, so C + 1 sends closer together than W
 * prove nothing alone; their grants lie within `span + (largest lag - smallest
 * lag)` of each other, and when that is below W the cap was broken. 0 means no log
 * shows a broken cap.
 */
export function certainCapViolations(sends: TimedSend[], windows: [number, number][]): number {
  const sorted = [...sends].sort((a, b) => a.at - b.at);
  let violations = 0;
  for (const [cap, ms] of windows) {
    for (let i = 0; i + cap < sorted.length; i++) {
      const group = sorted.slice(i, i + cap + 1);
      const lags = group.map((s) => s.lagMs);
      const span = group[cap]!.at - group[0]!.at;
      if (span + Math.max(...lags) - Math.min(...lags) < ms) violations++;
    }
  }
  return violations;
}

/** The most sends of the log in any window of each length, as is (no allowance for lag). */
export function busiestWindows(times: number[], windows: [number, number][]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return windows.map(([, ms]) => {
    let most = 0;
    let start = 0;
    for (let end = 0; end < sorted.length; end++) {
      while (sorted[end]! - sorted[start]! >= ms) start++;
      most = Math.max(most, end - start + 1);
    }
    return most;
  });
}
