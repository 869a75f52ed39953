import { expect } from 'vitest';

/** The values that occur more than once, each listed again for every repeat. */
export function repeated<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  return values.filter((v) => seen.size === seen.add(v).size);
}

/**
 * Invariant 2 (no touch twice): no (enrollment, step) among `deliveries` was
 * delivered more than once; a failure names the pairs that were.
 */
export function assertExactlyOnce(deliveries: readonly { enrollmentId: string; step: number }[]): void {
  expect(repeated(deliveries.map((d) => `${d.enrollmentId}-${d.step}`))).toEqual([]);
}
