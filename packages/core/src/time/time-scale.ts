/**
 * Compresses a duration by `TIME_SCALE` for the demo and tests (sandbox only):
 * with 86400 a day lasts one second; with 1 time is real.
 *
 * Rounds up, so a positive wait never collapses to zero and steps keep their order.
 * Throws `RangeError` for a negative or non-finite duration or a non-positive scale.
 */
export function scaleDuration(ms: number, timeScale: number): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`scaleDuration: ms must be a finite number ≥ 0, got ${ms}`);
  if (!Number.isFinite(timeScale) || timeScale <= 0) {
    throw new RangeError(`scaleDuration: timeScale must be a finite number > 0, got ${timeScale}`);
  }
  return Math.ceil(ms / timeScale);
}
